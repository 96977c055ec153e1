import fs from 'node:fs';
import path from 'node:path';
import { storeSuitesDir } from '../config/paths';
import { subfolders } from '../util/fs';
import { plural } from '../util/text';
import { SEAL_FILE, sealsOf } from './entry';
import { commitsByAge, isKeyName, isSuiteIndexName, isUnfinishedWrite } from './home';
import { suiteEntries } from './suite-index';

/** Base commits kept in the store (newest first), and versions of one test's sources kept per commit. */
export const KEPT_COMMITS = 6;
const KEPT_VERSIONS = 3;
/** Suite indexes kept per base commit (newest first): a few branches' and arguments' suites. */
const KEPT_SUITES = 6;
/** A temporary folder older than this was left by a killed writer. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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
    if (dropCommit || index >= KEPT_SUITES || suiteEntries(file).some((entry) => !fs.existsSync(path.join(entry, SEAL_FILE))))
      removeOwn(file);
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
        if (entry.name === SEAL_FILE) size.entries++;
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

/** A stored baseline image turned out unreadable though sealed: the suite's entries and its index go, and render again next time. */
export function forgetSuite(index: string): void {
  for (const entry of suiteEntries(index)) removeOwn(entry);
  removeOwn(index);
}
