import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { baselineEntryDir, besidePassRoot, outputPath, storeCommitDir } from '../config/paths';
import { ENV } from '../config/environment';
import { testsIsolated } from '../config/isolation';
import { lap } from '../config/timing';
import { optionsFromEnv, type ResolvedOptions } from '../config/settings';
import { webServersFromEnv, type WebServerEntry } from '../config/with-visual-uat';
import { removeWorktree, type Repo } from '../git';
import type { BaseResolution } from '../git/base';
import { clearEarlierBaselines, writeManifest } from '../files/run-folder';
import type { RunContext } from '../types';
import { projectCaptures, testDirData, type KeyInputs } from '../store/key';
import { touch } from '../store/entry';
import { lookUpSuite, placeSuite } from '../store/suite-index';
import { storeSuite } from '../store/journal';
import { pruneStore } from '../store/prune';
import { copyStored, fillFromStore, handDown, listCapturing, logStored, lookUpTests, NO_PASS, renderOnBase, stopOrWarn, storeOffersBase, topUp, type PassOutcome, type PassScope } from './base-pass';
import { suiteKeyOf } from '../store/suite-key';
import { captureOptions, versions } from '../sources/capture-inputs';
import { nestedArgs } from './pass';
import { manifestSelection, planRun, planSelection, updateReason, type BaselinePlan, type Judge, type RunFacts, type RunPlan, type SelectionFacts, type TestLookup } from './plan';
import { writeRunContext } from './run-context';
import { say, shownPath } from './say';
import { listingOf, type Listing } from './selection';
import { ImportCache } from '../sources/import-cache';
import { SourceGraph } from '../sources/source-graph';
import { moveTree } from '../checkout/staging';
import { awaitSuite, stopAwaitingSuite } from './suite-handover';
import { removeEmptyHome } from '../checkout/worktrees';

/**
 * The base pass of a run that compares with another commit, carried out: the facts gathered (the
 * suite's key and the store's index of it, the store, the machine), the plan made from them
 * (plan.ts), each step of it run (base-pass.ts). The run context comes in once and goes out
 * extended, as new values.
 */

export interface RunInputs {
  config: FullConfig;
  configFile: string;
  configDir: string;
  outputDir: string;
  repo: Repo;
  base: BaseResolution;
  options: ResolvedOptions;
  store: { dir: string; reads: boolean; writes: boolean };
  judgedBy: Judge;
  /** Where base worktrees go (see worktrees.ts). */
  worktrees: string;
  started: number;
}

/** The run context the tests start with, and what must wait until they are done. */
export interface Prepared {
  context: RunContext;
  afterRun: () => Promise<void>;
}

export async function prepareBasePass(inputs: RunInputs, context: RunContext): Promise<Prepared> {
  const { config, configFile, repo, base, options, outputDir, store } = inputs;
  const args = nestedArgs(process.argv);
  const capture = captureOptions(optionsFromEnv());
  const graph = new SourceGraph(repo.root, new ImportCache(outputPath(outputDir, 'importCache')));
  const installed = versions(configFile);
  const testDirs = config.projects.map((project) => project.testDir);
  const suite = await suiteKeyOf({ repo, baseCommit: base.commit, configFile, testDirs, args, options: { ...capture, selects: inputs.judgedBy === 'reporter' }, versions: installed, graph });
  lap('suite key');
  const entry = baselineEntryDir(outputDir, base.commit, suite.key);
  const update = updateReason(options.updateBaselines, config.updateSnapshots);
  // A run that updates takes nothing from the store: it looks up no index.
  const lookup = update || !store.reads ? null : lookUpSuite(store.dir, base.commit, suite.key);
  const indexed = lookup !== null && !('reason' in lookup);
  const facts: RunFacts = {
    base,
    suite: { key: suite.key, files: suite.files.length, lookup },
    update,
    judgedBy: inputs.judgedBy,
    // Looked at only when the plan may read it: a warm run, or one that updates, reads no other seal of the store.
    store: { shown: shownPath(store.dir), reads: store.reads, writes: store.writes, offersBase: !update && !indexed && store.reads && storeOffersBase(store.dir, base.commit) },
    playwright: installed.playwright,
    args,
    machine: { cores: os.availableParallelism(), overlap: ENV.overlap.read() },
  };
  const run = planRun(facts);
  for (const line of run.lines) say(line);
  const captures = projectCaptures(capture, config, repo.root, configFile);
  let keyInputs: Promise<(project: string) => KeyInputs> | null = null;
  const scope: PassScope = {
    repo, configFile, configDir: inputs.configDir, outputDir, base, entry, root: outputDir, rootDir: config.rootDir, suiteKey: suite.key, graph, args,
    started: inputs.started, servers: shownServers(inputs.configDir), worktrees: inputs.worktrees, judgedBy: inputs.judgedBy,
    store: { dir: store.dir, readable: store.reads, reads: run.readsStore, writes: store.writes },
    keyInputs: () =>
      (keyInputs ??= testDirData(repo, testDirs).then((data) => (project: string) => ({ configFile, capture: captures(project), isolated: testsIsolated(config, project), data }))),
  };
  const prepared = await carryOut(scope, facts, run, { ...context, baselineDir: entry }, options);
  clearEarlierBaselines(outputDir, entry);
  if (store.writes) pruneStore(store.dir, base.commit);
  return prepared;
}

async function carryOut(scope: PassScope, facts: RunFacts, run: RunPlan, context: RunContext, options: ResolvedOptions): Promise<Prepared> {
  if (run.kind === 'indexed') return fromIndex(scope, run, context, options);
  if (run.kind === 'deferred') return awaitRunnerList(scope, facts, run, context, options, await scope.keyInputs());
  // Before the current tests: which tests need the base decides whether it runs beside them,
  // and the captures of the others read their stored baselines.
  const listing = run.list ? await listCapturing(scope) : null;
  const plan = planSelection(selectionFacts(facts, run, listing, listing ? lookUpTests(scope, await scope.keyInputs(), listing) : new Map()));
  announce(scope, plan);
  const { schedule } = plan;
  if (schedule.kind === 'store-only') return fromStore(scope, plan, context, options);
  if (schedule.kind === 'beside') return beside(scope, plan, schedule.workers, context, options);
  return before(scope, plan, context, options);
}

function selectionFacts(facts: RunFacts, run: Exclude<RunPlan, { kind: 'indexed' }>, listing: Listing | null, lookups: ReadonlyMap<string, TestLookup>): SelectionFacts {
  return { listing, lookups, reason: run.reason, judgedBy: facts.judgedBy, store: facts.store, args: facts.args, machine: facts.machine, workers: run.kind === 'deferred' ? run.workers : null };
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
function awaitRunnerList(scope: PassScope, facts: RunFacts, run: Extract<RunPlan, { kind: 'deferred' }>, context: RunContext, options: ResolvedOptions, inputs: (project: string) => KeyInputs): Prepared {
  fs.rmSync(scope.entry, { recursive: true, force: true });
  writeManifest(scope.entry, { complete: false, tests: {} });
  let chosen: Prepared | null = null;
  awaitSuite((tests) => {
    try {
      const listing = listingOf(tests, scope.graph);
      const plan = planSelection(selectionFacts(facts, run, listing, lookUpTests(scope, inputs, listing)));
      announce(scope, plan);
      // The plan keeps the deferred run's workers: it runs beside the tests, or not at all.
      chosen = plan.schedule.kind === 'store-only' ? fromStore(scope, plan, context, options) : beside(scope, plan, run.workers, context, options);
      writeRunContext(scope.outputDir, chosen.context);
    } catch (error) {
      say(`warning: the tests to render on the base could not be chosen (${(error as Error).message}): each test that takes a checkpoint runs on the base after the tests`);
    }
  });
  return {
    context: { ...context, baselinePending: 'all' },
    afterRun: async () => {
      stopAwaitingSuite();
      if (chosen) return chosen.afterRun();
      // No test list came (no test ran, or the reporter never began): every test that took a
      // checkpoint runs on the base in the top-up pass, and the reporter compares them.
      await finish(scope, NO_PASS, context, options);
    },
  };
}

/**
 * No pass, no listing: the entries the store's index of the suite names, linked into the run's
 * baseline entry (a warm run). The tests' captures read the index's manifest as the run's.
 */
function fromIndex(scope: PassScope, run: Extract<RunPlan, { kind: 'indexed' }>, context: RunContext, options: ResolvedOptions): Prepared {
  placeSuite(scope.store.dir, scope.base.commit, run.manifest, scope.entry);
  const indexed = { ...context, suiteIndex: run.index };
  return { context: indexed, afterRun: () => finish(scope, NO_PASS, indexed, options) };
}

/** No pass: every test from the store. */
function fromStore(scope: PassScope, plan: BaselinePlan, context: RunContext, options: ResolvedOptions): Prepared {
  const pass = fillFromStore(scope, plan);
  return { context, afterRun: () => finish(scope, pass, context, options) };
}

/**
 * The pass beside the current tests: the stored tests' baselines are in the entry before the tests
 * start; those the pass renders are pending until the teardown moves its entry in.
 */
function beside(scope: PassScope, plan: BaselinePlan, workers: number, context: RunContext, options: ResolvedOptions): Prepared {
  // A dev server watching the project would reload the pages under test on every file the
  // pass writes: it writes beside its worktree, and its files move in after the tests.
  const root = besidePassRoot(scope.worktrees, scope.base.commit);
  // The base build of component tests is a cache: it goes out with the pass and comes back with it.
  moveTree(outputPath(scope.outputDir, 'baselineComponentCache'), outputPath(root, 'baselineComponentCache'));
  // Their captures compare with them as in a warm run; only the tests the pass renders wait for it.
  fs.rmSync(scope.entry, { recursive: true, force: true });
  if (plan.render) writeManifest(scope.entry, { complete: false, tests: copyStored(scope.entry, plan.stored), selection: manifestSelection(plan) });
  const running = renderOnBase({ ...scope, root, entry: baselineEntryDir(root, scope.base.commit, scope.suiteKey), args: [...scope.args, `--workers=${workers}`] }, plan, true);
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
        if (pass.failure) stopOrWarn(pass.failure, options.allowMissingBaselines, outputPath(scope.outputDir, 'baselineLog'));
      } finally {
        await finish(scope, pass, final, options);
      }
    },
  };
}

/** The plan's pass before the tests; one that fails as a whole stops the run (see stopOrWarn). */
async function before(scope: PassScope, plan: BaselinePlan, context: RunContext, options: ResolvedOptions): Promise<Prepared> {
  const pass = await renderOnBase(scope, plan, false);
  let baselineError: string | null = null;
  if (pass.failure) {
    try {
      baselineError = stopOrWarn(pass.failure, options.allowMissingBaselines, outputPath(scope.outputDir, 'baselineLog'));
    } catch (error) {
      if (pass.worktree && !options.keepWorktrees) await removeWorktree(scope.repo, pass.worktree);
      removeEmptyHome(scope.worktrees);
      throw error;
    }
  }
  const final = { ...context, baselineError };
  return { context: final, afterRun: () => finish(scope, pass, final, options) };
}

/**
 * After the current tests, and before the worktree goes: the check of the selection (the top-up),
 * then the run's baseline entry into the store. The worktree stays until then: a dev server
 * watching the project (Vite) would reload the pages under test on the deletion of the worktree's
 * files. The store takes the entry once it holds all it will (a top-up merged, a pass beside the
 * tests moved in), then the suite's index, which the final context names. Writes the final context.
 */
async function finish(scope: PassScope, pass: PassOutcome, context: RunContext, options: ResolvedOptions): Promise<void> {
  let final = context;
  try {
    const toppedUp = context.baselineError || scope.judgedBy !== 'reporter' ? { worktree: pass.worktree, rendered: [], added: null } : await topUp(scope, pass.worktree);
    if (toppedUp.added) final = { ...context, toppedUp: toppedUp.added };
    if (toppedUp.worktree && !options.keepWorktrees) await removeWorktree(scope.repo, toppedUp.worktree);
    const rendered = [...pass.rendered, ...toppedUp.rendered];
    if (context.baselineError || !scope.store.writes) return;
    const stored = storeSuite(
      { store: scope.store.dir, baseCommit: scope.base.commit, suiteKey: scope.suiteKey, entry: scope.entry, rendered, replace: !scope.store.reads },
      outputPath(scope.outputDir, 'storing'),
    );
    if (stored) logStored(stored, scope.store.dir, scope.base.commit);
    if (stored?.index) final = { ...final, suiteIndex: stored.index };
  } finally {
    writeRunContext(scope.outputDir, final);
  }
}

/**
 * The config's webServer entries as the user reads them in a message: commands with paths
 * relative to the config's folder. withVisualUat keeps them (see webServersFromEnv): Playwright's
 * resolved config has none when webServer is an array.
 */
function shownServers(configDir: string): WebServerEntry[] {
  const shown = (command: string) => command.split(`${configDir}${path.sep}`).join('');
  return webServersFromEnv().map((server) => ({ ...server, command: shown(server.command), baseWebServer: server.baseWebServer ? shown(server.baseWebServer) : null }));
}
