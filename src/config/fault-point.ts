import { ENV, type FaultPoint } from './environment';

/**
 * Fault injection for the crash-recovery suite (tests/faults): `VISUAL_UAT_KILL_AT=<point>` kills
 * the run's whole process group with SIGKILL at that point, as a cancelled CI job or an OOM kill
 * would, at a moment no external timer can hit reliably.
 */
export function faultPoint(point: FaultPoint): void {
  if (ENV.killAt.read() === point) process.kill(0, 'SIGKILL');
}
