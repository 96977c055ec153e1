import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { outputPath, storeCommitDir } from '../config/paths';
import { provideWorktree } from '../git';
import { handDownEarlierRenders, readManifest, writeManifest, type EarlierRenders } from '../files/run-folder';
import type { BaselineTestRecord } from '../types';
import { subfolders, writeFileAtomic } from '../util/fs';
import { faultPoint } from '../config/fault-point';
import { timed } from '../config/timing';
import { plural } from '../util/text';
import { provideDependencies } from '../checkout/dependencies';
import { runBaselinePass, withoutShard, type BaselinePassOutcome } from './pass';
import { baseAppUnreachable } from './pass-failure';
import { manifestSelection, type BaselinePlan, type StoredTest, type TestLookup } from './plan';
import { unmovedOrigins } from './port-source';
import { say, shownPath } from '../util/output';
import type { PassInputs, Workplace } from './pass-scope';
import { listedFiles, listedTests, listingOf, listSuite, testListText, type ListedTest, type Listing } from './selection';
import { testSource, type KeyInputs, type RenderedTest } from '../store/key';
import { copyEntry, earlierRender, lookUp, readSeal, storedRecord, storeHolds } from '../store/entry';
import { isKeyName } from '../store/home';
import { mergeTopUp, testsWithoutBaseRecord } from './top-up';

/**
 * The steps of the base pass, each carrying out one part of a plan (see plan.ts) with the fields
 * of the Workplace and the PassInputs it uses (see pass-scope.ts): listing and looking up the
 * tests, the store's copies, the base checkout, the nested run, the top-up. execute.ts decides
 * which run and calls them; none calls back.
 */

export interface PassOutcome {
  /** Why the pass failed as a whole (a single base test that fails is recorded in the manifest, not here). */
  failure: string | null;
  /** Whether the pass checked the base out (Workplace.worktree), to be removed once the current tests are done. */
  checkedOut: boolean;
  /** The tests it rendered, keyed by their sources for the store (see baseline-store storeSuite). */
  rendered: RenderedTest[];
}

export const NO_PASS: PassOutcome = { failure: null, checkedOut: false, rendered: [] };

/** One nested run of the base pass: where it writes its logs and lists, the entry it writes, its arguments. */
export interface NestedRun {
  configFile: string;
  root: string;
  entry: string;
  args: string[];
}

/**
 * The listed tests, and those of them that can capture a checkpoint (see selection.ts). Null when
 * the listing failed: every test runs.
 */
export async function listCapturing(
  place: Pick<Workplace, 'outputDir' | 'graph'>,
  inputs: Pick<PassInputs, 'configFile' | 'args'>,
): Promise<Listing | null> {
  const logFile = outputPath(place.outputDir, 'baselineListLog');
  const report = await timed('listing', () =>
    listSuite({
      cli: createRequire(inputs.configFile).resolve('@playwright/test/cli'),
      configFile: inputs.configFile,
      args: inputs.args,
      outputFile: outputPath(place.outputDir, 'baselineTestsJson'),
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
  return { ...listingOf(listedTests(report), place.graph), files: listedFiles(report) };
}

/**
 * The store's look-up of each test the plan may render (`chosen`, see plan.ts chosenTests), and of each other test it holds with a
 * checkpoint (a cheap look at its seals first, before the sources of a test the scan leaves out
 * are hashed). Synchronous: a pass beside the tests chooses inside the reporter's onBegin.
 */
export function lookUpTests(
  place: Pick<Workplace, 'store' | 'base' | 'graph'>,
  chosen: ReadonlySet<ListedTest>,
  takesBaselines: boolean,
  inputs: (project: string) => KeyInputs,
  listing: Listing,
): Map<string, TestLookup> {
  const { store, base } = place;
  const lookups = new Map<string, TestLookup>();
  for (const test of listing.tests) {
    if (!chosen.has(test) && !(takesBaselines && storeHolds(store.dir, base.commit, test.key))) continue;
    const source = testSource(place.graph, test, inputs(test.project));
    lookups.set(test.key, {
      source,
      found: source && takesBaselines ? lookUp(store.dir, base.commit, test.key, source) : null,
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
export function handDown(place: Pick<Workplace, 'store' | 'base' | 'outputDir'>, render: readonly ListedTest[] | null): void {
  const renders: EarlierRenders = {};
  if (render && place.store.readable)
    for (const test of render) {
      const found = earlierRender(place.store.dir, place.base.commit, test.key);
      if (found) renders[test.key] = found;
    }
  handDownEarlierRenders(outputPath(place.outputDir, 'earlierRenders'), renders);
}

/**
 * The stored tests' baselines in the run's entry before the tests start, so their captures compare
 * with them as in a warm run: the whole entry when the plan renders none (every test that can
 * capture is in the store, or none can), else the tests a pass beside the tests renders are
 * pending until its entry moves in. Without a listing nothing is stored: the pass writes it all.
 */
export function placeStored(entry: string, plan: BaselinePlan): void {
  fs.rmSync(entry, { recursive: true, force: true });
  if (plan.render)
    writeManifest(entry, { complete: plan.render.length === 0, tests: copyStored(entry, plan.stored), selection: manifestSelection(plan) });
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
  place: Workplace,
  run: NestedRun,
  plan: BaselinePlan,
  storedCopied: boolean,
  early: Promise<BaseCheckout> | null = null,
  ahead: (() => Promise<BaselinePassOutcome>) | null = null,
): Promise<PassOutcome> {
  const { stored, render } = plan;
  let checkedOut = false;
  try {
    let testList: string | null = null;
    if (render && render.length < plan.listed!) {
      testList = outputPath(run.root, 'baselineTestList');
      writeFileAtomic(testList, testListText(render));
    }
    await timed('worktree', () => provideBase(place, `baseline pass (${plan.passReason})`, early));
    checkedOut = true;
    const outcome = await timed('base pass', () => ahead?.() ?? nestedPass(place, run, testList));
    if (outcome.error) return { failure: outcome.error, checkedOut, rendered: [] };
    const broken = baseAppUnreachable(outcome.manifest!);
    if (broken) return { failure: `the baseline pass failed: ${broken}`, checkedOut, rendered: [] };
    if (render) {
      const records = storedCopied ? storedRecords(stored) : copyStored(run.entry, stored);
      writeManifest(run.entry, {
        ...outcome.manifest!,
        tests: { ...records, ...outcome.manifest!.tests },
        selection: manifestSelection(plan),
      });
    }
    say(
      `baseline pass done: ${plural(Object.keys(outcome.manifest!.tests).length, 'test')} ` +
        `in ${((Date.now() - place.started) / 1000).toFixed(1)} s`,
    );
    return { failure: null, checkedOut, rendered: plan.sources };
  } catch (error) {
    return { failure: (error as Error).message.replace(/^visual-uat: /, ''), checkedOut, rendered: [] };
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

export interface ToppedUp {
  /** Whether the base is checked out (Workplace.worktree), to be removed afterwards. */
  checkedOut: boolean;
  /** The tests it rendered for the store (their sources read before the pass runs them, as the main pass's are). */
  rendered: RenderedTest[];
  /** The tests that joined the entry (see RunContext.toppedUp); null when no top-up pass ran to the end. */
  added: string[] | null;
}

/**
 * The check of the selection, once the current tests are done: each test that took a checkpoint
 * in this run and has no record in the base entry runs on the base now, and joins the entry.
 */
export async function topUp(
  place: Workplace,
  inputs: Pick<PassInputs, 'configFile' | 'rootDir' | 'entry' | 'args' | 'keyInputs'>,
  checkedOut: boolean,
): Promise<ToppedUp> {
  const { outputDir } = place;
  const entry = readManifest(inputs.entry);
  const missed = testsWithoutBaseRecord(outputDir, entry);
  const none: ToppedUp = { checkedOut, rendered: [], added: null };
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
  let checkout = checkedOut;
  try {
    if (checkedOut) say(why);
    else await provideBase(place, why);
    checkout = true;
    const keyInputs = await inputs.keyInputs();
    const rendered = missed.flatMap(({ key, project, relativeFile, line, column }) => {
      const source = testSource(place.graph, { file: path.resolve(inputs.rootDir, relativeFile), line, column }, keyInputs(project));
      return source ? [{ key, source }] : [];
    });
    const list = outputPath(outputDir, 'topUpTestList');
    writeFileAtomic(list, testListText(missed));
    const topUpDir = outputPath(outputDir, 'topUpEntry');
    const outcome = await nestedPass(place, { configFile: inputs.configFile, root: outputDir, entry: topUpDir, args: inputs.args }, list);
    if (outcome.error) {
      say(`warning: ${outcome.error}; those checkpoints stay new`);
      return { ...none, checkedOut: checkout };
    }
    const merged = mergeTopUp(entry, inputs.entry, outcome.manifest!, topUpDir);
    writeManifest(inputs.entry, merged.manifest);
    fs.rmSync(topUpDir, { recursive: true, force: true });
    say(`top-up pass done: ${plural(merged.added.length, 'test')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { checkedOut: checkout, rendered, added: merged.added };
  } catch (error) {
    say(`warning: the top-up pass failed: ${(error as Error).message.replace(/^visual-uat: /, '')}; those checkpoints stay new`);
    return { ...none, checkedOut: checkout };
  }
}

/** The base commit checked out in Workplace.worktree with its dependencies, and how (its lines are said by the pass that uses it). */
export interface BaseCheckout {
  how: 'reused' | 'created';
  dependencies: string;
}

type CheckoutPlace = Pick<Workplace, 'repo' | 'base' | 'worktree' | 'configDir'>;

/**
 * Checks the base out (see provideBase). `checkedOut` is told as soon as the worktree is there,
 * before the dependencies, which may take an install.
 */
export async function checkOutBase(place: CheckoutPlace, checkedOut: (how: BaseCheckout['how']) => void = () => {}) {
  const { repo, worktree, base } = place;
  const how = await provideWorktree(repo, worktree, base.commit);
  faultPoint('worktree');
  checkedOut(how);
  const { detail } = await provideDependencies(repo, worktree, place.configDir, base.commit);
  faultPoint('dependencies');
  return { how, dependencies: detail } satisfies BaseCheckout;
}

/** A checkout made ahead of the pass that may not use it (see plan.ts checkoutEarly): its failure is said when it is used. */
export function checkOutEarly(place: CheckoutPlace): Promise<BaseCheckout> {
  const early = checkOutBase(place);
  early.catch(() => {});
  return early;
}

/** The base checkout with its dependencies, created or reused (or made early, while the tests were listed). */
async function provideBase(place: Workplace, why: string, early: Promise<BaseCheckout> | null = null): Promise<void> {
  const { base, worktree } = place;
  const said = (how: BaseCheckout['how']) =>
    say(`${why}: ${base.branch} @ ${base.commit.slice(0, 8)} in ${how === 'reused' ? 'the kept worktree ' : ''}${shownPath(worktree)}`);
  const checkout = early ? await early : await checkOutBase(place, said);
  if (early) said(checkout.how);
  say(`base dependencies: ${checkout.dependencies}`);
  for (const warning of unmovedOrigins(path.join(worktree, path.relative(place.repo.root, place.configDir)), place.servers))
    say(`warning: ${warning}`);
}

export function nestedPass(place: Workplace, run: NestedRun, testList: string | null, env?: NodeJS.ProcessEnv) {
  return runBaselinePass({
    configFile: run.configFile,
    configDir: place.configDir,
    repoRoot: place.repo.root,
    worktree: place.worktree,
    outputDir: run.root,
    baselineDir: run.entry,
    args: testList ? [...withoutShard(run.args), '--test-list', testList] : run.args,
    logFile: outputPath(run.root, 'baselineLog'),
    servers: place.servers,
    env,
  });
}
