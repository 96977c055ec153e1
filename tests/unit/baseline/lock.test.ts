import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock, releaseRunLock } from '../../../src/baseline/lock';
import { outputPath } from '../../../src/config/paths';
import { processStartTime } from '../../../src/util/process';
import { lockRecords, writeRunLock } from '../../support/run-lock';

function outputDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-lock-'));
}

/** A PID whose process has exited and been reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

const startedAt = '2026-01-01T00:00:00.000Z';

describe('acquireRunLock', () => {
  it("takes a free folder: the lock holds one record, this process's", () => {
    const dir = outputDir();
    expect(acquireRunLock(dir)).toBeNull();
    expect(lockRecords(dir)).toEqual([expect.objectContaining({ pid: process.pid, processStart: processStartTime(process.pid) })]);
    // Nothing but the lock is left beside it (the folder it was prepared in became the lock).
    expect(fs.readdirSync(path.dirname(outputPath(dir, 'lock')))).toEqual(['lock']);
  });

  it('refuses a folder whose lock a live process holds, in one line naming it, and leaves that lock alone', () => {
    const dir = outputDir();
    const held = writeRunLock(dir, { pid: process.ppid, processStart: processStartTime(process.ppid), startedAt });
    expect(() => acquireRunLock(dir)).toThrow(
      `visual-uat: another run (pid ${process.ppid}, started ${startedAt}) is using ${dir}: wait for it to finish, or give this run its own folder with VISUAL_UAT_DIR`,
    );
    expect(fs.existsSync(held)).toBe(true);
    expect(fs.readdirSync(path.dirname(outputPath(dir, 'lock')))).toEqual(['lock']);
  });

  it.each([
    ['its process is gone', () => ({ pid: deadPid(), processStart: '1', startedAt })],
    ['its PID now belongs to another process', () => ({ pid: process.ppid, processStart: 'another start', startedAt })],
  ])('takes over a stale lock (%s) and returns its PID', (_, record) => {
    const dir = outputDir();
    const stale = record();
    writeRunLock(dir, stale);
    expect(acquireRunLock(dir)).toBe(stale.pid);
    expect(lockRecords(dir)).toEqual([expect.objectContaining({ pid: process.pid })]);
  });

  it('takes a lock whose record is unreadable, and an empty lock folder (a run killed while it took over)', () => {
    const unreadable = outputDir();
    writeRunLock(unreadable, '{"pid": 12');
    expect(acquireRunLock(unreadable)).toBeNull();
    expect(lockRecords(unreadable)).toEqual([expect.objectContaining({ pid: process.pid })]);

    const empty = outputDir();
    fs.mkdirSync(outputPath(empty, 'lock'), { recursive: true });
    expect(acquireRunLock(empty)).toBeNull();
    expect(lockRecords(empty)).toEqual([expect.objectContaining({ pid: process.pid })]);
  });
});

describe('releaseRunLock', () => {
  it("removes this process's lock, folder and all", () => {
    const dir = outputDir();
    acquireRunLock(dir);
    releaseRunLock(dir);
    expect(fs.existsSync(outputPath(dir, 'lock'))).toBe(false);
    expect(acquireRunLock(dir)).toBeNull();
  });

  it("leaves another process's lock alone", () => {
    const dir = outputDir();
    const held = writeRunLock(dir, { pid: process.ppid, processStart: processStartTime(process.ppid), startedAt });
    releaseRunLock(dir);
    expect(fs.existsSync(held)).toBe(true);
  });
});
