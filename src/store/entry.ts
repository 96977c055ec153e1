import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, checkpointLayout, checkpointSignals, storeCommitDir, storeEntryDir, storeTestDir } from '../config/paths';
import type { BaselineTestRecord } from '../types';
import type { EarlierRender } from '../files/run-folder';
import { linkOrCopy, subfolders } from '../util/fs';
import { newerVersion, readCheckedJson } from '../util/schema';
import { contentsProblem, sealedContents, type SealedContents } from '../files/seal';
import { commitsByAge, isKeyName } from './home';
import type { TestSource } from './key';

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
 * The seal's format is docs/store-entry.schema.json, checked on every read. Beside the entries, a
 * suite's index names them (suite-index.ts); key.ts keys them, journal.ts stores a run's suite,
 * prune.ts keeps the store to its size.
 */

/** The file that seals an entry: written last, so an entry without it is unfinished. */
export const SEAL_FILE = 'entry.json';

/** The format of an entry's seal this visual-uat writes and reads (docs/store-entry.schema.json `version`). */
export const ENTRY_VERSION = 1;

export interface Seal {
  version: typeof ENTRY_VERSION;
  key: string;
  source: string;
  files: Record<string, string>;
  checkpoints: string[];
  /** Every file of the entry (images, signals, layout records) → SHA-256 (see files/seal). */
  contents: SealedContents;
  /** The checkpoints whose capture never held still: their images prove no settled page (see earlierRender). */
  unsettled: string[];
  /** The checkpoints whose capture wrote a layout record. */
  layouts: string[];
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

/** An entry's seal, when it reads whole and is of its schema (docs/store-entry.schema.json): a seal of another shape is no seal. */
export function readSeal(dir: string): Seal | null {
  return readCheckedJson<Seal>(path.join(dir, SEAL_FILE), 'store-entry');
}

/** An entry's seal when the entry can be used, else why not. */
export function checkEntry(dir: string, key: string, source: string): { seal: Seal; problem: null } | { seal: null; problem: string } {
  const seal = readSeal(dir);
  const problem = sealProblem(dir, seal, key, source);
  return problem === null ? { seal: seal!, problem } : { seal: null, problem };
}

function sealProblem(dir: string, seal: Seal | null, key: string, source: string): string | null {
  if (!seal) {
    const newer = newerVersion(path.join(dir, SEAL_FILE), ENTRY_VERSION);
    return newer === null
      ? 'its store entry is unsealed'
      : `its store entry is of format ${newer}, which a newer visual-uat wrote: upgrade visual-uat to take baselines from it`;
  }
  if (seal.key !== key || seal.source !== source) return 'its store entry is keyed otherwise';
  const image = seal.checkpoints.find((name) => !(path.basename(checkpointImage(dir, '', name)) in seal.contents));
  if (image !== undefined) return `the stored image of "${image}" is not sealed`;
  return contentsProblem(dir, seal.contents);
}

export type Lookup = { entry: string; source: string; checkpoints: string[]; layouts: string[] } | { entry: null; reason: string };

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
    return { entry: dir, source: source.hash, checkpoints, layouts };
  }
  const versions = sealsOf(storeTestDir(store, baseCommit, key)).filter((seal) => seal.key === key && !seal.suite);
  if (versions.length === 0) return { entry: null, reason: 'not in the store' };
  // Against the closest stored version (newest first among equals): the newest may be another
  // branch's edit of the test, against which files that did not change here differ too.
  const differing = versions.map((seal) =>
    [...new Set([...Object.keys(seal.files), ...Object.keys(source.files)])].filter((file) => seal.files[file] !== source.files[file]),
  );
  const changed = differing.reduce((closest, files) => (files.length < closest.length ? files : closest));
  if (changed.length === 0) return { entry: null, reason: 'options, browser or versions changed' };
  return { entry: null, reason: `${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''} changed` };
}

/**
 * The newest stored render of a test that the run renders again (its sources changed, or the base
 * commit did): at this base commit first, then at the other commits newest first. Its images are
 * no baseline, only a proof of settling: a capture identical to an earlier capture of the same
 * checkpoint that held still shows the page at rest, as one identical to its baseline does, so it
 * needs no retake (see capture/settle.ts stableCapture). Null when no entry says which of its
 * checkpoints held still.
 */
export function earlierRender(store: string, baseCommit: string, key: string): EarlierRender | null {
  const commits = [
    baseCommit,
    ...commitsByAge(store)
      .map((dir) => path.basename(dir))
      .filter((commit) => commit !== baseCommit),
  ];
  for (const commit of commits) {
    const seal = sealsOf(storeTestDir(store, commit, key)).find((found) => found.key === key);
    if (seal) return { entry: seal.dir, settled: seal.checkpoints.filter((name) => !seal.unsettled.includes(name)) };
  }
  return null;
}

/** The sealed entries under a test's folder, newest first. */
export function sealsOf(testDir: string): (Seal & { dir: string })[] {
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
export function storeTest(
  store: string,
  baseCommit: string,
  key: string,
  source: TestSource,
  checkpoints: readonly StoredCheckpoint[],
  replace = false,
): boolean {
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
      version: ENTRY_VERSION,
      key,
      source: source.hash,
      files: source.files,
      checkpoints: checkpoints.map((checkpoint) => checkpoint.name),
      contents: sealedContents(temp, SEAL_FILE),
      unsettled: checkpoints.filter((checkpoint) => !checkpoint.settled).map((checkpoint) => checkpoint.name),
      layouts: checkpoints.filter((checkpoint) => checkpoint.layout).map((checkpoint) => checkpoint.name),
      ...(source.suite ? { suite: source.suite } : {}),
      sealedAt: new Date().toISOString(),
    };
    fs.writeFileSync(path.join(temp, SEAL_FILE), JSON.stringify(seal, null, 2));
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

/** The record of a stored test in a run's baseline manifest (`layouts`: as its seal says), naming its entry. */
export function storedRecord(
  folder: string,
  checkpoints: readonly string[],
  source: string,
  layouts: readonly string[],
): BaselineTestRecord {
  return { folder, status: 'passed', error: null, checkpoints: [...checkpoints], layouts: [...layouts], storeEntry: source };
}
