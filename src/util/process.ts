import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Linux's view of a process from /proc/<pid>/stat: its state (field 3; `Z` is a zombie, dead but
 * not yet reaped), its process group (field 5) and its start time (field 22, in clock ticks since boot). The command name
 * (field 2) may hold spaces and parentheses, so fields are counted after its closing parenthesis.
 */
function procStat(pid: number): { state: string; group: string; startTime: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], group: fields[2], startTime: fields[19] };
}

/** Whether a process exists and is not a zombie (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // kill(pid, 0) succeeds on a zombie: a run killed in a container whose init never reaps it stays one.
  return procStat(pid)?.state !== 'Z';
}

/**
 * When a process started, as an opaque string: the same PID with another start time is another
 * process (PIDs are reused). Null where it cannot be told.
 */
export function processStartTime(pid: number): string | null {
  if (process.platform === 'linux') return procStat(pid)?.startTime ?? null;
  try {
    return execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The process group of `pid`; null where it cannot be told. */
export function processGroup(pid: number): number | null {
  if (process.platform === 'linux') return Number(procStat(pid)?.group) || null;
  try {
    return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || null;
  } catch {
    return null;
  }
}

/** Whether `pid` is still the live process that was recorded with `startTime` (null: not recorded, trust the PID). */
export function sameLiveProcess(pid: number, startTime: string | null | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (!startTime) return true;
  const now = processStartTime(pid);
  return now === null || now === startTime;
}
