import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, checkpointLayout, checkpointSignals, olderCacheSeal, storeCommitDir, storeEntryDir, storeSuiteIndex, storeSuitesDir, storeTestDir } from '../config/paths';
import type { FullConfig } from '@playwright/test';
import type { BaselineManifest, BaselineTestRecord, VisualUatOptions } from '../types';
import { readBaselineSide, readManifest, writeManifest, type EarlierRender } from '../files/run-folder';
import { sourceFilesUnder, type Repo } from '../git';
import { errorCode, isInside, linkOrCopy, readJsonFile, subfolders, writeFileAtomic } from '../util/fs';
import { faultPoint } from '../config/fault-point';
import { contentsProblem, sealedContents, type SealedContents } from '../files/seal';
import { commitsByAge, isKeyName, isSuiteIndexName, isUnfinishedWrite } from './home';
import { sha256File } from '../util/hash';
import { plural } from '../util/text';
import { projectUse, versions } from '../sources/capture-inputs';
import type { TestLocation } from '../sources/capture-scan';
import { isCodeFile, type SourceGraph } from '../sources/source-graph';
import { specDigest } from '../sources/test-text';

/**
 * The baseline store: `<store>/<baseCommit>/<test:16>/<sources:16>/`, one entry per test and
 * version of what its capture depends on (its own source closure, the config, the options and
 * browser that reach the capture, the versions). A plain folder: a CI cache or artifact restores
 * it, shards share it. An entry is written in a temporary folder, sealed last (entry.json, with the
 * hash of every file) and renamed into place, so a reader sees a whole entry or none and needs no
 * lock; one that is unsealed, keyed otherwise or whose file is missing or altered is rendered
 * again, never used. Only tests that passed on the base are stored as their sources' baselines; a
 * test the store cannot key by its own sources (it failed on the base, or its file is outside the
 * repository) is stored for its suite only (see suiteSource), so that suite's warm run has it.
 *
 * Beside the entries, `<store>/<baseCommit>/suites/<suite key:16>.json` indexes a suite's entries
 * (see lookUpSuite): a warm run is one read of the index, the check of each entry's seal and a copy
 * of the files, with no listing of the tests and no hashing of their sources.
 */

/** Base commits kept in the store (newest first), and versions of one test's sources kept per commit. */
export const KEPT_COMMITS = 6;
const KEPT_VERSIONS = 3;
/** Suite indexes kept per base commit (newest first): a few branches' and arguments' suites. */
const KEPT_SUITES = 6;
const SEAL = 'entry.json';
/** A temporary folder older than this was left by a killed writer. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/** What a test's baselines depend on besides the base commit. */
export interface TestSource {
  hash: string;
  /** Repository-relative path → SHA-256 of its bytes: the test file, the config and what they import. */
  files: Record<string, string>;
  /** The suite key of an entry kept for one suite only (see suiteSource): no look-up by sources finds it. */
  suite?: string;
}

/** A test the pass rendered on the base, with what keys its store entry. */
export interface RenderedTest {
  key: string;
  source: TestSource;
}

export interface Seal {
  key: string;
  source: string;
  files: Record<string, string>;
  checkpoints: string[];
  /** Every file of the entry (images, signals, layout records) → SHA-256 (see files/seal). Absent in entries of versions that sealed the images only: those are rendered again. */
  contents?: SealedContents;
  /**
   * The checkpoints whose capture never held still: their images prove no settled page (see
   * earlierRender). Absent in entries of versions before it was kept: none of theirs is used so.
   */
  unsettled?: string[];
  /** The checkpoints whose capture wrote a layout record (absent in entries of older versions, which did not say). */
  layouts?: string[];
  /** Set on an entry kept for one suite only (see suiteSource). */
  suite?: string;
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
 * reads which cannot be told from its imports (the suite key holds them the same way).
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

/**
 * What keys the entry of a test the store cannot key by its own sources (it failed on the base,
 * or no source closure): the suite's key, so only that suite's index reaches it, and a failure on
 * the base is rendered again by any other suite (its failure may not last).
 */
export function suiteSource(suiteKey: string): TestSource {
  return { hash: crypto.createHash('sha256').update(`suite\0${suiteKey}`).digest('hex'), files: {}, suite: suiteKey };
}

/** An entry's seal when the entry can be used, else why not. */
function checkEntry(dir: string, key: string, source: string): { seal: Seal; problem: null } | { seal: null; problem: string } {
  const seal = readSeal(dir);
  const problem = sealProblem(dir, seal, key, source);
  return problem === null ? { seal: seal!, problem } : { seal: null, problem };
}

function sealProblem(dir: string, seal: Seal | null, key: string, source: string): string | null {
  if (!seal) return 'its store entry is unsealed';
  if (seal.key !== key || seal.source !== source) return 'its store entry is keyed otherwise';
  if (!seal.contents) return 'its store entry was sealed by an older visual-uat, which left its signals and layout records unsealed';
  const image = seal.checkpoints.find((name) => !(path.basename(checkpointImage(dir, '', name)) in seal.contents!));
  if (image !== undefined) return `the stored image of "${image}" is not sealed`;
  return contentsProblem(dir, seal.contents);
}

export type Lookup = { entry: string; source: string; checkpoints: string[]; layouts?: string[] } | { entry: null; reason: string };

/**
 * Whether the store has an entry of a test at a base commit that took a checkpoint: a cheap look
 * (its seals) before the sources of a test the scan leaves out are hashed. The entries `record`
 * notes for tests that take none do not count: they spare only a run that renders every test.
 */
export function storeHolds(store: string, baseCommit: string, key: string): boolean {
  return sealsOf(storeTestDir(store, baseCommit, key)).some((seal) => !seal.suite && seal.checkpoints.length > 0);
}

/**
 * The test's entry for these sources at the base commit, or why it must be rendered: no entry, a
 * doubtful one, or the files that differ from its closest stored version (named, so the log says
 * what changed).
 */
export function lookUp(store: string, baseCommit: string, key: string, source: TestSource): Lookup {
  const dir = storeEntryDir(store, baseCommit, key, source.hash);
  if (fs.existsSync(dir)) {
    const { seal, problem } = checkEntry(dir, key, source.hash);
    if (problem !== null) return { entry: null, reason: problem };
    const { checkpoints, layouts } = seal;
    return { entry: dir, source: source.hash, checkpoints, ...(layouts ? { layouts } : {}) };
  }
  const versions = sealsOf(storeTestDir(store, baseCommit, key)).filter((seal) => seal.key === key && !seal.suite);
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

/**
 * Links a stored entry's images, signals and layout records into a test's folder of a run's
 * baseline entry (copies them where the run folder is on another file system). A link costs no
 * bytes; nothing writes a run's baseline file in place (every write there is a new file renamed
 * over it), and a store file altered through its link fails its seal at the next use.
 */
export function copyEntry(entry: string, checkpoints: readonly string[], runEntry: string, folder: string): void {
  fs.mkdirSync(path.join(runEntry, folder), { recursive: true });
  for (const name of checkpoints)
    for (const [from, to] of [
      [checkpointImage(entry, '', name), checkpointImage(runEntry, folder, name)],
      [checkpointSignals(entry, '', name), checkpointSignals(runEntry, folder, name)],
      [checkpointLayout(entry, '', name), checkpointLayout(runEntry, folder, name)],
    ])
      if (fs.existsSync(from)) linkOrCopy(from, to);
}

/**
 * Stores a test's checkpoints as its baselines at the base commit; false when a valid entry was
 * there already (another shard or run stored it first) and `replace` (captured again on purpose)
 * is not set. A write that fails for another reason (a full disk, no permission) throws: it is
 * not another writer's win.
 */
export function storeTest(store: string, baseCommit: string, key: string, source: TestSource, checkpoints: readonly StoredCheckpoint[], replace = false): boolean {
  const dir = storeEntryDir(store, baseCommit, key, source.hash);
  if (!replace && fs.existsSync(dir) && checkEntry(dir, key, source.hash).problem === null) return false;
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
      ...(source.suite ? { suite: source.suite } : {}),
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
    if (fs.existsSync(dir) && checkEntry(dir, key, source.hash).problem === null) return false;
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

/** The record of a stored test in a run's baseline manifest (`layouts`: as its seal says, when it does), naming its entry. */
export function storedRecord(folder: string, checkpoints: readonly string[], source: string, layouts?: readonly string[]): BaselineTestRecord {
  return { folder, status: 'passed', error: null, checkpoints: [...checkpoints], ...(layouts ? { layouts: [...layouts] } : {}), storeEntry: source };
}

/**
 * The newest-N policy, per commit: the newest KEPT_COMMITS base commits stay (and `keep`, the run's
 * own), the older ones go; within a kept commit each test keeps its newest KEPT_VERSIONS entries,
 * and temporary folders a killed writer left go after an hour; a suite's index goes with any entry
 * it names, and beyond the newest KEPT_SUITES. Only what the store can name as its own is removed
 * (a sealed entry, an index, an unfinished write of its own), and then the folders it leaves
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
    pruneSuites(storeSuitesDir(store, path.basename(commitDir)), dropCommit);
    if (dropCommit) removeIfEmpty(commitDir);
  });
}

/** A commit's suite indexes: all of a dropped commit's; else those naming an entry that is gone, and all but the newest. */
function pruneSuites(dir: string, dropCommit: boolean): void {
  if (!fs.existsSync(dir)) return;
  const indexes = fs
    .readdirSync(dir)
    .filter(isSuiteIndexName)
    .map((name) => path.join(dir, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  indexes.forEach((file, index) => {
    if (dropCommit || index >= KEPT_SUITES || suiteEntries(file).some((entry) => !fs.existsSync(path.join(entry, SEAL)))) removeOwn(file);
  });
  if (dropCommit) removeIfEmpty(dir);
}

/** Removes a file or folder the store wrote; a store it cannot write (read-only) keeps it. */
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

/** A suite's index: the manifest of the run that stored it, each test with checkpoints naming its entry. */
interface SuiteIndex {
  key: string;
  sealedAt: string;
  manifest: BaselineManifest;
}

const isStringList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * A test's record as the index holds it, checked whole: a warm run places its files by `folder`
 * (inside the run's entry, never a path out of it) and reads each list it names.
 */
function isIndexRecord(record: unknown): boolean {
  if (record === null || typeof record !== 'object') return false;
  const { folder, status, error, checkpoints, unsettled, layouts, storeEntry } = record as Record<string, unknown>;
  return (
    typeof folder === 'string' &&
    isInside(path.resolve('/entry', folder), '/entry') &&
    typeof status === 'string' &&
    (error === null || typeof error === 'string') &&
    isStringList(checkpoints) &&
    (unsettled === undefined || isStringList(unsettled)) &&
    (layouts === undefined || isStringList(layouts)) &&
    (storeEntry === undefined || (typeof storeEntry === 'string' && isKeyName(storeEntry.slice(0, 16))))
  );
}

function readSuiteIndex(file: string): SuiteIndex | null {
  const index = readJsonFile<SuiteIndex>(file);
  const tests: unknown = index !== null && typeof index === 'object' ? index.manifest?.tests : null;
  const wellFormed = typeof index?.key === 'string' && tests !== null && typeof tests === 'object' && Object.values(tests).every(isIndexRecord);
  return wellFormed ? index : null;
}

/** `<store>/<commit>/suites/<key>.json` → the store and the commit it indexes. */
function indexedCommit(file: string): { store: string; baseCommit: string } {
  const commitDir = path.dirname(path.dirname(file));
  return { store: path.dirname(commitDir), baseCommit: path.basename(commitDir) };
}

/** The entry folders an index names (none for a file that is no index). */
function suiteEntries(file: string): string[] {
  const index = readSuiteIndex(file);
  if (!index) return [];
  const { store, baseCommit } = indexedCommit(file);
  return Object.entries(index.manifest.tests).flatMap(([key, record]) => (record.storeEntry ? [storeEntryDir(store, baseCommit, key, record.storeEntry)] : []));
}

export type SuiteLookup = { index: string; manifest: BaselineManifest } | { index: null; reason: string; doubtful: boolean };

/**
 * The store's index of a suite at the base commit, with each entry it names checked against its
 * seal, or why it cannot be used: none (`not in the store`), or a doubtful one (said in the log by
 * the caller; its tests are then looked up one by one, where the doubtful entry renders again).
 */
export function lookUpSuite(store: string, baseCommit: string, suiteKey: string): SuiteLookup {
  const file = storeSuiteIndex(store, baseCommit, suiteKey);
  if (!fs.existsSync(file)) return { index: null, reason: 'not in the store', doubtful: false };
  const index = readSuiteIndex(file);
  if (!index) return { index: null, reason: "the store's index of this suite does not read", doubtful: true };
  if (index.key !== suiteKey) return { index: null, reason: "the store's index of this suite is keyed otherwise", doubtful: true };
  for (const [key, record] of Object.entries(index.manifest.tests)) {
    if (record.checkpoints.length === 0) continue;
    const dir = record.storeEntry ? storeEntryDir(store, baseCommit, key, record.storeEntry) : null;
    if (!dir || !fs.existsSync(dir)) return { index: null, reason: `the store entry of ${key} is gone`, doubtful: true };
    const { seal, problem } = checkEntry(dir, key, record.storeEntry!);
    if (problem !== null) return { index: null, reason: problem.replace(/^its store entry/, `the store entry of ${key}`), doubtful: true };
    const absent = record.checkpoints.find((name) => !seal.checkpoints.includes(name));
    if (absent !== undefined) return { index: null, reason: `the store entry of ${key} has no "${absent}" (captured again since)`, doubtful: true };
  }
  touch(storeCommitDir(store, baseCommit));
  return { index: file, manifest: index.manifest };
}

/**
 * Links a suite's entries into the run's baseline entry, with the index's manifest: the whole of a
 * warm run's baseline step. The last warm run of the suite left the same entry: its links stand.
 */
export function placeSuite(store: string, baseCommit: string, manifest: BaselineManifest, runEntry: string): void {
  const same = JSON.stringify(readManifest(runEntry)) === JSON.stringify(manifest);
  if (!same) fs.rmSync(runEntry, { recursive: true, force: true });
  for (const [key, record] of Object.entries(manifest.tests))
    if (record.storeEntry && record.checkpoints.length) copyEntry(storeEntryDir(store, baseCommit, key, record.storeEntry), record.checkpoints, runEntry, record.folder);
  if (!same) writeManifest(runEntry, manifest);
}

/** What the run's baseline entry holds that the store keeps: its files are the pass's, the store's copies, a top-up's. */
export interface SuiteToStore {
  store: string;
  baseCommit: string;
  suiteKey: string;
  /** The run's baseline entry. */
  entry: string;
  /** The tests the run rendered on the base, keyed by their sources (a test without one is kept for the suite only). */
  rendered: RenderedTest[];
  /** Captured again on purpose: an entry of the same sources is replaced. */
  replace: boolean;
}

export interface SuiteStored {
  /** Tests stored as their sources' baselines (another writer's entry already there does not count). */
  added: number;
  /** The suite's index, once every test with checkpoints is in the store (null: not written). */
  index: string | null;
  /** A write that failed (a full disk, no permission): its code and how many tests were not stored. */
  failure: { code: string; notStored: number } | null;
}

interface Journal extends SuiteToStore {
  /** The run's baseline entry as it was when the storing began (see files/seal). */
  contents: SealedContents;
}

/**
 * Once the current tests are done: each test of the run's baseline entry that the store does not
 * hold yet goes into it (as its sources' baselines when it passed on the base, else for this suite
 * only), then the suite's index. `journal` names the tests to store until they are, so a run killed
 * meanwhile leaves them to the next (see resumeStoring). Null when the entry is no whole pass's.
 */
export function storeSuite(run: SuiteToStore, journal: string): SuiteStored | null {
  const manifest = readManifest(run.entry);
  if (!manifest?.complete) return null;
  const index = storeSuiteIndex(run.store, run.baseCommit, run.suiteKey);
  const pending = Object.entries(manifest.tests).filter(([, record]) => record.checkpoints.length > 0 && !record.storeEntry);
  if (pending.length === 0) return fs.existsSync(index) ? { added: 0, index, failure: null } : storeEntries(run, manifest, pending, index);
  const journaled: Journal = { ...run, contents: sealedContents(run.entry, SEAL) };
  writeFileAtomic(journal, JSON.stringify(journaled));
  try {
    return storeEntries(run, manifest, pending, index);
  } finally {
    fs.rmSync(journal, { force: true });
  }
}

function storeEntries(run: SuiteToStore, manifest: BaselineManifest, pending: [string, BaselineTestRecord][], index: string): SuiteStored {
  const sources = new Map(run.rendered.map(({ key, source }) => [key, source]));
  const tests = { ...manifest.tests };
  let added = 0;
  let whole = true;
  for (const [position, [key, record]] of pending.entries()) {
    const sides = record.checkpoints.map((name) => ({ name, side: readBaselineSide(run.entry, record.folder, name) }));
    if (sides.some(({ side }) => !side.image)) {
      whole = false;
      continue;
    }
    const checkpoints = sides.map(({ name, side }) => ({ name, image: side.image!, signals: side.signals, layout: side.layout, settled: !!record.unsettled && !record.unsettled.includes(name) }));
    const own = record.status === 'passed' ? sources.get(key) : undefined;
    const source = own ?? suiteSource(run.suiteKey);
    try {
      if (storeTest(run.store, run.baseCommit, key, source, checkpoints, !own || run.replace) && own) added++;
    } catch (error) {
      return { added, index: null, failure: { code: errorCode(error), notStored: pending.length - position } };
    }
    tests[key] = { ...record, storeEntry: source.hash };
    faultPoint('store');
  }
  if (!whole) return { added, index: null, failure: null };
  const sealed: SuiteIndex = { key: run.suiteKey, sealedAt: new Date().toISOString(), manifest: { ...manifest, tests } };
  try {
    writeFileAtomic(index, `${JSON.stringify(sealed, null, 2)}\n`);
  } catch (error) {
    return { added, index: null, failure: { code: errorCode(error), notStored: 0 } };
  }
  return { added, index, failure: null };
}

/**
 * The storing a killed run left (its journal): its tests go into the store now, from its baseline
 * entry, when that entry is as it was (a file altered since is no baseline to keep); null when
 * there is none to resume for this store (`baseCommit`: the one the killed run stored for). The
 * journal goes either way.
 */
export function resumeStoring(journal: string, store: string): { stored: SuiteStored | null; baseCommit: string } | { problem: string } | null {
  const left = readJsonFile<Journal>(journal);
  if (!left || left.store !== store || !left.contents) {
    fs.rmSync(journal, { force: true });
    return null;
  }
  const problem = fs.existsSync(left.entry) ? contentsProblem(left.entry, left.contents) : 'its baseline entry is gone';
  if (problem) {
    fs.rmSync(journal, { force: true });
    return { problem };
  }
  const { contents: _contents, ...run } = left;
  return { stored: storeSuite(run, journal), baseCommit: run.baseCommit };
}

/** A stored baseline image turned out unreadable though sealed: the suite's entries and its index go, and render again next time. */
export function forgetSuite(index: string): void {
  for (const entry of suiteEntries(index)) removeOwn(entry);
  removeOwn(index);
}

/**
 * Whether an older visual-uat kept its suite cache in the run's baseline entry (sealed by its
 * `cache.json`): the run says it is not read (see plan planRun), and it goes when the run makes its
 * own entry there.
 */
export function holdsOlderSuiteCache(entry: string): boolean {
  return fs.existsSync(olderCacheSeal(entry));
}
