import fs from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { outputPath, worktreeHomes, worktreeName } from '../config/paths';
import { ENV } from '../config/environment';
import { resolveSettings, type ResolvedOptions } from '../config/settings';
import { missingChromium } from '../config/browser';
import { isVisualUatReporter } from '../config/with-visual-uat';
import { ungatedRunError } from '../config/reporters';
import { openRepo } from '../git';
import { SetupError } from '../util/errors';
import { ApprovalsFileError, readApprovals } from '../files/approvals-file';
import type { RunContext } from '../types';
import { versions } from '../sources/capture-inputs';
import { prepareBasePass, resumeLeftStoring, type Prepared } from './execute';
import { acquireRunLock, releaseRunLock } from './lock';
import { planOnBase, type Judge, type OnBasePlan } from './plan';
import { gitContext, publishRunContext } from './run-context';
import { say, shownPath } from '../util/output';
import { openStore, type StoreUse } from '../store/home';
import { resolvePassInputs, workplaceOf } from './pass-scope';
import { clearCapturingTests } from './top-up';
import { lap, startTiming } from '../config/timing';
import { removeEmptyHome, removeWorktreesIn, worktreesHome } from '../checkout/worktrees';

/**
 * The global setup of the current run: the settings, the run lock, the run context from git, then
 * the baselines: none on the base itself, else the base pass planned (plan.ts) and carried out
 * (execute.ts). The context is written here before the tests; a pass beside the tests rewrites it
 * when the runner's test list comes and at teardown (see run-context.ts publishRunContext).
 */

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
  let prepared: SetUp;
  try {
    prepared = await setup(config);
  } catch (error) {
    throw oneLine(error);
  }
  const releasesLock = !config.reporter.some(([name]) => isVisualUatReporter(name));
  return async () => {
    lap('tests');
    try {
      await prepared.afterRun();
    } catch (error) {
      throw oneLine(error);
    }
    // The reporter releases the lock after it has written the results; a run without it (a shard
    // with --reporter=blob) releases it here instead.
    if (releasesLock) releaseRunLock(prepared.outputDir);
    lap('after the tests');
  };
}

interface SetUp {
  outputDir: string;
  /** What must wait until the current tests are done (removing the base worktree). */
  afterRun: () => Promise<void>;
}

async function setup(config: FullConfig): Promise<SetUp> {
  lap('start (Playwright, config)');
  const started = Date.now();
  const configFile = config.configFile;
  if (!configFile) throw new SetupError('visual-uat: the run has no config file: put withVisualUat(...) in playwright.config.ts');
  // Before the baseline pass: without a browser both passes would fail every test with Playwright's launch error.
  const noChromium = missingChromium(config.projects.map((project) => project.use));
  if (noChromium) throw new SetupError(noChromium);
  const { options, configDir, outputDir, baselineStore } = resolveSettings(configFile);
  // The reporter judges with the approvals file after every test ran: one that does not read stops the run before them.
  readApprovals(configDir);
  // Before any test: a run nothing judges would pass with its changes unseen.
  const judgedBy = whoJudges(config);
  if (!judgedBy) throw new SetupError(ungatedRunError(config.reporter));
  prepareOutputDir(outputDir);
  ENV.outputDir.write(outputDir);
  const staleLock = acquireRunLock(outputDir);
  if (staleLock) say(`took over the lock of an earlier run (pid ${staleLock}) that is gone`);
  startTiming(outputDir);
  lap('settings, lock');
  try {
    return {
      outputDir,
      afterRun: await prepareBaselines(config, configFile, configDir, outputDir, baselineStore, options, judgedBy, started),
    };
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
  judgedBy: Judge,
  started: number,
): Promise<() => Promise<void>> {
  const repo = await openRepo(configDir);
  const testDirs = config.projects.map((project) => project.testDir);
  const { base, context } = await gitContext(repo, testDirs, options);
  clearCapturingTests(outputDir);
  lap('git');
  const { warning, ...access } = openStore(store, repo.root);
  if (warning) say(`warning: ${warning}`);
  if (access.writable) resumeLeftStoring(outputDir, store);
  const storeUse: StoreUse = { ...access, shown: shownPath(store) };

  const worktrees = worktreesHome(outputDir, repo.root);
  // Worktrees a killed run left behind (we hold the lock: no other run uses them); the one of this
  // base commit stays, the pass reuses it when it is clean.
  if (!options.keepWorktrees)
    for (const home of Object.values(worktreeHomes(outputDir)))
      await removeWorktreesIn(repo, home, home === worktrees ? worktreeName(base.commit) : null, (name) =>
        say(`removing the worktree ${name} left by an earlier run`),
      );
  const installed = versions(configFile);
  let prepared: Prepared;
  if (context.sameAsBase)
    prepared = onBase(context, planOnBase({ base, record: options.record, judgedBy, store: storeUse, playwright: installed.playwright }), {
      store,
      repoRoot: repo.root,
    });
  else {
    const place = workplaceOf({ configDir, outputDir, repo, base, store: storeUse, worktrees, options, started });
    const inputs = await resolvePassInputs(config, testDirs, configFile, judgedBy, installed, options.updateBaselines, place);
    prepared = await prepareBasePass(place, inputs, context);
  }
  publishRunContext(outputDir, prepared.context);
  lap('baselines');
  // worktreesHome made the home folder: a run that leaves nothing in it leaves no folder either,
  // nor the notes of the tests that captured, read by the top-up check by then.
  return async () => {
    try {
      await prepared.afterRun();
    } finally {
      clearCapturingTests(outputDir);
      removeEmptyHome(worktrees);
    }
  };
}

/** HEAD is the base: no pass; the reporter records the run's checkpoints into the store when the plan says so. */
function onBase(context: RunContext, plan: OnBasePlan, record: { store: string; repoRoot: string }): Prepared {
  for (const line of plan.lines) say(line);
  return { context: plan.records ? { ...context, record } : context, afterRun: async () => {} };
}

/**
 * What compares this run's checkpoints: visual-uat's reporter in this run, `merge-reports` of its
 * blobs later, or nothing: null (`--reporter=line` on the command line replaces the config's
 * reporters, visual-uat's among them: the setup stops such a run).
 */
function whoJudges(config: FullConfig): Judge | null {
  const reporters = config.reporter.map(([name]) => name);
  if (reporters.includes('blob')) return 'blobs';
  return reporters.some(isVisualUatReporter) ? 'reporter' : null;
}
