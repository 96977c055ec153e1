import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import { IMAGE_PREFIX, TEST_META_ATTACHMENT, type TestMeta } from '../capture';
import {
  BASELINE_DIR_ENV,
  CONTEXT_FILE_ENV,
  OUTPUT_DIR_ENV,
  baselinesRoot,
  currentScreenshotsDir,
  diffsDir,
  manifestPath,
  testFolder,
  testKey,
} from '../config/layout';
import { optionsFromEnv, resolveOptions, type ResolvedOptions } from '../config/options';
import { createEvaluator, EvaluatorConfigError, type Evaluator } from '../evaluate';
import type { BaselineManifest, RunContext, VisualUatOptions } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';
import { readApprovals } from '../approve';
import { annotate } from './annotate';
import { applyApprovals } from './approvals';
import { collectTests, type CollectedTest } from './collect';
import { buildRunResult, writeRunResult, type EvaluatorUsage, type TestOutcome } from './results';
import { htmlReportPath, printSummary } from './summary';
import { comparePair, failingCheckpoints, judgeChanged, testStatus, type CheckpointVerdict } from './verdicts';
import { invalidateEntry } from '../baseline/store';
import { releaseRunLock } from '../baseline/lock';
import { faultPoint } from '../util/process';

export interface ReporterOptions extends VisualUatOptions {
  /** Internal: the nested baseline pass records a manifest instead of comparing. */
  role?: 'baseline';
}

function isMergeReports(): boolean {
  return process.argv.includes('merge-reports');
}

/**
 * Pairs each test's checkpoints with the baseline, compares them, writes the verdicts into the
 * tests' annotations and attachments (before the HTML reporter builds its report) and stores the
 * results file. Listed first by withVisualUat; usable alone as ['visual-uat/reporter', options].
 */
export class VisualUatReporter implements Reporter {
  private config!: FullConfig;
  private suite!: Suite;
  private readonly options: ReporterOptions;
  private readonly globalErrors: string[] = [];

  constructor(options: ReporterOptions = {}) {
    this.options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  /** Errors outside any test (a web server that does not start, a broken global setup). */
  onError(error: TestError): void {
    this.globalErrors.push(error.message ?? error.value ?? 'unknown error');
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.suite = suite;
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.options.role === 'baseline') {
      this.writeBaselineManifest(result);
      return undefined;
    }
    const options = resolveOptions({ ...optionsFromEnv(), ...this.options });
    const configDir = this.config.configFile ? path.dirname(this.config.configFile) : process.cwd();
    const outputDir = process.env[OUTPUT_DIR_ENV] ?? path.resolve(configDir, options.outputDir);
    try {
      return await this.judgeRun(options, configDir, outputDir);
    } finally {
      releaseRunLock(outputDir);
    }
  }

  private async judgeRun(options: ResolvedOptions, configDir: string, outputDir: string): Promise<{ status?: FullResult['status'] } | undefined> {
    const contextFile = process.env[CONTEXT_FILE_ENV];
    const fallbackContext = contextFile ? readJsonFile<RunContext>(contextFile) : null;
    const collected = collectTests(this.suite.allTests(), fallbackContext);
    if (collected.length === 0) return undefined;
    collected.forEach((test) => materialise(test, outputDir, isMergeReports()));
    faultPoint('reporter');

    // The compare pool bounds how many pairs are decoded at once.
    const compared = await Promise.all(
      collected.map(async (test) => ({
        test,
        checkpoints: await Promise.all(test.pairs.map((pair) => comparePair(test, pair, options, diffsDir(outputDir)))),
      })),
    );
    dropUnreadableBaselines(compared);
    const approvals = applyApprovals(compared, readApprovals(configDir));
    const evaluator = openEvaluator(options, outputDir, configDir);
    const judged = evaluator ? await judgeChanged(compared, evaluator) : 0;
    const outcomes: TestOutcome[] = compared.map(({ test, checkpoints }) => {
      checkpoints.forEach((verdict) => annotate(test.test, test.result, verdict));
      return { test, status: testStatus(test, checkpoints), checkpoints };
    });
    const context = collected.find((test) => test.context)?.context ?? fallbackContext;
    const usage: EvaluatorUsage = evaluator?.usage() ?? { model: null, calls: 0, cacheHits: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUSD: 0 };
    const run = buildRunResult(outcomes, context, options, usage, outputDir, configDir);
    const { latest } = writeRunResult(outputDir, run);
    printSummary(run, { results: path.relative(process.cwd(), latest), report: htmlReportPath(this.config, configDir), approvals });
    if (evaluator && judged > 0) process.stdout.write(`${evaluator.summary()}\n`);
    return this.exitStatus(outcomes, options);
  }

  private exitStatus(outcomes: TestOutcome[], options: ResolvedOptions): { status?: FullResult['status'] } | undefined {
    const hit = failingCheckpoints(outcomes.flatMap((o) => o.checkpoints), options.failOn);
    if (hit.length === 0) return undefined;
    const what = options.failOn.includes('signals') ? 'with a status or a new signal in failOn' : 'with a status in failOn';
    const message = `visual-uat: ${hit.length} checkpoint${hit.length === 1 ? '' : 's'} ${what} (${options.failOn.join(', ')})`;
    // merge-reports ignores a returned status; only a throw makes it exit 1.
    if (isMergeReports()) throw new Error(message);
    console.error(message);
    return { status: 'failed' };
  }

  private writeBaselineManifest(result: FullResult): void {
    const baselineDir = process.env[BASELINE_DIR_ENV];
    if (!baselineDir) return;
    const tests: BaselineManifest['tests'] = {};
    for (const test of this.suite.allTests()) {
      const last = test.results[test.results.length - 1];
      if (!last) continue;
      const metaAttachment = last.attachments.find((a) => a.name === TEST_META_ATTACHMENT);
      const meta = metaAttachment?.body ? (JSON.parse(metaAttachment.body.toString('utf8')) as TestMeta) : null;
      const project = test.parent.project()?.name ?? '';
      const key = meta?.key ?? testKey(project, test.titlePath().slice(2));
      tests[key] = {
        folder: meta?.folder ?? testFolder(project, test.titlePath().slice(2)),
        status: last.status,
        error: last.errors.map((error) => error.message ?? error.value ?? '').filter(Boolean).join('\n') || null,
        checkpoints: last.attachments.filter((a) => a.name.startsWith(IMAGE_PREFIX)).map((a) => a.name.slice(IMAGE_PREFIX.length)),
      };
    }
    // A pass that failed outside its tests (the base app did not start) produced no baselines to trust.
    const manifest: BaselineManifest = { complete: result.status !== 'interrupted' && this.globalErrors.length === 0, tests };
    writeFileAtomic(manifestPath(baselineDir), JSON.stringify(manifest, null, 2));
  }
}

/**
 * The evaluator from the reporter's options (the only place the API key may be given besides
 * OPENAI_API_KEY). An invalid option is reported and the run goes on without one.
 */
function openEvaluator(options: ResolvedOptions, outputDir: string, configDir: string): Evaluator | null {
  try {
    return createEvaluator(options.evaluator, process.env, { outputDir, configDir });
  } catch (error) {
    if (!(error instanceof EvaluatorConfigError)) throw error;
    console.error(`${error.message}: changed checkpoints are left for review`);
    return null;
  }
}

function dropUnreadableBaselines(compared: { test: CollectedTest; checkpoints: CheckpointVerdict[] }[]): void {
  const entries = new Set(compared.filter(({ checkpoints }) => checkpoints.some((c) => c.baselineUnreadable)).map(({ test }) => test.context?.baselineDir));
  for (const entry of entries) {
    if (!entry) continue;
    invalidateEntry(entry);
    console.error(`visual-uat: a cached baseline image in ${entry} is unreadable: that cache entry is dropped, the next run captures the baselines again`);
  }
}

/**
 * Points each pair at the image's home under the output folder. Playwright copies attachments
 * into test-results/ (wiped by the next run) and merge-reports extracts them into a temporary
 * folder: the results file must name paths that keep opening.
 */
function materialise(test: CollectedTest, outputDir: string, fromBlob: boolean): void {
  const baseCommit = test.context?.baseCommit;
  // Merged blobs come from other machines: their images get a home of their own here.
  const baselineDir = !baseCommit ? null : fromBlob ? path.join(baselinesRoot(outputDir), baseCommit, 'merged') : test.context!.baselineDir;
  for (const pair of test.pairs) {
    if (pair.current) pair.current = homeOf(pair.current, path.join(currentScreenshotsDir(outputDir), test.folder, `${pair.name}.png`), fromBlob);
    if (pair.baseline && baselineDir) pair.baseline = homeOf(pair.baseline, path.join(baselineDir, test.folder, `${pair.name}.png`), fromBlob);
  }
  if (test.context && baselineDir) test.context = { ...test.context, baselineDir };
}

function homeOf(attachment: string, home: string, fromBlob: boolean): string {
  if (path.resolve(attachment) === path.resolve(home)) return home;
  if (!fromBlob && fs.existsSync(home)) return home;
  return copyInto(attachment, home);
}

function copyInto(source: string, target: string): string {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(source, target);
  return target;
}

