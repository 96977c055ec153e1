import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineEntryDir, besidePassRoot, outputPath, storeCommitDir } from '../config/paths';
import { ENV } from '../config/environment';
import { removeWorktree } from '../git';
import { SetupError } from '../util/errors';
import { clearEarlierBaselines, writeManifest } from '../files/run-folder';
import type { RunContext } from '../types';
import type { KeyInputs } from '../store/key';
import { touch } from '../store/entry';
import { lookUpSuite, placeSuite } from '../store/suite-index';
import { resumeStoring, storeSuite, type SuiteStored } from '../store/journal';
import { pruneStore, sizeText, storeSize } from '../store/prune';
import { STORE_OPTION } from '../store/home';
import {
  checkOutEarly,
  placeStored,
  handDown,
  listCapturing,
  lookUpTests,
  NO_PASS,
  renderOnBase,
  storeOffersBase,
  topUp,
  type BaseCheckout,
  type NestedRun,
  type PassOutcome,
} from './base-pass';
import type { PassInputs, Workplace } from './pass-scope';
import { chosenTests, planRun, planSelection, type BaselinePlan, type RunFacts, type RunPlan, type TestLookup } from './plan';
import { publishRunContext } from './run-context';
import { say, shownPath } from '../util/output';
import { plural } from '../util/text';
import { listingOf, type Listing, type ListedTest } from './selection';
import { moveTree } from '../checkout/staging';
import { awaitSuite, stopAwaitingSuite } from './suite-handover';
import { passAhead, startsAhead } from './pass-ahead';
import type { BaselinePassOutcome } from './pass';
import { removeEmptyHome } from '../checkout/worktrees';

/**
 * The base pass of a run that compares with another commit, carried out in one direction: the
 * facts gathered (the suite's key and the store's index of it, the store, the machine), the plan
 * made from them (plan.ts), each of its decisions taken here and each step it names run
 * (base-pass.ts), then, once the current tests are done, one finish: the top-up and the store. The
 * run context comes in once and goes out extended, as new values.
 */

/** The run context the tests start with, and what must wait until they are done. */
export interface Prepared {
  context: RunContext;
  afterRun: () => Promise<void>;
}

/** The baselines under way: the context the tests start with, and what the pass did once they are done. */
interface UnderWay {
  context: RunContext;
  done: () => Promise<Done>;
}

interface Done {
  pass: PassOutcome;
  /** The context the run ends with. */
  context: RunContext;
  /** A pass beside the tests that failed as a whole stops the run once it is finished. */
  stop?: SetupError | null;
}

export async function prepareBasePass(place: Workplace, inputs: PassInputs, context: RunContext): Promise<Prepared> {
  const { store, base } = place;
  const { suite, update } = inputs;
  // A run that updates takes nothing from the store: it looks up no index.
  const lookup = update || !store.readable ? null : lookUpSuite(store.dir, base.commit, suite.key);
  const indexed = lookup !== null && !('reason' in lookup);
  const facts: RunFacts = {
    base,
    suite: { key: suite.key, files: suite.files, lookup },
    update,
    judgedBy: inputs.judgedBy,
    // Looked at only when the plan may read it: a warm run, or one that updates, reads no other seal of the store.
    store: { ...store, offersBase: !update && !indexed && store.readable && storeOffersBase(store.dir, base.commit) },
    playwright: inputs.playwright,
    args: inputs.args,
    machine: { cores: os.availableParallelism(), overlap: ENV.overlap.read() },
    setupProjects: inputs.setupProjects,
  };
  const run = planRun(facts);
  for (const line of run.lines) say(line);
  const underWay = await carryOut(place, inputs, facts, run, { ...context, baselineDir: inputs.entry });
  clearEarlierBaselines(place.outputDir, inputs.entry);
  if (store.writable) pruneStore(store.dir, base.commit);
  return {
    context: underWay.context,
    afterRun: async () => {
      const { pass, context: final, stop } = await underWay.done();
      await finish(place, inputs, pass, final);
      if (stop) throw stop;
    },
  };
}

/** Nothing left to do once the tests are done but the finish. */
function settled(context: RunContext): UnderWay {
  return { context, done: async () => ({ pass: NO_PASS, context }) };
}

async function carryOut(place: Workplace, inputs: PassInputs, facts: RunFacts, run: RunPlan, context: RunContext): Promise<UnderWay> {
  if (run.kind === 'indexed') {
    // No pass, no listing: the entries the store's index of the suite names, linked into the run's
    // baseline entry (a warm run). The tests' captures read the index's manifest as the run's.
    placeSuite(place.store.dir, place.base.commit, run.manifest, inputs.entry);
    return settled({ ...context, suiteIndex: run.index });
  }
  if (run.kind === 'deferred') return awaitRunnerList(place, inputs, facts, run, context, await inputs.keyInputs());
  // Before the current tests: which tests need the base decides whether it runs beside them,
  // and the captures of the others read their stored baselines.
  const early = run.checkoutEarly ? checkOutEarly(place) : null;
  const ahead = early && startsAhead(inputs.args) ? passAhead(place, nestedRun(place, inputs), early) : null;
  let plan: BaselinePlan;
  let listing: Listing | null;
  try {
    listing = run.list ? await listCapturing(place, inputs) : null;
    plan = choose(place, facts, run, listing, listing && (await inputs.keyInputs()));
  } catch (error) {
    await ahead?.stop();
    await dropCheckout(place, early);
    throw error;
  }
  const { schedule } = plan;
  const adopted = schedule.kind === 'before' ? (ahead?.adopt(plan, listing) ?? null) : null;
  if (!adopted) await ahead?.stop();
  if (schedule.kind === 'before') return before(place, inputs, plan, context, early, adopted);
  if (schedule.kind === 'store-only') await dropCheckout(place, early);
  return alongside(place, inputs, plan, context, early);
}

/** A checkout made while the tests were listed that no pass uses (none of them captures): the worktree it created goes. */
async function dropCheckout(place: Workplace, early: Promise<BaseCheckout> | null): Promise<void> {
  const checkout = await early?.catch(() => null);
  if (checkout?.how === 'created') await removeWorktree(place.repo, place.worktree);
}

/**
 * The plan of the listed tests (with the store's look-up of each, see lookUpTests), its lines
 * said, the store's commit kept fresh for pruning, the rendered tests' earlier renders handed down.
 */
function choose(
  place: Workplace,
  facts: RunFacts,
  run: Exclude<RunPlan, { kind: 'indexed' }>,
  listing: Listing | null,
  keyInputs: ((project: string) => KeyInputs) | null,
): BaselinePlan {
  const chosen = listing ? chosenTests(listing, facts.judgedBy) : new Set<ListedTest>();
  const plan = planSelection({
    listing,
    chosen,
    lookups: listing && keyInputs ? lookUpTests(place, chosen, run.takesBaselines, keyInputs, listing) : new Map<string, TestLookup>(),
    reason: run.reason,
    judgedBy: facts.judgedBy,
    store: facts.store,
    args: facts.args,
    machine: facts.machine,
    setupProjects: facts.setupProjects,
    workers: run.kind === 'deferred' ? run.workers : null,
  });
  if (plan.stored.length) touch(storeCommitDir(place.store.dir, place.base.commit));
  handDown(place, plan.render);
  for (const line of plan.lines) say(line);
  return plan;
}

/**
 * The pass runs beside the tests: the runner's own test list, which the reporter hands over as the
 * tests start, chooses what it renders, instead of a listing run before them. Until then every
 * test's baseline is pending.
 */
function awaitRunnerList(
  place: Workplace,
  inputs: PassInputs,
  facts: RunFacts,
  run: Extract<RunPlan, { kind: 'deferred' }>,
  context: RunContext,
  keyInputs: (project: string) => KeyInputs,
): UnderWay {
  fs.rmSync(inputs.entry, { recursive: true, force: true });
  writeManifest(inputs.entry, { complete: false, tests: {} });
  let chosen: UnderWay | null = null;
  awaitSuite((tests) => {
    try {
      const plan = choose(place, facts, run, listingOf(tests, place.graph), keyInputs);
      // The plan keeps the deferred run's workers: it runs beside the tests, or not at all.
      chosen = alongside(place, inputs, plan, context);
      publishRunContext(place.outputDir, chosen.context);
    } catch (error) {
      say(
        `warning: the tests to render on the base could not be chosen (${(error as Error).message}): ` +
          `each test that takes a checkpoint runs on the base after the tests`,
      );
    }
  });
  return {
    context: { ...context, baselinePending: 'all' },
    done: async () => {
      stopAwaitingSuite();
      // No test list came (no test ran, or the reporter never began): every test that took a
      // checkpoint runs on the base in the top-up pass, and the reporter compares them.
      return chosen ? chosen.done() : { pass: NO_PASS, context };
    },
  };
}

/**
 * The plan's baselines while the tests run: the stored tests' in the entry before they start (see
 * placeStored), and the others from a pass beside the current tests, or none (no worktree, no
 * base server).
 */
function alongside(
  place: Workplace,
  inputs: PassInputs,
  plan: BaselinePlan,
  context: RunContext,
  early: Promise<BaseCheckout> | null = null,
): UnderWay {
  const { schedule } = plan;
  placeStored(inputs.entry, plan);
  if (schedule.kind !== 'beside') return settled(context);
  const { outputDir, base } = place;
  // A dev server watching the project would reload the pages under test on every file the
  // pass writes: it writes beside its worktree, and its files move in after the tests.
  const root = besidePassRoot(place.worktrees, base.commit);
  // The base build of component tests is a cache: it goes out with the pass and comes back with it.
  moveTree(outputPath(outputDir, 'baselineComponentCache'), outputPath(root, 'baselineComponentCache'));
  const running = renderOnBase(
    place,
    {
      configFile: inputs.configFile,
      root,
      entry: baselineEntryDir(root, base.commit, inputs.suite.key),
      args: [...inputs.args, `--workers=${schedule.workers}`],
    },
    plan,
    true,
    early,
  );
  return {
    context: { ...context, baselinePending: plan.render?.map((test) => test.key) ?? 'all' },
    done: async () => {
      const pass = await running;
      fs.rmSync(outputPath(outputDir, 'baselineRunOutput'), { recursive: true, force: true });
      // Its entry joins the stored tests' (its manifest names both).
      moveTree(root, outputDir);
      // The reporter reads the final context; the current tests ran already, so a pass that
      // failed as a whole fails the run once it is finished, its checkpoints recorded as new.
      return { pass, context: { ...context, baselineError: pass.failure }, stop: pass.failure ? stopsTheRun(pass.failure, place) : null };
    },
  };
}

/** The nested run of a pass before the tests: it writes into the run's own output folder and baseline entry. */
function nestedRun(place: Workplace, inputs: PassInputs): NestedRun {
  return { configFile: inputs.configFile, root: place.outputDir, entry: inputs.entry, args: inputs.args };
}

/**
 * The plan's pass before the tests (in the run started ahead, when it took it); one that fails as a
 * whole stops the run (see stopsTheRun).
 */
async function before(
  place: Workplace,
  inputs: PassInputs,
  plan: BaselinePlan,
  context: RunContext,
  early: Promise<BaseCheckout> | null,
  ahead: (() => Promise<BaselinePassOutcome>) | null,
): Promise<UnderWay> {
  const pass = await renderOnBase(place, nestedRun(place, inputs), plan, false, early, ahead);
  const stop = pass.failure ? stopsTheRun(pass.failure, place) : null;
  if (stop) {
    if (pass.checkedOut && !place.options.keepWorktrees) await removeWorktree(place.repo, place.worktree);
    removeEmptyHome(place.worktrees);
    throw stop;
  }
  const final = { ...context, baselineError: pass.failure };
  return { context: final, done: async () => ({ pass, context: final }) };
}

/**
 * A baseline pass that failed as a whole stops the run: every checkpoint would be `new` and the
 * run green with nothing compared. The error that stops it; null when allowMissingBaselines opts
 * in to going on, said as a warning (the error then becomes every checkpoint's reason).
 */
function stopsTheRun(failure: string, place: Pick<Workplace, 'outputDir' | 'options'>): SetupError | null {
  const logFile = outputPath(place.outputDir, 'baselineLog');
  const where = `see ${path.relative(process.cwd(), logFile) || logFile}`;
  if (!place.options.allowMissingBaselines)
    return new SetupError(
      `visual-uat: ${failure}; ${where}. Nothing was compared, so the run stops ` +
        `(to run anyway with every checkpoint new: allowMissingBaselines: true or VISUAL_UAT_ALLOW_MISSING_BASELINES=1)`,
    );
  say(`warning: ${failure}; ${where}. allowMissingBaselines is set: every checkpoint will be new`);
  return null;
}

/**
 * After the current tests, and before the worktree goes: the check of the selection (the top-up),
 * then the run's baseline entry into the store. The worktree stays until then: a dev server
 * watching the project (Vite) would reload the pages under test on the deletion of the worktree's
 * files. The store takes the entry once it holds all it will (a top-up merged, a pass beside the
 * tests moved in), then the suite's index, which the final context names. Writes the final context.
 */
async function finish(place: Workplace, inputs: PassInputs, pass: PassOutcome, context: RunContext): Promise<void> {
  const { store, base } = place;
  let final = context;
  try {
    const toppedUp =
      context.baselineError || inputs.judgedBy !== 'reporter'
        ? { checkedOut: pass.checkedOut, rendered: [], added: null }
        : await topUp(place, inputs, pass.checkedOut);
    if (toppedUp.added) final = { ...context, toppedUp: toppedUp.added };
    if (toppedUp.checkedOut && !place.options.keepWorktrees) await removeWorktree(place.repo, place.worktree);
    const rendered = [...pass.rendered, ...toppedUp.rendered];
    if (context.baselineError || !store.writable) return;
    const stored = storeSuite(
      {
        store: store.dir,
        baseCommit: base.commit,
        suiteKey: inputs.suite.key,
        entry: inputs.entry,
        rendered,
        replace: inputs.update !== null,
      },
      outputPath(place.outputDir, 'storing'),
    );
    if (stored) logStored(stored, store.dir, base.commit);
    if (stored?.index) final = { ...final, suiteIndex: stored.index };
  } finally {
    publishRunContext(place.outputDir, final);
  }
}

/**
 * The line that says what the store took once the current tests were done (see store/journal.ts
 * storeSuite): a write that failed is said in one line and ended the storing; the run's verdicts
 * do not depend on it.
 */
function logStored(stored: SuiteStored, store: string, baseCommit: string): void {
  if (stored.failure)
    say(
      `warning: the baseline store ${store} could not take what this run rendered (${stored.failure.code}): ` +
        `${plural(stored.failure.notStored, 'test')} not stored; ` +
        `free space or make it writable, or point ${STORE_OPTION} at another folder`,
    );
  else if (stored.added)
    say(
      `baseline store: ${plural(stored.added, 'test')} stored for ${baseCommit.slice(0, 8)} ` +
        `(${shownPath(store)}: ${sizeText(storeSize(store))})`,
    );
}

/** A run killed while it stored what its pass rendered left those tests to this one (see store/journal.ts resumeStoring). */
export function resumeLeftStoring(outputDir: string, store: string): void {
  const resumed = resumeStoring(outputPath(outputDir, 'storing'), store);
  if (resumed && 'problem' in resumed) say(`the tests a killed run left to store are not stored: ${resumed.problem}`);
  else if (resumed?.stored) logStored(resumed.stored, store, resumed.baseCommit);
}
