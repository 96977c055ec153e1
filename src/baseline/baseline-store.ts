import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, checkpointLayout, checkpointSignals, storeCommitDir, storeEntryDir, storeTestDir } from '../config/paths';
import type { FullConfig } from '@playwright/test';
import type { BaselineTestRecord, VisualUatOptions } from '../types';
import type { EarlierRender } from '../store/run-folder';
import { sourceFilesUnder, type Repo } from '../git';
import { readJsonFile } from '../util/fs';
import { contentsProblem, sealedContents, type SealedContents } from '../store/seal';
import { commitsByAge, isKeyName, isUnfinishedWrite, subfolders } from './store-home';
import { sha256File } from '../util/hash';
import { plural } from '../util/text';
import { projectUse, versions } from './capture-inputs';
import type { TestLocation } from './capture-scan';
import { isCodeFile, type SourceGraph } from './source-graph';
import { specDigest } from './test-text';

/**
 * The per-test baseline store: `<store>/<baseCommit>/<test:16>/<sources:16>/`, one entry per test
 * and version of what its capture depends on (its own source closure, the config, the options and
 * browser that reach the capture, the versions). A plain folder: a CI cache or artifact restores
 * it, shards share it. An entry is written in a temporary folder, sealed last (entry.json, with the
 * hash of every image) and renamed into place, so a reader sees a whole entry or none and needs no
 * lock; one that is unsealed, keyed otherwise or whose image is missing or altered is rendered
 * again, never used. Only tests that passed on the base are stored.
 */

/** Base commits kept in the store (newest first), and versions of one test's sources kept per commit. */
export const KEPT_COMMITS = 6;
const KEPT_VERSIONS = 3;
const SEAL = 'entry.json';
/** A temporary folder older than this was left by a killed writer. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What a test's baselines depend on besides the base commit. */
export interface TestSource {
  hash: string;
  /** Repository-relative path → SHA-256 of its bytes: the test file, the config and what they import. */
  files: Record<string, string>;
}

export interface Seal {
  key: string;
  source: string;
  files: Record<string, string>;
  checkpoints: string[];
  /** Every file of the entry (images, signals, layout records) → SHA-256 (see store/seal). Absent in entries of versions that sealed the images only: those are rendered again. */
  contents?: SealedContents;
  /**
   * The checkpoints whose capture never held still: their images prove no settled page (see
   * earlierRender). Absent in entries of versions before it was kept: none of theirs is used so.
   */
  unsettled?: string[];
  /** The checkpoints whose capture wrote a layout record (absent in entries of older versions, which did not say). */
  layouts?: string[];
  sealedAt: string;
}

/** One checkpoint to store: its image and what the capture recorded besides pixels. */
export interface StoredCheckpoint {
  name: string;
  image: string;
  signals: unknown;
  /** Its layout record's file (null: none), so a change against a stored baseline is explained too. */
  layout: string | null;
  /** Whether its capture held still (two identical captures, or one identical to its baseline). */
  settled: boolean;
}

/** What a test's key takes besides its own closure. */
export interface KeyInputs {
  configFile: string;
  /** Its project's capture inputs (see projectCaptures). */
  capture: string;
  /** Whether its project's tests are isolated (see config/isolation testsIsolated). */
  isolated: boolean;
  /** The files under the testDirs that are not code (see testDirData). */
  data: Record<string, string>;
}

/**
 * The test's source closure (its file, the config, what they import), the files under the
 * testDirs that are not code, and the capture inputs (captureFingerprint), hashed; null for a test
 * file outside the repository or an unreadable file: such a test is never stored. The spec counts
 * by its digest for this test (see test-text.ts: its tokens, without the file's other tests where
 * tests are isolated), every other file by its bytes.
 */
export function testSource(graph: SourceGraph, test: TestLocation, inputs: KeyInputs): TestSource | null {
  if (!graph.owns(test.file)) return null;
  const files: Record<string, string> = { ...inputs.data };
  for (const file of graph.closure([inputs.configFile, test.file])) {
    try {
      const spec = file === test.file ? graph.module(file) : null;
      files[path.relative(graph.repoRoot, file).split(path.sep).join('/')] = spec ? `tokens:${specDigest(spec.source, test, inputs.isolated)}` : sha256File(file);
    } catch {
      return null;
    }
  }
  return { hash: crypto.createHash('sha256').update(JSON.stringify({ capture: inputs.capture, files })).digest('hex'), files };
}

/**
 * The files under the testDirs that are not code (a JSON a test reads by path, a CSV, a fixture
 * page), by repository-relative path → SHA-256: every test's key holds them all, since which test
 * reads which cannot be told from its imports (the suite's cache key holds them the same way).
 */
export async function testDirData(repo: Repo, testDirs: readonly string[]): Promise<Record<string, string>> {
  const data: Record<string, string> = {};
  for (const dir of new Set(testDirs))
    for (const file of await sourceFilesUnder(repo, dir))
      if (!isCodeFile(file) && fs.existsSync(file)) data[path.relative(repo.root, file).split(path.sep).join('/')] = sha256File(file);
  return data;
}

/** The capture inputs (see capture-inputs.ts) of one project, as one string. */
function captureFingerprint(options: unknown, use: string, versions: Record<string, string>): string {
  return JSON.stringify({ options, use, versions });
}

/**
 * Each project's capture fingerprint by name, worked out once per project (its `use` stats the
 * browser binary, the versions read package files): the setup's lookups and stores and a record
 * run's stores key on the same value.
 */
export function projectCaptures(options: VisualUatOptions, config: Pick<FullConfig, 'projects'>, repoRoot: string, configFile: string): (project: string) => string {
  const known = new Map<string, string>();
  return (project) => {
    if (!known.has(project)) known.set(project, captureFingerprint(options, projectUse(config.projects.find((p) => p.name === project), repoRoot), versions(configFile)));
    return known.get(project)!;
  };
}

/** An entry's seal, when it reads whole: a seal of another shape is no seal. */
export function readSeal(dir: string): Seal | null {
  const seal = readJsonFile<Seal>(path.join(dir, SEAL));
  const wellFormed = seal !== null && typeof seal === 'object' && typeof seal.key === 'string' && typeof seal.source === 'string' && Array.isArray(seal.checkpoints) && typeof seal.sealedAt === 'string';
  return wellFormed ? seal : null;
}

/** Why an entry cannot be used, or null when it can. */
function entryProblem(dir: string, key: string, source: string): string | null {
  const seal = readSeal(dir);
  if (!seal) return 'its store entry is unsealed';
  if (seal.key !== key || seal.source !== source) return 'its store entry is keyed otherwise';
  if (!seal.contents) return 'its store entry was sealed by an older visual-uat, which left its signals and layout records unsealed';
  const image = seal.checkpoints.find((name) => !(path.basename(checkpointImage(dir, '', name)) in seal.contents!));
  if (image !== undefined) return `the stored image of "${image}" is not sealed`;
  return contentsProblem(dir, seal.contents);
}

export type Lookup = { entry: string; checkpoints: string[]; layouts?: string[] } | { entry: null; reason: string };

/** Whether the store holds any test of this base commit. */
export function storeHoldsCommit(store: string, baseCommit: string): boolean {
  return subfolders(storeCommitDir(store, baseCommit)).some(isKeyName);
}

/**
 * Whether the store has an entry of a test at a base commit that took a checkpoint: a cheap look
 * (its seals) before the sources of a test the scan leaves out are hashed. The entries `record`
 * notes for tests that take none do not count: they spare only a run that renders every test.
 */
export function storeHolds(store: string, baseCommit: string, key: string): boolean {
  return sealsOf(storeTestDir(store, baseCommit, key)).some((seal) => seal.checkpoints.length > 0);
}

/**
 * The test's entry for these sources at the base commit, or why it must be rendered: no entry, a
 * doubtful one, or the files that differ from its closest stored version (named, so the log says
 * what changed).
 */
export function lookUp(store: string, baseCommit: string, key: string, source: TestSource): Lookup {
  const dir = storeEntryDir(store, baseCommit, key, source.hash);
  if (fs.existsSync(dir)) {
    const problem = entryProblem(dir, key, source.hash);
    if (problem) return { entry: null, reason: problem };
    const { checkpoints, layouts } = readSeal(dir)!;
    return { entry: dir, checkpoints, ...(layouts ? { layouts } : {}) };
  }
  const versions = sealsOf(storeTestDir(store, baseCommit, key)).filter((seal) => seal.key === key);
  if (versions.length === 0) return { entry: null, reason: 'not in the store' };
  // Against the closest stored version (newest first among equals): the newest may be another
  // branch's edit of the test, against which files that did not change here differ too.
  const differing = versions.map((seal) => [...new Set([...Object.keys(seal.files), ...Object.keys(source.files)])].filter((file) => seal.files[file] !== source.files[file]));
  const changed = differing.reduce((closest, files) => (files.length < closest.length ? files : closest));
  if (changed.length === 0) return { entry: null, reason: 'options, browser or versions changed' };
  return { entry: null, reason: `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''} changed` };
}

/**
 * The newest stored render of a test that the run renders again (its sources changed, or the base
 * commit did): at this base commit first, then at the other commits newest first. Its images are
 * no baseline, only a proof of settling: a capture identical to an earlier capture of the same
 * checkpoint that held still shows the page at rest, as one identical to its baseline does, so it
 * needs no retake (see capture/checkpoint stableCapture). Null when no entry says which of its
 * checkpoints held still.
 */
export function earlierRender(store: string, baseCommit: string, key: string): EarlierRender | null {
  const commits = [baseCommit, ...commitsByAge(store).map((dir) => path.basename(dir)).filter((commit) => commit !== baseCommit)];
  for (const commit of commits) {
    const seal = sealsOf(storeTestDir(store, commit, key)).find((found) => found.key === key && Array.isArray(found.unsettled));
    if (seal) return { entry: seal.dir, settled: seal.checkpoints.filter((name) => !seal.unsettled!.includes(name)) };
  }
  return null;
}

/** The sealed entries under a test's folder, newest first. */
function sealsOf(testDir: string): (Seal & { dir: string })[] {
  return subfolders(testDir)
    .filter(isKeyName)
    .map((name) => ({ dir: path.join(testDir, name), seal: readSeal(path.join(testDir, name)) }))
    .filter((found): found is { dir: string; seal: Seal } => found.seal !== null)
    .map(({ dir, seal }) => ({ ...seal, dir }))
    .sort((a, b) => Date.parse(b.sealedAt) - Date.parse(a.sealedAt));
}

/** Copies a stored entry's images, signals and layout records into a test's folder of a run's baseline entry. */
export function copyEntry(entry: string, checkpoints: readonly string[], runEntry: string, folder: string): void {
  fs.mkdirSync(path.join(runEntry, folder), { recursive: true });
  for (const name of checkpoints)
    for (const [from, to] of [
      [checkpointImage(entry, '', name), checkpointImage(runEntry, folder, name)],
      [checkpointSignals(entry, '', name), checkpointSignals(runEntry, folder, name)],
      [checkpointLayout(entry, '', name), checkpointLayout(runEntry, folder, name)],
    ])
      if (fs.existsSync(from)) fs.copyFileSync(from, to);
}

/**
 * Stores a test's checkpoints as its baselines at the base commit; false when a valid entry was
 * there already (another shard or run stored it first) and `replace` (captured again on purpose)
 * is not set. A write that fails for another reason (a full disk, no permission) throws: it is
 * not another writer's win.
 */
export function storeTest(store: string, baseCommit: string, key: string, source: TestSource, checkpoints: readonly StoredCheckpoint[], replace = false): boolean {
  const dir = storeEntryDir(store, baseCommit, key, source.hash);
  if (!replace && fs.existsSync(dir) && !entryProblem(dir, key, source.hash)) return false;
  const temp = `${dir}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(temp, { recursive: true });
    for (const checkpoint of checkpoints) {
      fs.copyFileSync(checkpoint.image, checkpointImage(temp, '', checkpoint.name));
      if (checkpoint.signals !== null && checkpoint.signals !== undefined)
        fs.writeFileSync(checkpointSignals(temp, '', checkpoint.name), JSON.stringify(checkpoint.signals));
      if (checkpoint.layout) fs.copyFileSync(checkpoint.layout, checkpointLayout(temp, '', checkpoint.name));
    }
    const seal: Seal = {
      key,
      source: source.hash,
      files: source.files,
      checkpoints: checkpoints.map((checkpoint) => checkpoint.name),
      contents: sealedContents(temp, SEAL),
      unsettled: checkpoints.filter((checkpoint) => !checkpoint.settled).map((checkpoint) => checkpoint.name),
      layouts: checkpoints.filter((checkpoint) => checkpoint.layout).map((checkpoint) => checkpoint.name),
      sealedAt: new Date().toISOString(),
    };
    fs.writeFileSync(path.join(temp, SEAL), JSON.stringify(seal, null, 2));
    // A doubtful entry goes; a reader copying it meanwhile finds it doubtful too, and renders.
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(temp, dir);
    touch(storeCommitDir(store, baseCommit));
    return true;
  } catch (error) {
    // Another writer renamed its own valid entry into place first: that one stands.
    if (fs.existsSync(dir) && !entryProblem(dir, key, source.hash)) return false;
    throw error;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** A commit's folder is as new as its latest use: pruning keeps the commits runs still read. */
export function touch(dir: string): void {
  const now = new Date();
  try {
    fs.utimesSync(dir, now, now);
  } catch {
    // Not there yet: nothing to keep.
  }
}

/** The record of a stored test in a run's baseline manifest (`layouts`: as its seal says, when it does). */
export function storedRecord(folder: string, checkpoints: readonly string[], layouts?: readonly string[]): BaselineTestRecord {
  return { folder, status: 'passed', error: null, checkpoints: [...checkpoints], ...(layouts ? { layouts: [...layouts] } : {}) };
}

/**
 * The newest-N policy, per commit: the newest KEPT_COMMITS base commits stay (and `keep`, the run's
 * own), the older ones go; within a kept commit each test keeps its newest KEPT_VERSIONS entries,
 * and temporary folders a killed writer left go after an hour. Only what the store can name as its
 * own is removed (a sealed entry, an unfinished write of its own), and then the folders it leaves
 * empty: a folder with anything else in it stays.
 */
export function pruneStore(store: string, keep: string | null, keptCommits = KEPT_COMMITS): void {
  commitsByAge(store).forEach((commitDir, index) => {
    const dropCommit = index >= keptCommits && path.basename(commitDir) !== keep;
    for (const test of subfolders(commitDir).filter(isKeyName)) {
      const testDir = path.join(commitDir, test);
      const sealed = sealsOf(testDir);
      for (const old of dropCommit ? sealed : sealed.slice(KEPT_VERSIONS)) removeOwn(old.dir);
      for (const name of subfolders(testDir).filter(isUnfinishedWrite))
        if (dropCommit || Date.now() - fs.statSync(path.join(testDir, name)).mtimeMs > STALE_TEMP_MS) removeOwn(path.join(testDir, name));
      if (dropCommit) removeIfEmpty(testDir);
    }
    if (dropCommit) removeIfEmpty(commitDir);
  });
}

/** Removes a folder the store wrote; a store it cannot write (read-only) keeps it. */
function removeOwn(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // Kept: a read-only store is still read (see store-home openStore).
  }
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Something not the store's is in it, or the store is read-only: it stays.
  }
}

export interface StoreSize {
  commits: number;
  entries: number;
  bytes: number;
}

export function storeSize(store: string): StoreSize {
  const size: StoreSize = { commits: 0, entries: 0, bytes: 0 };
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        size.bytes += fs.statSync(file).size;
        if (entry.name === SEAL) size.entries++;
      }
    }
  };
  for (const dir of commitsByAge(store)) {
    size.commits++;
    walk(dir);
  }
  return size;
}

/** `3 commits, 27 stored tests, 4.1 MB`. */
export function sizeText(size: StoreSize): string {
  return `${plural(size.commits, 'commit')}, ${plural(size.entries, 'stored test')}, ${(size.bytes / 1024 / 1024).toFixed(1)} MB`;
}
