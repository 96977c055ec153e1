import fs from 'node:fs';
import path from 'node:path';
import { errorCode, isInside, subfolders } from '../util/fs';
import { strayFile } from '../files/seal';

/**
 * The baseline store's folder (see baseline-store.ts): whether this run can read it and write it, and
 * what in it is the store's. The folder is the user's choice (`baselineStore`,
 * `VISUAL_UAT_BASELINE_STORE`) and may be a typo away from a folder of theirs (`$RUNNER_TEMP`,
 * `~/.cache`, `..`): a marker written when the store is made says the folder is the store's, and
 * nothing is ever deleted in it but entries the store can name as its own.
 */

/** Written in the folder when the store makes it (or adopts a folder that holds nothing but store entries). */
export const STORE_MARKER = '.visual-uat-store.json';

/** How the store's folder is named to the user, in every line about it. */
export const STORE_OPTION = 'baselineStore (or VISUAL_UAT_BASELINE_STORE)';

/** A base commit's folder: a full SHA-1 or SHA-256 object name. */
export function isCommitName(name: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(name);
}

/** A test's folder in a commit, and an entry's in a test's folder: 16 hex digits (see config/paths storeTestDir, storeEntryDir). */
export function isKeyName(name: string): boolean {
  return /^[0-9a-f]{16}$/.test(name);
}

/** A suite's index in a commit's `suites` folder (see baseline-store lookUpSuite). */
export function isSuiteIndexName(name: string): boolean {
  return /^[0-9a-f]{16}\.json$/.test(name);
}

/** An entry being written (see storeTest): `<entry>.<pid>.<random>.tmp`. */
export function isUnfinishedWrite(name: string): boolean {
  return /^[0-9a-f]{16}\.\d+\.[0-9a-f]{8}\.tmp$/.test(name);
}

/** The store's commit folders, newest use first (a commit's folder is touched when a run reads it). */
export function commitsByAge(store: string): string[] {
  return subfolders(store)
    .filter((name) => isCommitName(name))
    .map((name) => path.join(store, name))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
}

/**
 * The baseline store as a run may use it: the one shape every step takes, each field one meaning.
 * Whether this run also takes its baselines from it (not when they are captured again) is the
 * plan's decision (plan.ts RunPlan takesBaselines).
 */
export interface StoreUse {
  /** Its folder. */
  dir: string;
  /** Its folder as a log line shows it. */
  shown: string;
  /** Whether the run may read it (its earlier renders prove settling even when baselines are captured again). */
  readable: boolean;
  /** Whether the run may write it. */
  writable: boolean;
}

/** What this run may do with the store, and the one line that says why it may do less. */
export interface StoreAccess extends Omit<StoreUse, 'shown'> {
  /** Why the store is not used, or only read (null: read and written). */
  warning: string | null;
}

/**
 * Opens the store's folder for a run: makes it (with its marker, and an ignore file when it lies
 * in the repository, as the output folder has), or checks the one that is there. A path that is
 * a file, a folder that cannot be made, or one that holds files the store did not write and no
 * marker is not used at all; a read-only one is read and not written. Whatever it finds, the run
 * goes on: its verdicts never depend on the store.
 */
export function openStore(dir: string, repoRoot: string): StoreAccess {
  const unused = (why: string, fix: string): StoreAccess => ({
    dir,
    readable: false,
    writable: false,
    warning: `the baseline store ${dir} ${why}: ${fix}; this run neither reads nor writes it`,
  });
  let stat: fs.Stats | null = null;
  try {
    stat = fs.statSync(dir);
  } catch {
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch (error) {
      return unused(`could not be created (${errorCode(error)})`, `point ${STORE_OPTION} at a folder this run can create or write`);
    }
  }
  if (stat && !stat.isDirectory()) return unused('is a file, not a folder', `point ${STORE_OPTION} at a folder`);
  const foreign = foreignContent(dir);
  if (foreign) return unused(foreign, `point ${STORE_OPTION} at a new or empty folder (nothing in this one was read or removed)`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    markStore(dir, repoRoot);
  } catch (error) {
    return {
      dir,
      readable: true,
      writable: false,
      warning:
        `the baseline store ${dir} is read-only (${errorCode(error)}): its baselines are read, and this run stores none; ` +
        `make it writable, or point ${STORE_OPTION} at a folder this run can write, ` +
        `to keep what it renders`,
    };
  }
  return { dir, readable: true, writable: true, warning: null };
}

/**
 * Why a folder is not the store's, or null when it is: it has no marker and holds something other
 * than commit folders (the layout of a store made before markers were written).
 */
export function foreignContent(dir: string): string | null {
  if (fs.existsSync(path.join(dir, STORE_MARKER))) return null;
  const foreign = fs
    .readdirSync(dir)
    .filter((name) => !isCommitName(name) && !strayFile(name) && name !== '.gitignore')
    .sort();
  if (foreign.length === 0) return null;
  const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, and ${foreign.length - 3} more` : '');
  return `holds files visual-uat did not write (${shown}) and no ${STORE_MARKER}`;
}

function markStore(dir: string, repoRoot: string): void {
  const marker = path.join(dir, STORE_MARKER);
  if (!fs.existsSync(marker))
    fs.writeFileSync(marker, `${JSON.stringify({ store: 'visual-uat baseline store', createdAt: new Date().toISOString() }, null, 2)}\n`);
  const ignore = path.join(dir, '.gitignore');
  if (isInside(dir, repoRoot) && !fs.existsSync(ignore)) fs.writeFileSync(ignore, '*\n');
}
