import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { outputPath } from '../config/paths';
import { SetupError } from '../util/errors';
import { readJsonFile } from '../util/fs';
import { processStartTime, sameLiveProcess } from '../util/process';

/**
 * One run at a time per output folder: two runs writing the same screenshots, baselines and
 * results would corrupt each other. The lock is a folder holding one record, `<token>.json`, with
 * its owner's PID and the process's start time, so a lock left by a killed run is recognised as
 * stale and taken over at once: its PID is gone, is a zombie nobody reaped, or now belongs to
 * another process.
 *
 * Runs that find the same stale lock cannot undo each other, because each step is one atomic
 * operation that fails rather than overwrite: a run takes the lock by renaming a folder it has
 * prepared (its record inside) onto the lock's name, which fails while the lock holds a record;
 * it breaks a stale lock by deleting that lock's record by its unique name, which cannot delete
 * a record written after the lock was judged (a new owner's has another token). Of the runs that
 * break the same lock, the first rename wins and the others find a live owner.
 */

interface LockRecord {
  pid: number;
  /** The owner's start time as the OS reports it (see processStartTime). */
  processStart?: string | null;
  startedAt: string;
}

interface Holder {
  file: string;
  /** Null: unreadable (not written by visual-uat, or deleted while being read). */
  record: LockRecord | null;
}

/** Each step either takes the lock, finds a live owner, or clears a stale or empty lock; a few rounds suffice. */
const ATTEMPTS = 10;

/** The lock's record, or null when there is no lock folder or it holds none. */
function readHolder(lock: string): Holder | null {
  let names: string[];
  try {
    names = fs.readdirSync(lock).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (names.length === 0) return null;
  const file = path.join(lock, names[0]);
  return { file, record: readJsonFile<LockRecord>(file) };
}

/** Renames the prepared folder onto the lock: true when taken, false while the lock holds a record. */
function tryTake(staging: string, lock: string): boolean {
  try {
    fs.renameSync(staging, lock);
    return true;
  } catch (error) {
    // ENOTEMPTY or EEXIST: the lock holds a record; EPERM: Windows renames onto no folder, even an empty one.
    if (['ENOTEMPTY', 'EEXIST', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
    throw error;
  }
}

/** Removes the lock folder if it is empty (a run killed between breaking a lock and taking it); rmdir refuses a folder with a record. */
function removeIfEmpty(lock: string): void {
  try {
    fs.rmdirSync(lock);
  } catch (error) {
    if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}

/** Takes the lock or throws a one-line SetupError; returns the PID of a stale lock it replaced. */
export function acquireRunLock(outputDir: string): number | null {
  const lock = outputPath(outputDir, 'lock');
  const token = crypto.randomUUID();
  const staging = `${lock}.${token}`;
  fs.mkdirSync(staging, { recursive: true });
  const record: LockRecord = { pid: process.pid, processStart: processStartTime(process.pid), startedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(staging, `${token}.json`), JSON.stringify(record));
  let replaced: number | null = null;
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (tryTake(staging, lock)) return replaced;
      const holder = readHolder(lock);
      if (!holder) {
        removeIfEmpty(lock);
        continue;
      }
      const owner = holder.record;
      if (owner && owner.pid !== process.pid && sameLiveProcess(owner.pid, owner.processStart))
        throw new SetupError(
          `visual-uat: another run (pid ${owner.pid}, started ${owner.startedAt}) is using ${outputDir}: ` +
            `wait for it to finish, or give this run its own folder with VISUAL_UAT_DIR`,
        );
      replaced = owner?.pid ?? replaced;
      fs.rmSync(holder.file, { force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  throw new SetupError(`visual-uat: could not take the lock ${lock}: remove it if no run is in progress`);
}

/** Releases the lock if this process holds it (merge-reports and shard runs never took one). */
export function releaseRunLock(outputDir: string): void {
  const lock = outputPath(outputDir, 'lock');
  const holder = readHolder(lock);
  if (holder?.record?.pid !== process.pid) return;
  fs.rmSync(holder.file, { force: true });
  removeIfEmpty(lock);
}
