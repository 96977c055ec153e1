import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { createRequire } from 'node:module';
import { baselineEntryDir, besidePassRoot, outputPath, storeCommitDir, worktreeHomes, worktreeName } from '../config/paths';
import { CONTEXT_FILE_ENV, OUTPUT_DIR_ENV } from '../config/environment';
import { optionsFromEnv, resolveSettings, type ResolvedOptions } from '../config/settings';
import { missingChromium } from '../config/browser';
import { testsIsolated } from '../config/isolation';
import { isVisualUatReporter, webServersFromEnv, type WebServerEntry } from '../config/with-visual-uat';
import { CHANGED_FILES_LIMIT, SetupError, changedFiles, commitSubjects, fileAtCommit, openRepo, provideWorktree, removeWorktree, workingState, type Repo, type WorkingState } from '../git';
import { farBehindWarning, resolveBase, type BaseResolution } from '../git/base';
import type { BaselineManifest, BaselineTestRecord, RunContext } from '../types';
import { errorCode, writeFileAtomic } from '../util/fs';
import { faultPoint } from '../util/process';
import { plural } from '../util/text';
import { captureOptions, versions } from './capture-inputs';
import { baselineCacheKey, type CacheKey } from './cache-key';
import { provideDependencies } from './dependencies';
import { acquireRunLock, releaseRunLock } from './lock';
import { nestedArgs, runBaselinePass, withoutShard } from './pass';
import { appFilesChanged, changedManifests, runtimeDependenciesDiffer } from './app-files';
import { moveTree } from './staging';
import { removeEmptyHome, removeWorktreesIn, worktreesHome } from './worktrees';
import { baseAppUnreachable } from './pass-failure';
import { unmovedOrigins } from './port-source';
import { listSuite, listedTests, listingOf, supportsTestList, testListText, type Listing, type ListedTest } from './selection';
import { awaitSuite, stopAwaitingSuite } from './suite-handover';
import { ApprovalsFileError, readApprovals } from '../store/approvals-file';
import { clearEarlierBaselines, handDownEarlierRenders, readManifest, writeManifest, type EarlierRenders } from '../store/run-folder';
import { openStore, STORE_OPTION } from './store-home';
import { clearCapturingTests, mergeTopUp, testsWithoutBaseRecord } from './top-up';
import { SourceGraph } from './source-graph';
import { copyEntry, earlierRender, lookUp, lookUpSuite, olderSuiteCache, placeSuite, resumeStoring, storeSuite, testDirData, type KeyInputs, projectCaptures, pruneStore, sizeText, storeHolds, storeHoldsCommit, storeSize, storedRecord, testSource, touch, type RenderedTest, type SuiteStored } from './baseline-store';

function log(message: string): void {
  process.stdout.write(`visual-uat: ${message}\n`);
}

/** The output folder hides itself from git, so the user's `git status` never changes. */
function prepareOutputDir(outputDir: string): void {
  fs.mkdirSync(outputDir, { recursive: true });
  const ignore = outputPath(outputDir, 'gitignore');
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '*\n');
}

/** A setup error reads as one line: no stack trace for a wrong branch name or a broken approvals file. */
function oneLine(error: unknown): Error {
  if (!(error instanceof SetupError || error instanceof ApprovalsFileError)) return error as Error;
  const plain = new Error(error.message);
  plain.stack = error.message;
  return plain;
}

/** The global setup of the current run (see global-setup.ts). */
export async function runSetup(config: FullConfig): Promise<() => Promise<void>> {
  let prepared: Prepared;
  try {
    prepared = await setup(config);
  } catch (error) {
    throw oneLine(error);
  }
  const releasesLock = !config.reporter.some(([name]) => isVisualUatReporter(name));
  return async () => {
    try {
      await prepared.afterRun();
    } catch (error) {
      throw oneLine(error);
    }
    // The reporter releases the lock after it has written the results; a run without it (a shard
    // with --reporter=blob) releases it here instead.
    if (releasesLock) releaseRunLock(prepared.outputDir);
  };
}

interface Prepared {
  outputDir: string;
  /** What must wait until the current tests are done (removing the base worktree). */
  afterRun: () => Promise<void>;
}

async function setup(config: FullConfig): Promise<Prepared> {
  const started = Date.now();
  const configFile = config.configFile;
  if (!configFile) throw new SetupError('visual-uat: the run has no config file: put withVisualUat(...) in playwright.config.ts');
  // Before the baseline pass: without a browser both passes would fail every test with Playwright's launch error.
  const noChromium = missingChromium(config.projects.map((project) => project.use));
  if (noChromium) throw new SetupError(noChromium);
  const { options, configDir, outputDir, baselineStore } = resolveSettings(configFile);
  // The reporter judges with the approvals file after every test ran: one that does not read stops the run before them.
  readApprovals(configDir);
  if (judgedBy(config) === 'nothing') {
    const reporters = config.reporter.map(([name]) => name);
    log(`warning: this run has no visual-uat reporter (its reporters: ${reporters.join(', ')}), so nothing will compare the checkpoints it takes: add it, e.g. --reporter=visual-uat/reporter,${reporters[0] ?? 'list'}`);
  }
  prepareOutputDir(outputDir);
  process.env[OUTPUT_DIR_ENV] = outputDir;
  const staleLock = acquireRunLock(outputDir);
  if (staleLock) log(`took over the lock of an earlier run (pid ${staleLock}) that is gone`);
  try {
    return { outputDir, afterRun: await prepareBaselines(config, configFile, configDir, outputDir, baselineStore, options, started) };
  } catch (error) {
    releaseRunLock(outputDir);
    throw error;
  }
}

/** Prepares the baselines; returns what must run once the current tests are done. */
async function prepareBaselines(
  config: FullConfig,
  configFile: string,
  configDir: string,
  outputDir: string,
  store: string,
  options: ResolvedOptions,
  started: number,
): Promise<() => Promise<void>> {
  const repo = await openRepo(configDir);
  const state = await workingState(repo);
  const base = options.record ? recordedBase(state) : await resolveBase(repo, options.baseBranch);
  const sameAsBase = base.commit === state.commit && !state.dirty;
  if (!options.record) {
    log(`base ${base.branch} (${base.chosenBy}) @ ${base.commit.slice(0, 8)}, merge-base of HEAD`);
    const farBehind = sameAsBase ? null : await farBehindWarning(repo, base);
    if (farBehind) log(`warning: ${farBehind}`);
  }
  const changed = sameAsBase ? [] : await changedFiles(repo, base.commit);
  const context: RunContext = {
    baseBranch: base.branch,
    baseRef: base.ref,
    baseCommit: base.commit,
    currentBranch: state.branch,
    currentCommit: state.commit,
    dirty: state.dirty,
    sameAsBase,
    commits: sameAsBase ? [] : await commitSubjects(repo, base.commit),
    changedFiles: changed.slice(0, CHANGED_FILES_LIMIT),
    // From every changed file: a branch with hundreds of test changes may still change the app.
    appFilesChanged: appFilesChanged(changed, {
      repoRoot: repo.root,
      testDirs: config.projects.map((project) => project.testDir),
      manifestsWithNewDependencies: await manifestsWithNewDependencies(repo, base.commit, changed),
    }).slice(0, CHANGED_FILES_LIMIT),
    baselineDir: '',
    baselineError: null,
  };
  clearCapturingTests(outputDir);
  const storeAccess = openStore(store, repo.root);
  if (storeAccess.warning) log(`warning: ${storeAccess.warning}`);
  // A run killed while it stored what its pass rendered left those tests to this one.
  const resumed = storeAccess.writes ? resumeStoring(outputPath(outputDir, 'storing'), store) : null;
  if (resumed && 'problem' in resumed) log(`the tests a killed run left to store are not stored: ${resumed.problem}`);
  else if (resumed?.stored) logStored(resumed.stored, store, base.commit);

  const worktrees = worktreesHome(outputDir, repo.root);
  // Worktrees a killed run left behind (we hold the lock: no other run uses them); the one of this
  // base commit stays, the pass reuses it when it is clean.
  if (!options.keepWorktrees)
    for (const home of Object.values(worktreeHomes(outputDir)))
      await removeWorktreesIn(repo, home, home === worktrees ? worktreeName(base.commit) : null, (name) => log(`removing the worktree ${name} left by an earlier run`));
  let afterRun: (() => Promise<void>) | null = null;
  if (sameAsBase) {
    const records = reportsLocally(config);
    if (options.record && !records)
      throw new SetupError("visual-uat record: this run writes blobs (or has no visual-uat reporter), so nothing would judge or store its checkpoints: run it without --reporter=blob");
    if (records && storeAccess.writes) context.record = { store, repoRoot: repo.root };
    const playwright = versions(configFile).playwright;
    const unread = supportsTestList(playwright) ? '' : ` (a run on Playwright ${playwright} will not read them: taking tests from the store needs --test-list, Playwright 1.56 or later)`;
    const recording = records && storeAccess.writes ? `; its checkpoints are recorded as the baselines of ${base.commit.slice(0, 8)} in ${shownPath(store)}${unread}` : '';
    log(`HEAD is the base (${base.branch} @ ${base.commit.slice(0, 8)}) with a clean tree: nothing to compare, no baseline pass${recording}`);
  } else {
    const args = nestedArgs(process.argv);
    const selects = reportsLocally(config);
    const capture = captureOptions(optionsFromEnv());
    const graph = new SourceGraph(repo.root);
    const installed = versions(configFile);
    const cache = await baselineCacheKey({
      repo,
      baseCommit: base.commit,
      configFile,
      testDirs: config.projects.map((project) => project.testDir),
      args,
      options: { ...capture, selects },
      versions: installed,
      graph,
    });
    const entry = baselineEntryDir(outputDir, base.commit, cache.key);
    context.baselineDir = entry;
    const update = updateReason(options, config);
    const indexed = update ? null : storeAccess.reads ? lookUpSuite(store, base.commit, cache.key) : { index: null, reason: 'the baseline store is not read', doubtful: false };
    const stale = update ?? (indexed && 'reason' in indexed ? indexed.reason : null);
    // An index of this suite that is there and doubtful is said, whoever renders in its place.
    if (indexed && 'reason' in indexed && indexed.doubtful) log(`the store's index of this suite is not used: ${indexed.reason}`);
    const older = stale ? olderSuiteCache(entry) : null;
    if (older) log(older);
    if (stale && storeAccess.reads && !update && !supportsTestList(installed.playwright))
      log(`the baseline store is not read: Playwright ${installed.playwright} cannot run a list of tests (--test-list, 1.56 and later), so the baseline pass renders every test; upgrade @playwright/test to 1.56 or later to take tests from ${shownPath(store)}`);
    const plan: PassPlan = {
      repo, configFile, configDir, outputDir, baseCommit: base.commit, baseBranch: base.branch,
      entry, root: outputDir, rootDir: config.rootDir, cache, graph, args, reason: stale ?? '', started, servers: shownServers(configDir), worktrees, selects,
      store: { dir: store, reads: !update && storeAccess.reads, writes: storeAccess.writes, capture: projectCaptures(capture, config, repo.root, configFile), isolated: (project) => testsIsolated(config, project), testDirs: config.projects.map((project) => project.testDir), data: null },
    };
    // The tests the pass renders again had earlier renders, which the captures on both sides may read.
    const handDown = (selection: PassSelection) => handDownEarlierRenders(outputPath(outputDir, 'earlierRenders'), selection.render && storeAccess.reads ? earlierRenders(plan, selection.render) : {});
    // After the current tests, and before the worktree goes: the check of the pass's selection.
    // The worktree stays until then: a dev server watching the project (Vite) would reload the
    // pages under test on the deletion of the worktree's files. The store takes the entry once it holds all it will (a top-up merged, a pass beside the tests
    // moved in), then the suite's index.
    const finish = async (pass: PassOutcome): Promise<void> => {
      try {
        const toppedUp = context.baselineError || !selects ? { worktree: pass.worktree, rendered: [] } : await topUp(plan, pass.worktree, context);
        if (toppedUp.worktree && !options.keepWorktrees) await removeWorktree(repo, toppedUp.worktree);
        const rendered = [...pass.rendered, ...toppedUp.rendered];
        if (context.baselineError || !storeAccess.writes) return;
        const stored = storeSuite({ store, baseCommit: base.commit, suiteKey: cache.key, entry, rendered, replace: !plan.store.reads }, outputPath(outputDir, 'storing'));
        if (stored) logStored(stored, store, base.commit);
        if (stored?.index) context.suiteIndex = stored.index;
      } finally {
        writeContext(outputDir, context);
      }
    };
    /** The pass beside the current tests: the stored tests' baselines are in the entry before the tests start. */
    const beside = (selection: PassSelection, workers: number): (() => Promise<void>) => {
      handDown(selection);
      log(`the baseline pass runs beside the current tests (${renderedTests(selection)}, ${plural(workers, 'worker')}, on ${os.availableParallelism()} cores)`);
      // A dev server watching the project would reload the pages under test on every file the
      // pass writes: it writes beside its worktree, and its files move in after the tests.
      const root = besidePassRoot(worktrees, base.commit);
      // The base build of component tests is a cache: it goes out with the pass and comes back with it.
      moveTree(outputPath(outputDir, 'baselineComponentCache'), outputPath(root, 'baselineComponentCache'));
      // Their captures compare with them as in a warm run; only the tests the pass renders wait for it.
      fs.rmSync(entry, { recursive: true, force: true });
      if (selection.render) writeManifest(entry, { complete: false, tests: copyStored(entry, selection.stored), selection: manifestSelection(selection) });
      const running = baselinePass({ ...plan, root, entry: baselineEntryDir(root, base.commit, cache.key), args: [...args, `--workers=${workers}`] }, selection, true);
      context.baselinePending = selection.render?.map((test) => test.key) ?? 'all';
      return async () => {
        const pass = await running;
        fs.rmSync(outputPath(outputDir, 'baselineRunOutput'), { recursive: true, force: true });
        // Its entry joins the stored tests' (its manifest names both).
        moveTree(root, outputDir);
        // The reporter reads the final context; the current tests ran already, so a pass that
        // failed as a whole fails the run here, after its checkpoints are recorded as new.
        delete context.baselinePending;
        context.baselineError = pass.failure;
        try {
          if (pass.failure) stopOrWarn(pass.failure, options, outputPath(outputDir, 'baselineLog'));
        } finally {
          await finish(pass);
        }
      };
    };
    /** No pass: every test from the store. */
    const fromStore = (selection: PassSelection): (() => Promise<void>) => {
      handDown(selection);
      delete context.baselinePending;
      const pass = storedOnly(plan, selection);
      return () => finish(pass);
    };
    /** The selection's pass before the tests. */
    const before = async (selection: PassSelection): Promise<() => Promise<void>> => {
      handDown(selection);
      log(`the baseline pass runs before the current tests (${renderedTests(selection)})`);
      const pass = await baselinePass(plan, selection, false);
      if (pass.failure) {
        try {
          context.baselineError = stopOrWarn(pass.failure, options, outputPath(outputDir, 'baselineLog'));
        } catch (error) {
          if (pass.worktree && !options.keepWorktrees) await removeWorktree(repo, pass.worktree);
          removeEmptyHome(worktrees);
          throw error;
        }
      }
      return () => finish(pass);
    };
    // Without a listing, the store predicts whether few tests need the base: it holds tests of this
    // base commit (a spec edited since the last run). A wrong guess costs time, never a baseline.
    const deferred = stale && selects && supportsTestList(installed.playwright) ? besideWorkers(config, args, plan.store.reads && storeHoldsCommit(store, base.commit)) : null;
    if (indexed && !('reason' in indexed)) {
      placeSuite(store, base.commit, indexed.manifest, entry);
      context.suiteIndex = indexed.index;
      log(`baselines from the store's index of this suite: ${base.branch} @ ${base.commit.slice(0, 8)}, key ${cache.key.slice(0, 12)} (${plural(cache.files.length, 'test-side file')}): no worktree, no base server`);
      afterRun = () => finish({ failure: null, worktree: null, rendered: [] });
    } else if (deferred) {
      // The pass runs beside the tests: the runner's own test list, which the reporter hands over
      // as the tests start, chooses what it renders, instead of a listing run before them.
      const inputs = await keyInputs(plan);
      fs.rmSync(entry, { recursive: true, force: true });
      writeManifest(entry, { complete: false, tests: {} });
      context.baselinePending = 'all';
      let chosen: (() => Promise<void>) | null = null;
      awaitSuite((tests) => {
        try {
          const selection = selectionOf(plan, inputs, listingOf(tests, plan.graph));
          chosen = selection.render?.length === 0 ? fromStore(selection) : beside(selection, deferred);
          writeContext(outputDir, context);
        } catch (error) {
          log(`warning: the tests to render on the base could not be chosen (${(error as Error).message}): each test that takes a checkpoint runs on the base after the tests`);
        }
      });
      afterRun = async () => {
        stopAwaitingSuite();
        if (chosen) return chosen();
        // No test list came (no test ran, or the reporter never began): every test that took a
        // checkpoint runs on the base in the top-up pass, and the reporter compares them.
        delete context.baselinePending;
        await finish({ failure: null, worktree: null, rendered: [] });
      };
    } else {
      // Before the current tests: which tests need the base decides whether it runs beside them,
      // and the captures of the others read their stored baselines.
      const selection = await selectTests(plan);
      const workers = besideWorkers(config, args, fewToRender(selection));
      afterRun = selection.render?.length === 0 ? fromStore(selection) : workers ? beside(selection, workers) : await before(selection);
    }
    clearEarlierBaselines(outputDir, entry);
    if (storeAccess.writes) pruneStore(store, base.commit);
  }

  writeContext(outputDir, context);
  // worktreesHome made the home folder: a run that leaves nothing in it leaves no folder either,
  // nor the notes of the tests that captured, read by the top-up check by then.
  return async () => {
    try {
      await afterRun?.();
    } finally {
      clearCapturingTests(outputDir);
      removeEmptyHome(worktrees);
    }
  };
}

/** `visual-uat record`: HEAD is the base, with a clean tree (a tree's changes are no commit's baselines). */
function recordedBase(state: WorkingState): BaseResolution {
  if (state.dirty) throw new SetupError('visual-uat record: the working tree has changes, and the baselines it stores belong to HEAD: commit or stash them first');
  return { branch: state.branch ?? 'HEAD', ref: 'HEAD', commit: state.commit, chosenBy: 'visual-uat record' };
}

/** The changed package.json files whose runtime dependencies differ from the base's. */
async function manifestsWithNewDependencies(repo: Repo, baseCommit: string, changed: string[]): Promise<string[]> {
  const differ = await Promise.all(
    changedManifests(changed).map(async (file) => {
      const current = fs.existsSync(path.join(repo.root, file)) ? fs.readFileSync(path.join(repo.root, file), 'utf8') : null;
      return runtimeDependenciesDiffer(await fileAtCommit(repo, baseCommit, file), current) ? file : null;
    }),
  );
  return differ.filter((file): file is string => file !== null);
}

function writeContext(outputDir: string, context: RunContext): void {
  const contextFile = outputPath(outputDir, 'runContext');
  writeFileAtomic(contextFile, JSON.stringify(context, null, 2));
  process.env[CONTEXT_FILE_ENV] = contextFile;
}

/**
 * Workers for a baseline pass that runs beside the current tests, or null to run it first. Two
 * browser runs at once pay where cores are free: on 4 cores and more, the pass gets half of them
 * (Playwright's own default for one run). On fewer, only when the store gives at least as many of
 * the tests as the pass renders (`fewToRender`: one spec edited since the last run): the current
 * tests then compare with stored baselines as in a warm run, and the few base tests fill the time
 * a run leaves its cores idle (starting, waiting for pages to settle) instead of adding a whole
 * nested run's start and end to the run. A run that writes blobs or runs a shard keeps them in
 * order, since its blob must carry the baseline images. VISUAL_UAT_OVERLAP=1 or 0 decides instead.
 */
function besideWorkers(config: FullConfig, args: string[], fewToRender: boolean): number | null {
  const cores = os.availableParallelism();
  const half = Math.max(1, Math.floor(cores / 2));
  const forced = process.env.VISUAL_UAT_OVERLAP;
  if (forced === '0') return null;
  if (forced === '1') return half;
  if (!reportsLocally(config) || args.some((arg) => arg.startsWith('--shard'))) return null;
  return cores >= 4 || fewToRender ? half : null;
}

/** The store gives at least as many of the tests as the pass renders. */
function fewToRender(selection: PassSelection): boolean {
  return selection.render !== null && selection.render.length <= selection.stored.length;
}

/**
 * Whether visual-uat's reporter judges this run itself (no blob). Only then can the base pass run
 * a selection of the tests: a test the selection missed gets its baseline in a top-up pass after
 * the current tests, and a blob, written by then, could not carry that baseline to the merge.
 */
function reportsLocally(config: FullConfig): boolean {
  return judgedBy(config) === 'reporter';
}

/**
 * What compares this run's checkpoints: visual-uat's reporter in this run, `merge-reports` of its
 * blobs later, or nothing (`--reporter=line` on the command line replaces the config's reporters,
 * visual-uat's among them).
 */
function judgedBy(config: FullConfig): 'reporter' | 'blobs' | 'nothing' {
  const reporters = config.reporter.map(([name]) => name);
  if (reporters.includes('blob')) return 'blobs';
  return reporters.some(isVisualUatReporter) ? 'reporter' : 'nothing';
}

/** A path as a log line shows it: relative to where the run started, unless it lies elsewhere (a worktree in the temporary folder). */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
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

/**
 * Why the baselines must be captured again though stored: the option, or Playwright's own
 * `--update-snapshots` / `-u` (modes `all` and `changed`; `missing`, the default, and `none` keep
 * what is stored).
 */
function updateReason(options: ResolvedOptions, config: FullConfig): string | null {
  if (options.updateBaselines) return 'updateBaselines is set';
  if (config.updateSnapshots === 'all' || config.updateSnapshots === 'changed') return `--update-snapshots=${config.updateSnapshots}`;
  return null;
}

/**
 * A baseline pass that failed as a whole stops the run before the current tests: every
 * checkpoint would be `new` and the run green with nothing compared. allowMissingBaselines opts
 * in to going on with a warning; the error then becomes every checkpoint's reason.
 */
function stopOrWarn(failure: string, options: ResolvedOptions, logFile: string): string {
  const where = `see ${path.relative(process.cwd(), logFile) || logFile}`;
  if (!options.allowMissingBaselines)
    throw new SetupError(`visual-uat: ${failure}; ${where}. Nothing was compared, so the run stops (to run anyway with every checkpoint new: allowMissingBaselines: true or VISUAL_UAT_ALLOW_MISSING_BASELINES=1)`);
  log(`warning: ${failure}; ${where}. allowMissingBaselines is set: every checkpoint will be new`);
  return failure;
}

interface PassPlan {
  repo: Repo;
  configFile: string;
  configDir: string;
  outputDir: string;
  baseCommit: string;
  baseBranch: string;
  /** The run's baseline entry the pass writes, under `root`. */
  entry: string;
  /** Where the pass writes its entry, logs, lists and Playwright output: the output folder, or besidePassRoot for a pass beside the tests. */
  root: string;
  /** Playwright's rootDir, which a test's note names its file from (see top-up.ts). */
  rootDir: string;
  cache: CacheKey;
  /** The test side's modules, parsed once (see baselineCacheKey). */
  graph: SourceGraph;
  args: string[];
  reason: string;
  started: number;
  servers: WebServerEntry[];
  /** Where base worktrees go (see worktrees.ts). */
  worktrees: string;
  /** Whether the pass may run a selection of the tests (see reportsLocally). */
  selects: boolean;
  /**
   * The per-test store: its folder, whether this run may take baselines from it (not when they must
   * be captured again, nor from a store it cannot use: see store-home openStore), whether it may write it, each project's capture inputs, whether its tests are isolated (a test's key
   * then leaves out the other tests of its file, see test-text.ts), and the testDirs' files that are
   * not code (in every test's key, see testDirData), read by the first step that keys a test.
   */
  store: { dir: string; reads: boolean; writes: boolean; capture: (project: string) => string; isolated: (project: string) => boolean; testDirs: string[]; data: Record<string, string> | null };
}

/** What a test of a project takes into its store key besides its own closure: a run that keys no test (a warm one) reads none of it. */
async function keyInputs(plan: PassPlan): Promise<(project: string) => KeyInputs> {
  plan.store.data ??= await testDirData(plan.repo, plan.store.testDirs);
  const data = plan.store.data;
  return (project) => ({ configFile: plan.configFile, capture: plan.store.capture(project), isolated: plan.store.isolated(project), data });
}

interface PassOutcome {
  /** Why the pass failed as a whole (a single base test that fails is recorded in the manifest, not here). */
  failure: string | null;
  /** The base worktree the pass used, to be removed once the current tests are done. */
  worktree: string | null;
  /** The tests it rendered that the store may keep (those that pass, see storeRendered). */
  rendered: RenderedTest[];
}

/** The base checkout with its dependencies, created or reused. */
async function provideBase(plan: PassPlan, why: string): Promise<string> {
  const worktree = path.join(plan.worktrees, worktreeName(plan.baseCommit));
  const how = await provideWorktree(plan.repo, worktree, plan.baseCommit);
  faultPoint('worktree');
  const where = `${how === 'reused' ? 'the kept worktree ' : ''}${shownPath(worktree)}`;
  log(`${why}: ${plan.baseBranch} @ ${plan.baseCommit.slice(0, 8)} in ${where}`);
  log(`base dependencies: ${(await provideDependencies(plan.repo, worktree, plan.configDir, plan.baseCommit)).detail}`);
  faultPoint('dependencies');
  for (const warning of unmovedOrigins(path.join(worktree, path.relative(plan.repo.root, plan.configDir)), plan.servers)) log(`warning: ${warning}`);
  return worktree;
}

function nestedPass(plan: PassPlan, worktree: string, baselineDir: string, testList: string | null) {
  return runBaselinePass({
    configFile: plan.configFile,
    configDir: plan.configDir,
    repoRoot: plan.repo.root,
    worktree,
    outputDir: plan.root,
    baselineDir,
    args: testList ? [...withoutShard(plan.args), '--test-list', testList] : plan.args,
    logFile: outputPath(plan.root, 'baselineLog'),
    servers: plan.servers,
  });
}

/** The tests the pass renders on the base and those the store gives (see splitByStore); without a listing, every test renders. */
interface PassSelection {
  /** How many tests the listing found; null without one. */
  listed: number | null;
  stored: StoredTest[];
  /** The tests to render; null: all of them. */
  render: ListedTest[] | null;
  /** The rendered tests' sources, for the store. */
  sources: RenderedTest[];
}

/** The listing of the tests that can capture, split by what the store holds (see listCapturing, selectionOf). */
async function selectTests(plan: PassPlan): Promise<PassSelection> {
  const listing = plan.selects || plan.store.reads ? await listCapturing(plan) : null;
  if (!listing) return { listed: null, stored: [], render: null, sources: [] };
  return selectionOf(plan, await keyInputs(plan), listing);
}

/** The listed tests (a listing run, or the runner's own list) split by what the store holds, with the log line of the pass. */
function selectionOf(plan: PassPlan, inputs: (project: string) => KeyInputs, listing: Listing): PassSelection {
  // A run that writes a blob has no top-up after its tests (its blob is written by then): it renders
  // every listed test the store lacks, not only those the scan says can capture.
  const split = splitByStore(plan, inputs, listing.tests, new Set(plan.selects ? listing.selected : listing.tests));
  // Said only of a pass that runs: with every test from the store, none does.
  if (plan.selects && split.render.length && listing.selected.length < listing.total) {
    const stored = split.stored.length ? `${split.stored.length} come from the store, ` : '';
    log(`the baseline pass runs ${split.render.length} of ${listing.total} tests: ${stored}the others have no checkpoint call in their sources (checked after the run)`);
  }
  return { listed: listing.total, ...split };
}

/** The tests the pass renders that the store rendered before, with other sources or at another base commit (see earlierRender). */
function earlierRenders(plan: PassPlan, render: readonly ListedTest[]): EarlierRenders {
  return Object.fromEntries(
    render.flatMap((test) => {
      const found = earlierRender(plan.store.dir, plan.baseCommit, test.key);
      return found ? [[test.key, found]] : [];
    }),
  );
}

/** How many tests a pass renders, for its log line. */
function renderedTests(selection: PassSelection): string {
  return selection.render ? plural(selection.render.length, 'test') : 'every test';
}

/** The manifest's note of a selection: how many tests were listed, how many rendered. */
function manifestSelection(selection: PassSelection): BaselineManifest['selection'] {
  return selection.listed === null ? undefined : { listed: selection.listed, run: selection.render!.length };
}

/** Every test that can capture is in the store (or none can): the entry is made of copies, with no worktree and no base server. */
function storedOnly(plan: PassPlan, selection: PassSelection): PassOutcome {
  fs.rmSync(plan.entry, { recursive: true, force: true });
  writeManifest(plan.entry, { complete: true, tests: copyStored(plan.entry, selection.stored), selection: manifestSelection(selection) });
  if (selection.stored.length) log(`baselines from the store (${shownPath(plan.store.dir)}): no worktree, no base server`);
  else log(`no baseline pass needed: none of the ${selection.listed} tests can capture a checkpoint (no checkpoint call in their sources)`);
  return { failure: null, worktree: null, rendered: [] };
}

/**
 * Runs the baseline pass into the run's baseline entry: the selection's tests (all
 * without a listing), and the stored ones' records beside them. `storedCopied`: the stored tests'
 * images are already in the run's entry (a pass beside the tests writes its own, moved in after);
 * else they are copied into this entry once the nested run, which starts it afresh, is done.
 */
async function baselinePass(plan: PassPlan, selection: PassSelection, storedCopied: boolean): Promise<PassOutcome> {
  const { stored, render } = selection;
  let worktree: string | null = null;
  try {
    let testList: string | null = null;
    if (render && render.length < selection.listed!) {
      testList = outputPath(plan.root, 'baselineTestList');
      writeFileAtomic(testList, testListText(render));
    }
    // With tests from the store, the suite's reason (not in the store) is not why this pass runs.
    const why = stored.length && render ? `for the ${plural(render.length, 'test')} the store lacks` : plan.reason;
    worktree = await provideBase(plan, `baseline pass (${why})`);
    const outcome = await nestedPass(plan, worktree, plan.entry, testList);
    if (outcome.error) return { failure: outcome.error, worktree, rendered: [] };
    const broken = baseAppUnreachable(outcome.manifest!);
    if (broken) return { failure: `the baseline pass failed: ${broken}`, worktree, rendered: [] };
    if (render) {
      const records = storedCopied ? storedRecords(stored) : copyStored(plan.entry, stored);
      writeManifest(plan.entry, { ...outcome.manifest!, tests: { ...records, ...outcome.manifest!.tests }, selection: manifestSelection(selection) });
    }
    log(`baseline pass done: ${plural(Object.keys(outcome.manifest!.tests).length, 'test')} in ${((Date.now() - plan.started) / 1000).toFixed(1)} s`);
    return { failure: null, worktree, rendered: selection.sources };
  } catch (error) {
    return { failure: (error as Error).message.replace(/^visual-uat: /, ''), worktree, rendered: [] };
  }
}

interface StoredTest {
  test: ListedTest;
  entry: string;
  /** The source hash its entry is keyed by. */
  source: string;
  checkpoints: string[];
  /** Those that have a layout record, as the entry's seal says (absent: an entry of an older version). */
  layouts?: string[];
}

/**
 * The listed tests split into those the store holds (for this base commit and these sources) and
 * the selected ones to render, with the log line that says which and why. A test the selection
 * leaves out is looked up too: a top-up pass may have stored it (the scan missed its capture), and
 * a valid entry with checkpoints spares that pass; else it is left to the top-up check again.
 */
function splitByStore(plan: PassPlan, inputs: (project: string) => KeyInputs, listed: readonly ListedTest[], selected: ReadonlySet<ListedTest>): { stored: StoredTest[]; render: ListedTest[]; sources: RenderedTest[] } {
  const { graph } = plan;
  const stored: StoredTest[] = [];
  const render: ListedTest[] = [];
  const sources: RenderedTest[] = [];
  const reasons = new Map<string, string[]>();
  // With more than one project, the same test is one per project: each is named with its project.
  const projects = new Set(listed.map((test) => test.project)).size > 1;
  const named = (test: ListedTest) => [...(projects ? [test.project] : []), ...test.titlePath].join(' › ');
  for (const test of listed) {
    const chosen = selected.has(test);
    if (!chosen && !(plan.store.reads && storeHolds(plan.store.dir, plan.baseCommit, test.key))) continue;
    const source = testSource(graph, test, inputs(test.project));
    const found = source && plan.store.reads ? lookUp(plan.store.dir, plan.baseCommit, test.key, source) : null;
    if (found?.entry) {
      // An entry with no checkpoint (a record run notes the tests that take none) spares only a
      // pass that would render the test: one that renders every listed test.
      if (chosen || found.checkpoints.length) stored.push({ test, entry: found.entry, source: found.source, checkpoints: found.checkpoints, layouts: found.layouts });
      continue;
    }
    if (!chosen) continue;
    render.push(test);
    if (source) sources.push({ key: test.key, source });
    const reason = !source ? 'its file is outside the repository' : found && 'reason' in found ? found.reason : plan.reason;
    reasons.set(reason, [...(reasons.get(reason) ?? []), named(test)]);
  }
  const first = (titles: string[]) => `${titles.slice(0, 3).join(', ')}${titles.length > 3 ? ` and ${titles.length - 3} more` : ''}`;
  if (stored.length) touch(storeCommitDir(plan.store.dir, plan.baseCommit));
  const why = [...reasons].map(([reason, titles]) => `${reason}: ${first(titles)}`).join('; ');
  if (render.length + stored.length)
    log(`baseline: ${render.length} of ${plural(render.length + stored.length, 'test')} rendered on the base${render.length ? ` (${why})` : ''}; ${stored.length} from the store`);
  return { stored, render, sources };
}

/** Copies the stored tests into the run's entry; their manifest records. */
function copyStored(entry: string, stored: readonly StoredTest[]): Record<string, BaselineTestRecord> {
  for (const { test, entry: from, checkpoints } of stored) copyEntry(from, checkpoints, entry, test.folder);
  return storedRecords(stored);
}

function storedRecords(stored: readonly StoredTest[]): Record<string, BaselineTestRecord> {
  return Object.fromEntries(stored.map(({ test, checkpoints, source, layouts }) => [test.key, storedRecord(test.folder, checkpoints, source, layouts)]));
}

/**
 * The line that says what the store took once the current tests were done (see baseline-store
 * storeSuite): a write that failed is said in one line and ended the storing; the run's verdicts
 * do not depend on it.
 */
function logStored(stored: SuiteStored, store: string, baseCommit: string): void {
  if (stored.failure)
    log(`warning: the baseline store ${store} could not take what this run rendered (${stored.failure.code}): ${plural(stored.failure.notStored, 'test')} not stored; free space or make it writable, or point ${STORE_OPTION} at another folder`);
  else if (stored.added) log(`baseline store: ${plural(stored.added, 'test')} stored for ${baseCommit.slice(0, 8)} (${shownPath(store)}: ${sizeText(storeSize(store))})`);
}

/**
 * The check of the selection, once the current tests are done: each test that took a checkpoint
 * in this run and has no record in the base entry runs on the base now, and joins the entry.
 * Returns the worktree to remove afterwards, and the tests it rendered for the store (their
 * sources read before the pass runs them, as the main pass's are).
 */
async function topUp(plan: PassPlan, worktree: string | null, context: RunContext): Promise<{ worktree: string | null; rendered: RenderedTest[] }> {
  const entry = readManifest(plan.entry);
  const missed = testsWithoutBaseRecord(plan.outputDir, entry);
  if (missed.length === 0 || !entry) return { worktree, rendered: [] };
  const started = Date.now();
  const names = missed.slice(0, 3).map((test) => test.titlePath.join(' › ')).join(', ');
  const why = `top-up pass: ${plural(missed.length, 'test')} took a checkpoint but did not run on the base (${names}${missed.length > 3 ? ', …' : ''}): the scan of their sources missed the capture`;
  let base = worktree;
  try {
    base ??= await provideBase(plan, why);
    if (worktree) log(why);
    const { graph } = plan;
    const inputs = await keyInputs(plan);
    const rendered = missed.flatMap(({ key, project, relativeFile, line, column }) => {
      const source = testSource(graph, { file: path.resolve(plan.rootDir, relativeFile), line, column }, inputs(project));
      return source ? [{ key, source }] : [];
    });
    const list = outputPath(plan.outputDir, 'topUpTestList');
    writeFileAtomic(list, testListText(missed));
    const topUpDir = outputPath(plan.outputDir, 'topUpEntry');
    const outcome = await nestedPass(plan, base, topUpDir, list);
    if (outcome.error) {
      log(`warning: ${outcome.error}; those checkpoints stay new`);
      return { worktree: base, rendered: [] };
    }
    const merged = mergeTopUp(entry, plan.entry, outcome.manifest!, topUpDir);
    writeManifest(plan.entry, merged.manifest);
    fs.rmSync(topUpDir, { recursive: true, force: true });
    context.toppedUp = merged.added;
    log(`top-up pass done: ${plural(merged.added.length, 'test')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { worktree: base, rendered };
  } catch (error) {
    log(`warning: the top-up pass failed: ${(error as Error).message.replace(/^visual-uat: /, '')}; those checkpoints stay new`);
    return { worktree: base, rendered: [] };
  }
}

/**
 * The listed tests, and those of them that can capture a checkpoint (see selection.ts). Null when
 * every test runs: Playwright before 1.56 has no --test-list, or the listing failed.
 */
async function listCapturing(plan: PassPlan): Promise<Listing | null> {
  const playwright = versions(plan.configFile).playwright;
  if (!supportsTestList(playwright)) return null;
  const logFile = outputPath(plan.root, 'baselineListLog');
  const report = await listSuite({
    cli: createRequire(plan.configFile).resolve('@playwright/test/cli'),
    configFile: plan.configFile,
    args: plan.args,
    outputFile: outputPath(plan.root, 'baselineTestsJson'),
    logFile,
    env: process.env,
  });
  if (!report) {
    log(`warning: could not list the tests to choose those with checkpoints (see ${path.relative(process.cwd(), logFile)}): the baseline pass runs them all, and the baseline store is not read`);
    return null;
  }
  return listingOf(listedTests(report), plan.graph);
}
