import fs from 'node:fs';
import path from 'node:path';
import { ENV } from './environment';
import { outputPath } from './paths';

/**
 * VISUAL_UAT_DEBUG=timing: where a run's wall time goes, as one block on stderr at its end.
 *
 * - The runner process (the global setup, then the reporter) marks its phases as laps: a lap is the
 *   time since the lap before it (since the process started, for the first), so the laps add up to
 *   the run's time with no gap and nothing counted twice.
 * - A part of a lap, or work beside the tests (a baseline pass running beside them), is timed on
 *   its own and shown apart from the laps.
 * - The workers' checkpoints run in processes of their own: each appends its phase times to a file
 *   of its own in the output folder, which the reporter reads and removes (one per process and role:
 *   a pass beside the tests moves its output folder's files over the run's when it is done).
 *
 * Off (the default), each mark costs one look at the environment.
 */

export function timingOn(env: NodeJS.ProcessEnv = process.env): boolean {
  return (ENV.debug.read(env) ?? '').split(',').some((word) => word.trim() === 'timing');
}

interface Total {
  ms: number;
  count: number;
}

interface Timings {
  laps: Map<string, Total>;
  parts: Map<string, Total>;
  lapStart: number;
}

/** Kept on the global object: the global setup and the reporter may each load their own copy of this module. */
const TIMINGS = Symbol.for('visual-uat.timing');

function timings(): Timings {
  const holder = globalThis as { [TIMINGS]?: Timings };
  holder[TIMINGS] ??= { laps: new Map(), parts: new Map(), lapStart: 0 };
  return holder[TIMINGS];
}

function add(totals: Map<string, Total>, phase: string, ms: number): void {
  const total = totals.get(phase) ?? { ms: 0, count: 0 };
  totals.set(phase, { ms: total.ms + ms, count: total.count + 1 });
}

/** Ends the current lap as `phase`. */
export function lap(phase: string): void {
  if (!timingOn()) return;
  const now = performance.now();
  add(timings().laps, phase, now - timings().lapStart);
  timings().lapStart = now;
}

/** Runs `work` (sync or async) and adds its time to `phase`, a part of a lap or work beside the tests. */
export function timed<T>(phase: string, work: () => T): T {
  if (!timingOn()) return work();
  const started = performance.now();
  const done = () => add(timings().parts, phase, performance.now() - started);
  const result = work();
  if (result instanceof Promise) return result.finally(done) as T;
  done();
  return result;
}

/** Forgets what a run killed before its end left in the output folder. */
export function startTiming(outputDir: string): void {
  if (timingOn()) fs.rmSync(outputPath(outputDir, 'timing'), { recursive: true, force: true });
}

/**
 * A worker's stopwatch for one checkpoint: `split(phase)` ends a phase (the time since the last
 * split), `finish(kind)` appends them as `kind: phase`, and their sum as `kind: all`, to the run's
 * timing files (the kind is known once the checkpoint knows its baseline).
 */
export function checkpointStopwatch(env: NodeJS.ProcessEnv = process.env): {
  split: (phase: string) => void;
  finish: (kind: string) => void;
} {
  const outputDir = ENV.outputDir.read(env);
  if (!timingOn(env) || !outputDir) return { split: () => undefined, finish: () => undefined };
  const started = performance.now();
  let last = started;
  const phases: [string, number][] = [];
  return {
    split: (phase) => {
      const now = performance.now();
      phases.push([phase, now - last]);
      last = now;
    },
    finish: (kind) => {
      const times = Object.fromEntries([...phases, ['all', performance.now() - started]].map(([phase, ms]) => [`${kind}: ${phase}`, ms]));
      const dir = outputPath(outputDir, 'timing');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${process.pid}-${kind.replace(/\W+/g, '-')}.jsonl`);
      // One short line per write, in append mode: workers writing at once do not interleave.
      fs.appendFileSync(file, `${JSON.stringify(times)}\n`);
    },
  };
}

function workerTimes(outputDir: string): Map<string, Total> {
  const dir = outputPath(outputDir, 'timing');
  const totals = new Map<string, Total>();
  let text = '';
  try {
    text = fs
      .readdirSync(dir)
      .map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))
      .join('');
  } catch {
    return totals;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  for (const line of text.split('\n').filter(Boolean)) {
    for (const [phase, ms] of Object.entries(JSON.parse(line) as Record<string, number>)) add(totals, phase, ms);
  }
  return totals;
}

const row = (name: string, ms: number, note = '') => `  ${name.padEnd(46)}${Math.round(ms).toString().padStart(7)} ms${note}`;

/** The block VISUAL_UAT_DEBUG=timing prints at the end of the run; null when it is off. */
export function timingReport(outputDir: string): string | null {
  if (!timingOn()) return null;
  lap('report');
  const { laps, parts } = timings();
  const workers = workerTimes(outputDir);
  const lines = ['visual-uat timing (VISUAL_UAT_DEBUG=timing), the runner process in laps:'];
  for (const [phase, total] of laps) lines.push(row(phase, total.ms));
  lines.push(row('total', timings().lapStart));
  if (parts.size) lines.push('parts of the laps above, or beside the tests:');
  for (const [phase, total] of parts) lines.push(row(phase, total.ms, total.count > 1 ? ` (${total.count} times)` : ''));
  if (workers.size) lines.push('in the workers, mean per checkpoint:');
  for (const [phase, total] of workers) lines.push(row(phase, total.ms / total.count, ` (${total.count} checkpoints)`));
  return lines.join('\n');
}
