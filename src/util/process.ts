/** Whether a process exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type FaultPoint = 'worktree' | 'dependencies' | 'reporter';

/**
 * Fault injection for the crash-recovery suite (tests/faults): `VISUAL_UAT_KILL_AT=<point>` kills
 * the run's whole process group with SIGKILL at that point, as a cancelled CI job or an OOM kill
 * would, at a moment no external timer can hit reliably.
 */
export function faultPoint(point: FaultPoint): void {
  if (process.env.VISUAL_UAT_KILL_AT === point) process.kill(0, 'SIGKILL');
}
