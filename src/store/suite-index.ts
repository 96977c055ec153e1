import fs from 'node:fs';
import path from 'node:path';
import { storeCommitDir, storeEntryDir, storeSuiteIndex } from '../config/paths';
import type { BaselineManifest } from '../types';
import { readManifest, writeManifest } from '../files/run-folder';
import { writeFileAtomic } from '../util/fs';
import { newerVersion, readCheckedJson } from '../util/schema';
import { checkEntry, copyEntry, touch } from './entry';

/**
 * A suite's index, `<store>/<baseCommit>/suites/<suite key:16>.json`: the manifest of the run that
 * stored the suite, each test with checkpoints naming its entry. A warm run is one read of the
 * index, the check of each entry's seal and a copy of the files, with no listing of the tests and
 * no hashing of their sources. Its format is docs/suite-index.schema.json, checked on every read: a
 * warm run places files by each record's `folder`, which the schema keeps inside the run's entry.
 */

/** The format of a suite index this visual-uat writes and reads (docs/suite-index.schema.json `version`). */
export const INDEX_VERSION = 1;

export interface SuiteIndex {
  version: typeof INDEX_VERSION;
  key: string;
  sealedAt: string;
  manifest: BaselineManifest;
}

function readSuiteIndex(file: string): SuiteIndex | null {
  return readCheckedJson<SuiteIndex>(file, 'suite-index');
}

/** Writes a suite's index once every entry it names is in the store; throws when the write fails. */
export function writeSuiteIndex(file: string, key: string, manifest: BaselineManifest): void {
  const index: SuiteIndex = { version: INDEX_VERSION, key, sealedAt: new Date().toISOString(), manifest };
  writeFileAtomic(file, `${JSON.stringify(index, null, 2)}\n`);
}

/** `<store>/<commit>/suites/<key>.json` → the store and the commit it indexes. */
function indexedCommit(file: string): { store: string; baseCommit: string } {
  const commitDir = path.dirname(path.dirname(file));
  return { store: path.dirname(commitDir), baseCommit: path.basename(commitDir) };
}

/** The entry folders an index names (none for a file that is no index). */
export function suiteEntries(file: string): string[] {
  const index = readSuiteIndex(file);
  if (!index) return [];
  const { store, baseCommit } = indexedCommit(file);
  return Object.entries(index.manifest.tests).flatMap(([key, record]) =>
    record.storeEntry ? [storeEntryDir(store, baseCommit, key, record.storeEntry)] : [],
  );
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
  if (!index) {
    const newer = newerVersion(file, INDEX_VERSION);
    const reason =
      newer === null
        ? "the store's index of this suite does not read"
        : `the store's index of this suite is of format ${newer}, which a newer visual-uat wrote: ` +
          `upgrade visual-uat to take baselines from it`;
    return { index: null, reason, doubtful: true };
  }
  if (index.key !== suiteKey) return { index: null, reason: "the store's index of this suite is keyed otherwise", doubtful: true };
  for (const [key, record] of Object.entries(index.manifest.tests)) {
    if (record.checkpoints.length === 0) continue;
    const dir = record.storeEntry ? storeEntryDir(store, baseCommit, key, record.storeEntry) : null;
    if (!dir || !fs.existsSync(dir)) return { index: null, reason: `the store entry of ${key} is gone`, doubtful: true };
    const { seal, problem } = checkEntry(dir, key, record.storeEntry!);
    if (problem !== null) return { index: null, reason: problem.replace(/^its store entry/, `the store entry of ${key}`), doubtful: true };
    const absent = record.checkpoints.find((name) => !seal.checkpoints.includes(name));
    if (absent !== undefined)
      return { index: null, reason: `the store entry of ${key} has no "${absent}" (captured again since)`, doubtful: true };
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
    if (record.storeEntry && record.checkpoints.length)
      copyEntry(storeEntryDir(store, baseCommit, key, record.storeEntry), record.checkpoints, runEntry, record.folder);
  if (!same) writeManifest(runEntry, manifest);
}
