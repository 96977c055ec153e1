import { plural } from '../util/text';
import type { StoreUse } from '../store/home';
import type { ListedTest } from './selection';

/**
 * When the base pass runs (see plan.ts, which decides everything else of the plan): not at all
 * (every test from the store), beside the current tests with how many workers, or before them, and
 * the line that says so. Pure, as the plan is.
 */

/**
 * What compares this run's checkpoints: visual-uat's reporter in this run, or `merge-reports` of its
 * blobs later (a run nothing judges stops in the setup, before any plan).
 */
export type Judge = 'reporter' | 'blobs';

export interface Machine {
  cores: number;
  /** VISUAL_UAT_OVERLAP: '1' runs the pass beside the tests, '0' before them; unset, the plan chooses. */
  overlap: string | undefined;
}

/** What the schedule depends on (plan.ts RunFacts and SelectionFacts hold it). */
export interface ScheduleFacts {
  judgedBy: Judge;
  args: readonly string[];
  machine: Machine;
  /** The projects other projects depend on (see config/isolation setupProjects). */
  setupProjects: readonly string[];
  store: Pick<StoreUse, 'shown'>;
  /** The workers of a pass already set to run beside the tests (a deferred run); null: the plan chooses. */
  workers: number | null;
}

/**
 * Where the base's tests come from: all from the store (`store-only`: no worktree, no base server),
 * or a pass `beside` the current tests (its `workers`) or `before` them.
 */
export type Schedule = { kind: 'store-only' } | { kind: 'beside'; workers: number } | { kind: 'before' };

/** `stored`: how many tests come from the store. */
export function scheduleOf(facts: ScheduleFacts, render: readonly ListedTest[] | null, stored: number): Schedule {
  if (render?.length === 0) return { kind: 'store-only' };
  const workers = facts.workers ?? besideWorkers(facts, render !== null && render.length <= stored);
  return workers ? { kind: 'beside', workers } : { kind: 'before' };
}

/** `stored`: how many tests come from the store; `listed`: how many the listing found. */
export function scheduleLine(
  facts: ScheduleFacts,
  schedule: Schedule,
  render: readonly ListedTest[] | null,
  stored: number,
  listed?: number,
): string {
  const rendered = render ? plural(render.length, 'test') : 'every test';
  if (schedule.kind === 'beside')
    return (
      `the baseline pass runs beside the current tests ` +
      `(${rendered}, ${plural(schedule.workers, 'worker')}, on ${facts.machine.cores} cores)`
    );
  const setup = facts.setupProjects.map((name) => `"${name}"`).join(', ');
  const inTurn = setup && `; setup project ${setup} runs on each side in turn`;
  if (schedule.kind === 'before') return `the baseline pass runs before the current tests (${rendered}${inTurn})`;
  if (stored) return `baselines from the store (${facts.store.shown}): no worktree, no base server`;
  return `no baseline pass needed: none of the ${listed} tests can capture a checkpoint (no checkpoint call in their sources)`;
}

/**
 * Workers for a baseline pass that runs beside the current tests, or null to run it first. Two
 * browser runs at once pay where cores are free: on 4 cores and more, the pass gets half of them
 * (Playwright's own default for one run). On fewer, only when the store gives at least as many of
 * the tests as the pass renders (`fewToRender`: one spec edited since the last run): the current
 * tests then compare with stored baselines as in a warm run, and the few base tests fill the time
 * a run leaves its cores idle (starting, waiting for pages to settle) instead of adding a whole
 * nested run's start and end to the run. A run that writes blobs or runs a shard keeps them in
 * order, since its blob must carry the baseline images; so does a config with setup projects, whose
 * tests on the base would overwrite the files (storageState) the current tests read. VISUAL_UAT_OVERLAP=1 or 0 decides instead.
 */
export function besideWorkers(
  facts: Pick<ScheduleFacts, 'machine' | 'judgedBy' | 'args' | 'setupProjects'>,
  fewToRender: boolean,
): number | null {
  const { cores, overlap } = facts.machine;
  const half = Math.max(1, Math.floor(cores / 2));
  if (overlap === '0') return null;
  if (overlap === '1') return half;
  if (facts.judgedBy !== 'reporter' || facts.setupProjects.length || facts.args.some((arg) => arg.startsWith('--shard'))) return null;
  return cores >= 4 || fewToRender ? half : null;
}
