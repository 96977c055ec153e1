import fs from 'node:fs';
import os from 'node:os';
import { baselineEntryDir, besidePassRoot, outputPath, storeCommitDir } from '../config/paths';
import { ENV } from '../config/environment';
import { removeWorktree } from '../git';
import { clearEarlierBaselines, writeManifest } from '../files/run-folder';
import type { RunContext } from '../types';
import type { KeyInputs } from '../store/key';
import { touch } from '../store/entry';
import { lookUpSuite, placeSuite } from '../store/suite-index';
import { storeSuite } from '../store/journal';
import { pruneStore } from '../store/prune';
import {
  checkOutEarly,
  copyStored,
  fillFromStore,
  handDown,
  listCapturing,
  logStored,
  lookUpTests,
  NO_PASS,
  renderOnBase,
  stopOrWarn,
  storeOffersBase,
  topUp,
  type BaseCheckout,
  type PassOutcome,
} from './base-pass';
import type { PassScope } from './pass-scope';
import {
  manifestSelection,
  planRun,
  planSelection,
  type BaselinePlan,
  type RunFacts,
  type RunPlan,
  type SelectionFacts,
  type TestLookup,
} from './plan';
import { publishRunContext } from './run-context';
import { say } from '../util/output';
import { listingOf, type Listing } from './selection';
import { moveTree } from '../checkout/staging';
import { awaitSuite, stopAwaitingSuite } from './suite-handover';
import { passAhead, startsAhead } from './pass-ahead';
import type { BaselinePassOutcome } from './pass';
import { removeEmptyHome } from '../checkout/worktrees';

/**
 * The base pass of a run that compares with another commit, carried out: the facts gathered (the
 * suite's key and the store's index of it, the store, the machine), the plan made from them
 * (plan.ts), each step of it run (base-pass.ts). The run context comes in once and goes out
 * extended, as new values.
 */

/** The run context the tests start with, and what must wait until they are done. */
export interface Prepared {
  context: RunContext;
  afterRun: () => Promise<void>;
}

export async function prepareBasePass(scope: PassScope, context: RunContext): Promise<Prepared> {
  const { store, base, suite, update } = scope;
  // A run that updates takes nothing from the store: it looks up no index.
  const lookup = update || !store.readable ? null : lookUpSuite(store.dir, base.commit, suite.key);
  const indexed = lookup !== null && !('reason' in lookup);
  const facts: RunFacts = {
    base,
    suite: { key: suite.key, files: suite.files, lookup },
    update,
    judgedBy: scope.judgedBy,
    // Looked at only when the plan may read it: a warm run, or one that updates, reads no other seal of the store.
    store: { ...store, offersBase: !update && !indexed && store.readable && storeOffersBase(store.dir, base.commit) },
    playwright: scope.playwright,
    args: scope.args,
    machine: { cores: os.availableParallelism(), overlap: ENV.overlap.read() },
  };
  const run = planRun(facts);
  for (const line of run.lines) say(line);
  const prepared = await carryOut(scope, facts, run, { ...context, baselineDir: scope.entry });
  clearEarlierBaselines(scope.outputDir, scope.entry);
  if (store.writable) pruneStore(store.dir, base.commit);
  return prepared;
}

async function carryOut(scope: PassScope, facts: RunFacts, run: RunPlan, context: RunContext): Promise<Prepared> {
  if (run.kind === 'indexed') return fromIndex(scope, run, context);
  if (run.kind === 'deferred') return awaitRunnerList(scope, facts, run, context, await scope.keyInputs());
  // Before the current tests: which tests need the base decides whether it runs beside them,
  // and the captures of the others read their stored baselines.
  const early = run.checkoutEarly ? checkOutEarly(scope) : null;
  const ahead = early && startsAhead(scope) ? passAhead(scope, early) : null;
  let plan: BaselinePlan;
  let listing: Listing | null;
  try {
    listing = run.list ? await listCapturing(scope) : null;
    plan = planSelection(
      selectionFacts(facts, run, listing, listing ? lookUpTests(scope, run.takesBaselines, await scope.keyInputs(), listing) : new Map()),
    );
    announce(scope, plan);
  } catch (error) {
    await ahead?.stop();
    await dropCheckout(scope, early);
    throw error;
  }
  const { schedule } = plan;
  const adopted = schedule.kind === 'before' ? (ahead?.adopt(plan, listing) ?? null) : null;
  if (!adopted) await ahead?.stop();
  if (schedule.kind === 'store-only') {
    await dropCheckout(scope, early);
    return fromStore(scope, plan, context);
  }
  if (schedule.kind === 'beside') return beside(scope, plan, schedule.workers, context, early);
  return before(scope, plan, context, early, adopted);
}

/** A checkout made while the tests were listed that no pass uses (none of them captures): the worktree it created goes. */
async function dropCheckout(scope: PassScope, early: Promise<BaseCheckout> | null): Promise<void> {
  const checkout = await early?.catch(() => null);
  if (checkout?.how === 'created') await removeWorktree(scope.repo, checkout.worktree);
}

function selectionFacts(
  facts: RunFacts,
  run: Exclude<RunPlan, { kind: 'indexed' }>,
  listing: Listing | null,
  lookups: ReadonlyMap<string, TestLookup>,
): SelectionFacts {
  return {
    listing,
    lookups,
    reason: run.reason,
    judgedBy: facts.judgedBy,
    store: facts.store,
    args: facts.args,
    machine: facts.machine,
    workers: run.kind === 'deferred' ? run.workers : null,
  };
}

/** The plan's lines said, the store's commit kept fresh for pruning, the rendered tests' earlier renders handed down. */
function announce(scope: PassScope, plan: BaselinePlan): void {
  if (plan.stored.length) touch(storeCommitDir(scope.store.dir, scope.base.commit));
  handDown(scope, plan);
  for (const line of plan.lines) say(line);
}

/**
 * The pass runs beside the tests: the runner's own test list, which the reporter hands over as the
 * tests start, chooses what it renders, instead of a listing run before them. Until then every
 * test's baseline is pending.
 */
function awaitRunnerList(
  scope: PassScope,
  facts: RunFacts,
  run: Extract<RunPlan, { kind: 'deferred' }>,
  context: RunContext,
  inputs: (project: string) => KeyInputs,
): Prepared {
  fs.rmSync(scope.entry, { recursive: true, force: true });
  writeManifest(scope.entry, { complete: false, tests: {} });
  let chosen: Prepared | null = null;
  awaitSuite((tests) => {
    try {
      const listing = listingOf(tests, scope.suite.graph);
      const plan = planSelection(selectionFacts(facts, run, listing, lookUpTests(scope, run.takesBaselines, inputs, listing)));
      announce(scope, plan);
      // The plan keeps the deferred run's workers: it runs beside the tests, or not at all.
      chosen = plan.schedule.kind === 'store-only' ? fromStore(scope, plan, context) : beside(scope, plan, run.workers, context);
      publishRunContext(scope.outputDir, chosen.context);
    } catch (error) {
      say(
        `warning: the tests to render on the base could not be chosen (${(error as Error).message}): ` +
          `each test that takes a checkpoint runs on the base after the tests`,
      );
    }
  });
  return {
    context: { ...context, baselinePending: 'all' },
    afterRun: async () => {
      stopAwaitingSuite();
      if (chosen) return chosen.afterRun();
      // No test list came (no test ran, or the reporter never began): every test that took a
      // checkpoint runs on the base in the top-up pass, and the reporter compares them.
      await finish(scope, NO_PASS, context);
    },
  };
}

/**
 * No pass, no listing: the entries the store's index of the suite names, linked into the run's
 * baseline entry (a warm run). The tests' captures read the index's manifest as the run's.
 */
function fromIndex(scope: PassScope, run: Extract<RunPlan, { kind: 'indexed' }>, context: RunContext): Prepared {
  placeSuite(scope.store.dir, scope.base.commit, run.manifest, scope.entry);
  const indexed = { ...context, suiteIndex: run.index };
  return { context: indexed, afterRun: () => finish(scope, NO_PASS, indexed) };
}

/** No pass: every test from the store. */
function fromStore(scope: PassScope, plan: BaselinePlan, context: RunContext): Prepared {
  const pass = fillFromStore(scope, plan);
  return { context, afterRun: () => finish(scope, pass, context) };
}

/**
 * The pass beside the current tests: the stored tests' baselines are in the entry before the tests
 * start; those the pass renders are pending until the teardown moves its entry in.
 */
function beside(
  scope: PassScope,
  plan: BaselinePlan,
  workers: number,
  context: RunContext,
  early: Promise<BaseCheckout> | null = null,
): Prepared {
  // A dev server watching the project would reload the pages under test on every file the
  // pass writes: it writes beside its worktree, and its files move in after the tests.
  const root = besidePassRoot(scope.worktrees, scope.base.commit);
  // The base build of component tests is a cache: it goes out with the pass and comes back with it.
  moveTree(outputPath(scope.outputDir, 'baselineComponentCache'), outputPath(root, 'baselineComponentCache'));
  // Their captures compare with them as in a warm run; only the tests the pass renders wait for it.
  fs.rmSync(scope.entry, { recursive: true, force: true });
  if (plan.render)
    writeManifest(scope.entry, { complete: false, tests: copyStored(scope.entry, plan.stored), selection: manifestSelection(plan) });
  const running = renderOnBase(
    { ...scope, root, entry: baselineEntryDir(root, scope.base.commit, scope.suite.key), args: [...scope.args, `--workers=${workers}`] },
    plan,
    true,
    early,
  );
  return {
    context: { ...context, baselinePending: plan.render?.map((test) => test.key) ?? 'all' },
    afterRun: async () => {
      const pass = await running;
      fs.rmSync(outputPath(scope.outputDir, 'baselineRunOutput'), { recursive: true, force: true });
      // Its entry joins the stored tests' (its manifest names both).
      moveTree(root, scope.outputDir);
      // The reporter reads the final context; the current tests ran already, so a pass that
      // failed as a whole fails the run here, after its checkpoints are recorded as new.
      const final = { ...context, baselineError: pass.failure };
      try {
        if (pass.failure) stopOrWarn(pass.failure, scope.options.allowMissingBaselines, outputPath(scope.outputDir, 'baselineLog'));
      } finally {
        await finish(scope, pass, final);
      }
    },
  };
}

/** The plan's pass before the tests (in the run started ahead, when it took it); one that fails as a whole stops the run (see stopOrWarn). */
async function before(
  scope: PassScope,
  plan: BaselinePlan,
  context: RunContext,
  early: Promise<BaseCheckout> | null,
  ahead: (() => Promise<BaselinePassOutcome>) | null,
): Promise<Prepared> {
  const pass = await renderOnBase(scope, plan, false, early, ahead);
  let baselineError: string | null = null;
  if (pass.failure) {
    try {
      baselineError = stopOrWarn(pass.failure, scope.options.allowMissingBaselines, outputPath(scope.outputDir, 'baselineLog'));
    } catch (error) {
      if (pass.worktree && !scope.options.keepWorktrees) await removeWorktree(scope.repo, pass.worktree);
      removeEmptyHome(scope.worktrees);
      throw error;
    }
  }
  const final = { ...context, baselineError };
  return { context: final, afterRun: () => finish(scope, pass, final) };
}

/**
 * After the current tests, and before the worktree goes: the check of the selection (the top-up),
 * then the run's baseline entry into the store. The worktree stays until then: a dev server
 * watching the project (Vite) would reload the pages under test on the deletion of the worktree's
 * files. The store takes the entry once it holds all it will (a top-up merged, a pass beside the
 * tests moved in), then the suite's index, which the final context names. Writes the final context.
 */
async function finish(scope: PassScope, pass: PassOutcome, context: RunContext): Promise<void> {
  let final = context;
  try {
    const toppedUp =
      context.baselineError || scope.judgedBy !== 'reporter'
        ? { worktree: pass.worktree, rendered: [], added: null }
        : await topUp(scope, pass.worktree);
    if (toppedUp.added) final = { ...context, toppedUp: toppedUp.added };
    if (toppedUp.worktree && !scope.options.keepWorktrees) await removeWorktree(scope.repo, toppedUp.worktree);
    const rendered = [...pass.rendered, ...toppedUp.rendered];
    if (context.baselineError || !scope.store.writable) return;
    const stored = storeSuite(
      {
        store: scope.store.dir,
        baseCommit: scope.base.commit,
        suiteKey: scope.suite.key,
        entry: scope.entry,
        rendered,
        replace: scope.update !== null,
      },
      outputPath(scope.outputDir, 'storing'),
    );
    if (stored) logStored(stored, scope.store.dir, scope.base.commit);
    if (stored?.index) final = { ...final, suiteIndex: stored.index };
  } finally {
    publishRunContext(scope.outputDir, final);
  }
}
