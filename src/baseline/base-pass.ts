import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { outputPath, storeCommitDir, worktreeName } from '../config/paths';
import { provideWorktree } from '../git';
import { SetupError } from '../util/errors';
import { handDownEarlierRenders, readManifest, writeManifest, type EarlierRenders } from '../files/run-folder';
import type { BaselineTestRecord } from '../types';
import { subfolders, writeFileAtomic } from '../util/fs';
import { faultPoint } from '../config/fault-point';
import { timed } from '../config/timing';
import { plural } from '../util/text';
import { provideDependencies } from '../checkout/dependencies';
import { runBaselinePass, withoutShard, type BaselinePassOutcome } from './pass';
import { baseAppUnreachable } from './pass-failure';
import { chosenTests, manifestSelection, type BaselinePlan, type StoredTest, type TestLookup } from './plan';
import { unmovedOrigins } from './port-source';
import { say, shownPath } from '../util/output';
import type { PassScope } from './pass-scope';
import { listedFiles, listedTests, listingOf, listSuite, testListText, type Listing } from './selection';
import { testSource, type KeyInputs, type RenderedTest } from '../store/key';
import { copyEntry, earlierRender, lookUp, readSeal, storedRecord, storeHolds } from '../store/entry';
import { resumeStoring, type SuiteStored } from '../store/journal';
import { sizeText, storeSize } from '../store/prune';
import { isKeyName, STORE_OPTION } from '../store/home';
import { mergeTopUp, testsWithoutBaseRecord } from './top-up';

/**
 * The steps of the base pass, each carrying out one part of a plan (see plan.ts) within a scope:
 * listing and looking up the tests, the base checkout, the nested run, the store's copies, the
 * top-up and the line that says what the store took.
 */

export interface PassOutcome {
  /** Why the pass failed as a whole (a single base test that fails is recorded in the manifest, not here). */
  failure: string | null;
  /** The base worktree the pass used, to be removed once the current tests are done. */
  worktree: string | null;
  /** The tests it rendered, keyed by their sources for the store (see baseline-store storeSuite). */
  rendered: RenderedTest[];
}

export const NO_PASS: PassOutcome = { failure: null, worktree: null, rendered: [] };

/**
 * The listed tests, and those of them that can capture a checkpoint (see selection.ts). Null when
 * the listing failed: every test runs.
 */
export async function listCapturing(scope: PassScope): Promise<Listing | null> {
  const logFile = outputPath(scope.root, 'baselineListLog');
  const report = await timed('listing', () =>
    listSuite({
      cli: createRequire(scope.configFile).resolve('@playwright/test/cli'),
      configFile: scope.configFile,
      args: scope.args,
      outputFile: outputPath(scope.root, 'baselineTestsJson'),
      logFile,
      env: process.env,
    }),
  );
  if (!report) {
    say(
      `warning: could not list the tests to choose those with checkpoints (see ${path.relative(process.cwd(), logFile)}): ` +
        `the baseline pass runs them all, and the baseline store is not read`,
    );
    return null;
  }
  return { ...listingOf(listedTests(report), scope.suite.graph), files: listedFiles(report) };
}

/**
 * The store's look-up of each test the plan may render, and of each other test it holds with a
 * checkpoint (a cheap look at its seals first, before the sources of a test the scan leaves out
 * are hashed). Synchronous: a pass beside the tests chooses inside the reporter's onBegin.
 */
export function lookUpTests(
  scope: PassScope,
  takesBaselines: boolean,
  inputs: (project: string) => KeyInputs,
  listing: Listing,
): Map<string, TestLookup> {
  const chosen = chosenTests(listing, scope.judgedBy);
  const lookups = new Map<string, TestLookup>();
  for (const test of listing.tests) {
    if (!chosen.has(test) && !(takesBaselines && storeHolds(scope.store.dir, scope.base.commit, test.key))) continue;
    const source = testSource(scope.suite.graph, test, inputs(test.project));
    lookups.set(test.key, {
      source,
      found: source && takesBaselines ? lookUp(scope.store.dir, scope.base.commit, test.key, source) : null,
    });
  }
  return lookups;
}

/**
 * Whether the store holds, at the base commit, an entry a selection could use as far as its seal
 * says: with checkpoints, keyed by its test's sources (one a record run noted without checkpoints
 * or one kept for a suite only gives no test of this run).
 */
export function storeOffersBase(store: string, baseCommit: string): boolean {
  const commitDir = storeCommitDir(store, baseCommit);
  return subfolders(commitDir)
    .filter(isKeyName)
    .some((test) =>
      subfolders(path.join(commitDir, test))
        .filter(isKeyName)
        .some((version) => {
          const seal = readSeal(path.join(commitDir, test, version));
          return !!seal && !seal.suite && seal.checkpoints.length > 0;
        }),
    );
}

/** The tests the pass renders again had earlier renders in the store, which the captures on both sides may read (see earlierRender). */
export function handDown(scope: PassScope, plan: BaselinePlan): void {
  const renders: EarlierRenders = {};
  if (plan.render && scope.store.readable)
    for (const test of plan.render) {
      const found = earlierRender(scope.store.dir, scope.base.commit, test.key);
      if (found) renders[test.key] = found;
    }
  handDownEarlierRenders(outputPath(scope.outputDir, 'earlierRenders'), renders);
}

/** Every test that can capture is in the store (or none can): the entry is made of copies, with no worktree and no base server. */
export function fillFromStore(scope: PassScope, plan: BaselinePlan): PassOutcome {
  fs.rmSync(scope.entry, { recursive: true, force: true });
  writeManifest(scope.entry, { complete: true, tests: copyStored(scope.entry, plan.stored), selection: manifestSelection(plan) });
  return NO_PASS;
}

/**
 * Runs the baseline pass into the run's baseline entry: the plan's tests (all
 * without a listing), and the stored ones' records beside them. `storedCopied`: the stored tests'
 * images are already in the run's entry (a pass beside the tests writes its own, moved in after);
 * else they are copied into this entry once the nested run, which starts it afresh, is done.
 * `early`: the base checkout made while the tests were listed (else it is made here); `ahead`: the
 * nested run started then, which runs the plan's tests once told (see pass-ahead.ts).
 */
export async function renderOnBase(
  scope: PassScope,
  plan: BaselinePlan,
  storedCopied: boolean,
  early: Promise<BaseCheckout> | null = null,
  ahead: (() => Promise<BaselinePassOutcome>) | null = null,
): Promise<PassOutcome> {
  const { stored, render } = plan;
  let worktree: string | null = null;
  try {
    let testList: string | null = null;
    if (render && render.length < plan.listed!) {
      testList = outputPath(scope.root, 'baselineTestList');
      writeFileAtomic(testList, testListText(render));
    }
    worktree = await timed('worktree', () => provideBase(scope, `baseline pass (${plan.passReason})`, early));
    const outcome = await timed('base pass', () => ahead?.() ?? nestedPass(scope, worktree!, scope.entry, testList));
    if (outcome.error) return { failure: outcome.error, worktree, rendered: [] };
    const broken = baseAppUnreachable(outcome.manifest!);
    if (broken) return { failure: `the baseline pass failed: ${broken}`, worktree, rendered: [] };
    if (render) {
      const records = storedCopied ? storedRecords(stored) : copyStored(scope.entry, stored);
      writeManifest(scope.entry, {
        ...outcome.manifest!,
        tests: { ...records, ...outcome.manifest!.tests },
        selection: manifestSelection(plan),
      });
    }
    say(
      `baseline pass done: ${plural(Object.keys(outcome.manifest!.tests).length, 'test')} ` +
        `in ${((Date.now() - scope.started) / 1000).toFixed(1)} s`,
    );
    return { failure: null, worktree, rendered: plan.sources };
  } catch (error) {
    return { failure: (error as Error).message.replace(/^visual-uat: /, ''), worktree, rendered: [] };
  }
}

/** Copies the stored tests into the run's entry; their manifest records. */
export function copyStored(entry: string, stored: readonly StoredTest[]): Record<string, BaselineTestRecord> {
  for (const { test, entry: from, checkpoints } of stored) copyEntry(from, checkpoints, entry, test.folder);
  return storedRecords(stored);
}

function storedRecords(stored: readonly StoredTest[]): Record<string, BaselineTestRecord> {
  return Object.fromEntries(
    stored.map(({ test, checkpoints, source, layouts }) => [test.key, storedRecord(test.folder, checkpoints, source, layouts)]),
  );
}

/**
 * A baseline pass that failed as a whole stops the run before the current tests: every
 * checkpoint would be `new` and the run green with nothing compared. allowMissingBaselines opts
 * in to going on with a warning; the error then becomes every checkpoint's reason.
 */
export function stopOrWarn(failure: string, allowMissingBaselines: boolean, logFile: string): string {
  const where = `see ${path.relative(process.cwd(), logFile) || logFile}`;
  if (!allowMissingBaselines)
    throw new SetupError(
      `visual-uat: ${failure}; ${where}. Nothing was compared, so the run stops ` +
        `(to run anyway with every checkpoint new: allowMissingBaselines: true or VISUAL_UAT_ALLOW_MISSING_BASELINES=1)`,
    );
  say(`warning: ${failure}; ${where}. allowMissingBaselines is set: every checkpoint will be new`);
  return failure;
}

/**
 * The line that says what the store took once the current tests were done (see baseline-store
 * storeSuite): a write that failed is said in one line and ended the storing; the run's verdicts
 * do not depend on it.
 */
export function logStored(stored: SuiteStored, store: string, baseCommit: string): void {
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

/** A run killed while it stored what its pass rendered left those tests to this one (see baseline-store resumeStoring). */
export function resumeLeftStoring(outputDir: string, store: string): void {
  const resumed = resumeStoring(outputPath(outputDir, 'storing'), store);
  if (resumed && 'problem' in resumed) say(`the tests a killed run left to store are not stored: ${resumed.problem}`);
  else if (resumed?.stored) logStored(resumed.stored, store, resumed.baseCommit);
}

export interface ToppedUp {
  /** The worktree to remove afterwards. */
  worktree: string | null;
  /** The tests it rendered for the store (their sources read before the pass runs them, as the main pass's are). */
  rendered: RenderedTest[];
  /** The tests that joined the entry (see RunContext.toppedUp); null when no top-up pass ran to the end. */
  added: string[] | null;
}

/**
 * The check of the selection, once the current tests are done: each test that took a checkpoint
 * in this run and has no record in the base entry runs on the base now, and joins the entry.
 */
export async function topUp(scope: PassScope, worktree: string | null): Promise<ToppedUp> {
  const entry = readManifest(scope.entry);
  const missed = testsWithoutBaseRecord(scope.outputDir, entry);
  const none: ToppedUp = { worktree, rendered: [], added: null };
  if (missed.length === 0 || !entry) return none;
  const started = Date.now();
  const names = missed
    .slice(0, 3)
    .map((test) => test.titlePath.join(' › '))
    .join(', ');
  const why =
    `top-up pass: ${plural(missed.length, 'test')} took a checkpoint but did not run on the base ` +
    `(${names}${missed.length > 3 ? ', …' : ''}): ` +
    `the scan of their sources missed the capture`;
  let base = worktree;
  try {
    base ??= await provideBase(scope, why);
    if (worktree) say(why);
    const inputs = await scope.keyInputs();
    const rendered = missed.flatMap(({ key, project, relativeFile, line, column }) => {
      const source = testSource(
        scope.suite.graph,
        { file: path.resolve(scope.config.rootDir, relativeFile), line, column },
        inputs(project),
      );
      return source ? [{ key, source }] : [];
    });
    const list = outputPath(scope.outputDir, 'topUpTestList');
    writeFileAtomic(list, testListText(missed));
    const topUpDir = outputPath(scope.outputDir, 'topUpEntry');
    const outcome = await nestedPass(scope, base, topUpDir, list);
    if (outcome.error) {
      say(`warning: ${outcome.error}; those checkpoints stay new`);
      return { ...none, worktree: base };
    }
    const merged = mergeTopUp(entry, scope.entry, outcome.manifest!, topUpDir);
    writeManifest(scope.entry, merged.manifest);
    fs.rmSync(topUpDir, { recursive: true, force: true });
    say(`top-up pass done: ${plural(merged.added.length, 'test')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { worktree: base, rendered, added: merged.added };
  } catch (error) {
    say(`warning: the top-up pass failed: ${(error as Error).message.replace(/^visual-uat: /, '')}; those checkpoints stay new`);
    return { ...none, worktree: base };
  }
}

/** The base commit checked out in a worktree with its dependencies, and how (its lines are said by the pass that uses it). */
export interface BaseCheckout {
  worktree: string;
  how: 'reused' | 'created';
  dependencies: string;
}

/**
 * Checks the base out (see provideBase). `checkedOut` is told as soon as the worktree is there,
 * before the dependencies, which may take an install.
 */
export async function checkOutBase(scope: PassScope, checkedOut: (checkout: Pick<BaseCheckout, 'worktree' | 'how'>) => void = () => {}) {
  const worktree = path.join(scope.worktrees, worktreeName(scope.base.commit));
  const how = await provideWorktree(scope.repo, worktree, scope.base.commit);
  faultPoint('worktree');
  checkedOut({ worktree, how });
  const { detail } = await provideDependencies(scope.repo, worktree, scope.configDir, scope.base.commit);
  faultPoint('dependencies');
  return { worktree, how, dependencies: detail } satisfies BaseCheckout;
}

/** A checkout made ahead of the pass that may not use it (see plan.ts checkoutEarly): its failure is said when it is used. */
export function checkOutEarly(scope: PassScope): Promise<BaseCheckout> {
  const early = checkOutBase(scope);
  early.catch(() => {});
  return early;
}

/** The base checkout with its dependencies, created or reused (or made early, while the tests were listed). */
async function provideBase(scope: PassScope, why: string, early: Promise<BaseCheckout> | null = null): Promise<string> {
  const said = ({ worktree, how }: Pick<BaseCheckout, 'worktree' | 'how'>) =>
    say(
      `${why}: ${scope.base.branch} @ ${scope.base.commit.slice(0, 8)} in ${how === 'reused' ? 'the kept worktree ' : ''}${shownPath(worktree)}`,
    );
  const checkout = early ? await early : await checkOutBase(scope, said);
  if (early) said(checkout);
  say(`base dependencies: ${checkout.dependencies}`);
  const { worktree } = checkout;
  for (const warning of unmovedOrigins(path.join(worktree, path.relative(scope.repo.root, scope.configDir)), scope.servers))
    say(`warning: ${warning}`);
  return worktree;
}

export function nestedPass(scope: PassScope, worktree: string, baselineDir: string, testList: string | null, env?: NodeJS.ProcessEnv) {
  return runBaselinePass({
    configFile: scope.configFile,
    configDir: scope.configDir,
    repoRoot: scope.repo.root,
    worktree,
    outputDir: scope.root,
    baselineDir,
    args: testList ? [...withoutShard(scope.args), '--test-list', testList] : scope.args,
    logFile: outputPath(scope.root, 'baselineLog'),
    servers: scope.servers,
    env,
  });
}
