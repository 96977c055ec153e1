import { SetupError } from '../util/errors';
import { firstFew, plural } from '../util/text';
import type { BaselineManifest } from '../types';
import type { RenderedTest, TestSource } from '../store/key';
import type { Lookup } from '../store/entry';
import type { SuiteLookup } from '../store/suite-index';
import type { StoreUse } from '../store/home';
import type { ListedTest, Listing } from './selection';

/**
 * The base pass as a plan: what the run knows (the store's index of the suite, its look-ups, the
 * listing, the options, the arguments, the machine) in, as values; which tests come from the store,
 * which render on the base, before or beside the current tests, and why, out, with the log lines
 * that say so. Nothing here reads a file or starts anything: the executor (execute.ts) gathers
 * the facts and carries the plan out.
 */

/** `--test-list` exists from Playwright 1.56. */
export function supportsTestList(playwrightVersion: string): boolean {
  const [major, minor] = playwrightVersion.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 56);
}

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

export interface Base {
  branch: string;
  commit: string;
}

/** A run on the base itself: HEAD is the base commit with a clean tree, or `visual-uat record`. */
export interface OnBaseFacts {
  base: Base;
  record: boolean;
  judgedBy: Judge;
  store: StoreUse;
  playwright: string;
}

export interface OnBasePlan {
  /** The reporter records the run's checkpoints into the store as the base commit's baselines. */
  records: boolean;
  lines: string[];
}

export function planOnBase(facts: OnBaseFacts): OnBasePlan {
  const judged = facts.judgedBy === 'reporter';
  if (facts.record && !judged)
    throw new SetupError(
      'visual-uat record: this run writes blobs (or has no visual-uat reporter), so nothing would judge or store its checkpoints: ' +
        'run it without --reporter=blob',
    );
  const records = judged && facts.store.writable;
  const unread = supportsTestList(facts.playwright)
    ? ''
    : ` (a run on Playwright ${facts.playwright} will not read them: ` +
      `taking tests from the store needs --test-list, Playwright 1.56 or later)`;
  const recording = records
    ? `; its checkpoints are recorded as the baselines of ${short(facts.base.commit)} in ${facts.store.shown}${unread}`
    : '';
  return {
    records,
    lines: [
      `HEAD is the base (${facts.base.branch} @ ${short(facts.base.commit)}) with a clean tree: ` +
        `nothing to compare, no baseline pass${recording}`,
    ],
  };
}

/** A run that compares with another commit: the store's index of its suite, and what else decides how its baselines come. */
export interface RunFacts {
  base: Base;
  suite: {
    key: string;
    /** The test-side files the key hashes. */
    files: number;
    /**
     * The store's index of the suite, each entry it names checked (see baseline-store lookUpSuite);
     * null: not looked up (the baselines are updated, or the store is not read).
     */
    lookup: SuiteLookup | null;
  };
  /** Why the baselines must be captured again though stored (see updateReason). */
  update: string | null;
  judgedBy: Judge;
  store: StoreUse & {
    /**
     * The store holds, at the base commit, a sealed entry with checkpoints (see base-pass
     * storeOffersBase; looked at only when the suite's index is doubtful or missing).
     */
    offersBase: boolean;
  };
  playwright: string;
  args: readonly string[];
  machine: Machine;
  /** The projects others depend on (see config/isolation setupProjects): both passes would write their files. */
  setupProjects: readonly string[];
}

/**
 * How the run gets its baselines: every entry the store's index of the suite names (`indexed`,
 * the index file and its manifest); a pass beside the tests whose selection waits for the runner's
 * own test list (`deferred`); or a selection made before the tests from a listing run (`listed`,
 * `list` false: every test renders; `checkoutEarly`: the base checkout is made while the tests are
 * listed, when the store has none of them to give).
 */
export type RunPlan =
  | ({ kind: 'indexed'; index: string; manifest: BaselineManifest } & Planned)
  | ({ kind: 'deferred'; workers: number; reason: string } & Planned)
  | ({ kind: 'listed'; list: boolean; checkoutEarly: boolean; reason: string } & Planned);

interface Planned {
  /** Whether this run takes baselines from the store (not when they must be captured again). */
  takesBaselines: boolean;
  lines: string[];
}

export function planRun(facts: RunFacts): RunPlan {
  const { lookup } = facts.suite;
  const unused = lookup && 'reason' in lookup ? lookup : null;
  const takesBaselines = facts.store.readable && !facts.update;
  if (!facts.update && lookup && !('reason' in lookup))
    return {
      kind: 'indexed',
      index: lookup.index,
      manifest: lookup.manifest,
      takesBaselines,
      lines: [
        `baselines from the store's index of this suite: ${facts.base.branch} @ ${short(facts.base.commit)}, ` +
          `key ${facts.suite.key.slice(0, 12)} ` +
          `(${plural(facts.suite.files, 'test-side file')}): no worktree, no base server`,
      ],
    };
  const reason = facts.update ?? unused?.reason ?? STORE_UNREAD;
  const lines: string[] = [];
  // An index of this suite that is there and doubtful is said, whoever renders in its place.
  if (!facts.update && unused?.doubtful) lines.push(`the store's index of this suite is not used: ${reason}`);
  const testList = supportsTestList(facts.playwright);
  // Without a list of tests the store gives a suite whole (its index) or nothing: say which this run leaves the next.
  if (takesBaselines && !testList) {
    const next = facts.store.writable
      ? `, then stores them as this suite's index, which the next run of the same test files on ${short(facts.base.commit)} takes whole`
      : '';
    lines.push(
      `the baseline store gives no single test here: Playwright ${facts.playwright} cannot run a list of tests (--test-list, ` +
        `1.56 and later), so the baseline pass renders every test${next}; upgrade @playwright/test to 1.56 or later to take ` +
        `single tests from ${facts.store.shown}`,
    );
  }
  const selects = facts.judgedBy === 'reporter';
  // Without a listing, the store predicts whether few tests need the base: it offers tests of this
  // base commit (a spec edited since the last run). A wrong guess costs time, never a baseline.
  const workers = selects && testList ? besideWorkers(facts, takesBaselines && facts.store.offersBase) : null;
  if (workers) return { kind: 'deferred', workers, reason, takesBaselines, lines };
  const list = testList && (selects || takesBaselines);
  // A store with nothing of the base commit to give: every test the listing finds capturing renders
  // on the base, so its checkout (a worktree, its dependencies) is made while the tests are listed.
  const checkoutEarly = list && !(takesBaselines && facts.store.offersBase);
  return { kind: 'listed', list, checkoutEarly, reason, takesBaselines, lines };
}

/**
 * What the store gave for a listed test: its sources (null: its file is outside the repository) and
 * the look-up (null: the store is not read).
 */
export interface TestLookup {
  source: TestSource | null;
  found: Lookup | null;
}

export interface StoredTest {
  test: ListedTest;
  entry: string;
  /** The source hash its entry is keyed by. */
  source: string;
  checkpoints: string[];
  /** Those that have a layout record, as the entry's seal says. */
  layouts: string[];
}

export interface SelectionFacts {
  /** Null without a listing: every test renders. */
  listing: Listing | null;
  /** The listed tests the pass may render (see chosenTests); empty without a listing. */
  chosen: ReadonlySet<ListedTest>;
  /** The look-ups of the chosen tests and of those the store holds; a test without one is left out. */
  lookups: ReadonlyMap<string, TestLookup>;
  /** Why the store's index of the suite is not used, or the update reason (see planRun). */
  reason: string;
  judgedBy: Judge;
  store: StoreUse;
  args: readonly string[];
  machine: Machine;
  setupProjects: readonly string[];
  /** The workers of a pass already set to run beside the tests (a deferred run); null: the plan chooses. */
  workers: number | null;
}

/**
 * Where the base's tests come from: all from the store (`store-only`: no worktree, no base server),
 * or a pass `beside` the current tests (its `workers`) or `before` them.
 */
export type Schedule = { kind: 'store-only' } | { kind: 'beside'; workers: number } | { kind: 'before' };

export interface BaselinePlan {
  /** How many tests the listing found; null without one. */
  listed: number | null;
  stored: StoredTest[];
  /** The tests to render; null: all of them. */
  render: ListedTest[] | null;
  /** The rendered tests' sources, for the store. */
  sources: RenderedTest[];
  schedule: Schedule;
  /** Why the pass runs, for its line (`baseline pass (…)`). */
  passReason: string;
  lines: string[];
}

/**
 * The tests the pass may render: those that can capture, or every listed test in a run that writes
 * blobs (it has no top-up after its tests).
 */
export function chosenTests(listing: Listing, judgedBy: Judge): ReadonlySet<ListedTest> {
  return new Set(judgedBy === 'reporter' ? listing.selected : listing.tests);
}

/**
 * The listed tests split into those the store holds (for this base commit and these sources) and
 * the chosen ones to render, with the log lines that say which and why, and when the pass runs. A
 * test not chosen that the store holds with checkpoints comes from it too: a top-up pass stored it
 * (the scan missed its capture), and its entry spares that pass.
 */
export function planSelection(facts: SelectionFacts): BaselinePlan {
  if (!facts.listing) {
    const schedule = scheduleOf(facts, null, []);
    return {
      listed: null,
      stored: [],
      render: null,
      sources: [],
      schedule,
      passReason: facts.reason,
      lines: [scheduleLine(facts, schedule, null, [])],
    };
  }
  const { listing, chosen } = facts;
  const stored: StoredTest[] = [];
  const render: ListedTest[] = [];
  const sources: RenderedTest[] = [];
  const reasons = new Map<string, string[]>();
  // With more than one project, the same test is one per project: each is named with its project.
  const projects = new Set(listing.tests.map((test) => test.project)).size > 1;
  const named = (test: ListedTest) => [...(projects ? [test.project] : []), ...test.titlePath].join(' › ');
  for (const test of listing.tests) {
    const lookup = facts.lookups.get(test.key);
    if (!lookup) continue;
    const { source, found } = lookup;
    if (found?.entry) {
      // An entry with no checkpoint (a record run notes the tests that take none) spares only a
      // pass that would render the test: one that renders every listed test.
      if (chosen.has(test) || found.checkpoints.length)
        stored.push({ test, entry: found.entry, source: found.source, checkpoints: found.checkpoints, layouts: found.layouts });
      continue;
    }
    if (!chosen.has(test)) continue;
    render.push(test);
    if (source) sources.push({ key: test.key, source });
    const reason = !source ? 'its file is outside the repository' : found && 'reason' in found ? found.reason : facts.reason;
    reasons.set(reason, [...(reasons.get(reason) ?? []), named(test)]);
  }
  const lines: string[] = [];
  const shown = [...reasons].slice(0, 3); // a branch that edits many spec files: the first reasons, then the others as one
  if (reasons.size > 3) shown.push([plural(reasons.size - 3, 'other reason'), [...reasons].slice(3).flatMap(([, titles]) => titles)]);
  const why = shown.map(([reason, titles]) => `${reason}: ${firstFew(titles)}`).join('; ');
  if (render.length + stored.length)
    lines.push(
      `baseline: ${render.length} of ${plural(render.length + stored.length, 'test')} ` +
        `rendered on the base${render.length ? ` (${why})` : ''}; ${stored.length} from the store`,
    );
  // Said only of a pass that runs: with every test from the store, none does.
  if (facts.judgedBy === 'reporter' && render.length && listing.selected.length < listing.total) {
    const fromStore = stored.length ? `${stored.length} come from the store, ` : '';
    lines.push(
      `the baseline pass runs ${render.length} of ${listing.total} tests: ${fromStore}` +
        `the others have no checkpoint call in their sources (checked after the run)`,
    );
  }
  const schedule = scheduleOf(facts, render, stored);
  lines.push(scheduleLine(facts, schedule, render, stored, listing.total));
  return {
    listed: listing.total,
    stored,
    render,
    sources,
    schedule,
    passReason: passReason(facts.reason, render, stored, [...reasons.keys()]),
    lines,
  };
}

/**
 * The reason `lookUp` gives for a test the store has never rendered at this base commit (and
 * `lookUpSuite` for a suite it never indexed).
 */
export const NOT_IN_STORE = 'not in the store';

/** Why the suite's baselines do not come from the store when the run may not read it (see store/home.ts openStore). */
export const STORE_UNREAD = 'the baseline store is not read';

/**
 * Why the pass runs: for the tests the store lacks when it gives others; else the reason the
 * suite's index was not used, unless the store had something to say of the tests it could not give (a doubtful entry,
 * a changed file): that reason is the true one.
 */
function passReason(reason: string, render: readonly ListedTest[], stored: readonly StoredTest[], reasons: readonly string[]): string {
  if (stored.length && render.length) return `for the ${plural(render.length, 'test')} the store lacks`;
  const own = reasons.filter((found) => found !== reason && found !== NOT_IN_STORE);
  if (own.length === 0) return reason;
  return own.length === 1 ? own[0] : `${own[0]} and ${plural(own.length - 1, 'other reason')}`;
}

function scheduleOf(facts: SelectionFacts, render: readonly ListedTest[] | null, stored: readonly StoredTest[]): Schedule {
  if (render?.length === 0) return { kind: 'store-only' };
  const workers = facts.workers ?? besideWorkers(facts, render !== null && render.length <= stored.length);
  return workers ? { kind: 'beside', workers } : { kind: 'before' };
}

function scheduleLine(
  facts: SelectionFacts,
  schedule: Schedule,
  render: readonly ListedTest[] | null,
  stored: readonly StoredTest[],
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
  if (stored.length) return `baselines from the store (${facts.store.shown}): no worktree, no base server`;
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
 * tests on the base would overwrite the files (storageState) the current tests read. VISUAL_UAT_OVERLAP=1
 * or 0 decides instead.
 */
export function besideWorkers(
  facts: Pick<RunFacts, 'machine' | 'judgedBy' | 'args' | 'setupProjects'>,
  fewToRender: boolean,
): number | null {
  const { cores, overlap } = facts.machine;
  const half = Math.max(1, Math.floor(cores / 2));
  if (overlap === '0') return null;
  if (overlap === '1') return half;
  if (facts.judgedBy !== 'reporter' || facts.args.some((arg) => arg.startsWith('--shard'))) return null;
  if (facts.setupProjects.length) return null;
  return cores >= 4 || fewToRender ? half : null;
}

/**
 * Why the baselines must be captured again though stored: the option, or Playwright's own
 * `--update-snapshots` / `-u` (modes `all` and `changed`; `missing`, the default, and `none` keep
 * what is stored).
 */
export function updateReason(updateBaselines: boolean, updateSnapshots: string): string | null {
  if (updateBaselines) return 'updateBaselines is set';
  if (updateSnapshots === 'all' || updateSnapshots === 'changed') return `--update-snapshots=${updateSnapshots}`;
  return null;
}

/** The manifest's note of a plan's selection: how many tests were listed, how many rendered. */
export function manifestSelection(plan: Pick<BaselinePlan, 'listed' | 'render'>): { listed: number; run: number } | undefined {
  return plan.listed === null || plan.render === null ? undefined : { listed: plan.listed, run: plan.render.length };
}

function short(commit: string): string {
  return commit.slice(0, 8);
}
