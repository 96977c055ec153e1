import fs from 'node:fs';
import path from 'node:path';
import { outputPath } from '../config/paths';
import { SetupError } from '../git';
import { readJsonFile } from '../util/fs';
import { processStartTime, sameLiveProcess } from '../util/process';

/**
 * One run at a time per output folder: two runs writing the same screenshots, baselines and
 * results would corrupt each other. The lock names its owner's PID and the process's start time,
 * so a lock left by a killed run is recognised as stale and taken over: its PID is gone, is a
 * zombie nobody reaped, or now belongs to another process.
 */

interface LockRecord {
  pid: number;
  /** The owner's start time as the OS reports it (see processStartTime). */
  processStart?: string | null;
  startedAt: string;
}

/** Takes the lock or throws a one-line SetupError; returns the PID of a stale lock it replaced. */
export function acquireRunLock(outputDir: string): number | null {
  const file = outputPath(outputDir, 'lock');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let replaced: number | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const record: LockRecord = { pid: process.pid, processStart: processStartTime(process.pid), startedAt: new Date().toISOString() };
      fs.writeFileSync(file, JSON.stringify(record), { flag: 'wx' });
      return replaced;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readJsonFile<LockRecord>(file);
    if (holder && holder.pid !== process.pid && sameLiveProcess(holder.pid, holder.processStart))
      throw new SetupError(
        `visual-uat: another run (pid ${holder.pid}, started ${holder.startedAt}) is using ${outputDir}: wait for it to finish, or give this run its own folder with VISUAL_UAT_DIR`,
      );
    replaced = holder?.pid ?? null;
    fs.rmSync(file, { force: true });
  }
  throw new SetupError(`visual-uat: could not take the lock ${file}: remove it if no run is in progress`);
}

/** Releases the lock if this process holds it (merge-reports and shard runs never took one). */
export function releaseRunLock(outputDir: string): void {
  const file = outputPath(outputDir, 'lock');
  if (readJsonFile<LockRecord>(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}
