import path from 'node:path';
import type { FullConfig, FullResult, Suite } from '@playwright/test/reporter';
import { readApprovals } from '../approve';
import { releaseRunLock } from '../baseline/lock';
import { changedPath } from '../baseline/app-files';
import { forgetSuite } from '../store/prune';
import { optionsFromEnv, resolveSettings, type Settings } from '../config/settings';
import { createEvaluator, EvaluatorConfigError, type Evaluator } from '../evaluate';
import { readEvalRecord } from '../trust/eval-record';
import { codeChanges, openRepo } from '../git';
import { readRunContext, openRunFolder } from '../files/run-folder';
import type { RunContext, VisualUatOptions } from '../types';
import type { CodeChange } from '../git/code-change';
import { faultPoint } from '../config/fault-point';
import { isMergeReports } from '../config/reporters';
import { lap, timed, timingReport } from '../config/timing';
import { APPROVALS_FILE } from '../files/approvals-file';
import { plural } from '../util/text';
import { annotate, failTest } from './annotate';
import { collectTests, runContextOf } from './collect';
import { failingCheckpoints } from './decide';
import { baselineHome, placeImages } from './place';
import { htmlReportPath, printSummary } from './print';
import { printLine, printWarning } from '../util/output';
import { buildRunResult, NO_USAGE, writeRunResult } from './results';
import { judgeRun, type RunOutcome } from './run';
import { recordBaselines } from './record-baselines';
import { sameAppWarning } from './sanity';

export type EndResult = { status?: FullResult['status'] } | undefined;

/**
 * The end of a current run (see reporter.ts): collect the checkpoints from the results, put their
 * images in place, judge the run (run.ts), then the side effects: annotations and attachments
 * (before the HTML reporter builds its report), the results file, the summary, the exit status.
 */
export async function endRun(config: FullConfig, suite: Suite, options: VisualUatOptions): Promise<EndResult> {
  lap('global teardown');
  const settings = resolveSettings(config.configFile ?? null, { ...optionsFromEnv(), ...options });
  try {
    const ended = await judgeAndReport(config, suite, settings);
    const timing = timingReport(settings.outputDir);
    if (timing) printWarning(timing);
    return ended;
  } catch (error) {
    // merge-reports prints nothing of a reporter's error: the run would fail without a reason.
    printWarning(`visual-uat: the reporter could not finish the run's results: ${(error as Error).message}`);
    throw error;
  } finally {
    releaseRunLock(settings.outputDir);
  }
}

async function judgeAndReport(config: FullConfig, suite: Suite, settings: Settings): Promise<EndResult> {
  const fromBlob = isMergeReports();
  const allTests = suite.allTests();
  const runContext = runContextOf(allTests, readRunContext());
  const collected = collectTests(allTests, runContext, openRunFolder(runContext));
  lap('collect');
  // No test ran (a setup that stopped the run says why itself). Tests that ran and took no
  // checkpoint (a grep for functional tests) get results that say so: the last run's would be stale.
  if (collected.tests.length === 0 && !allTests.some((test) => test.results.length > 0)) return undefined;
  const home = baselineHome(collected.context, settings.outputDir, fromBlob);
  const context = collected.context && home ? { ...collected.context, baselineDir: home } : collected.context;
  const tests = placeImages(collected.tests, settings.outputDir, home, fromBlob);
  faultPoint('reporter');
  lap('place images');
  if (context?.record && !fromBlob && settings.configFile)
    printLine(await recordBaselines(tests, allTests, context, config, settings.configFile));

  const { evaluator, evaluatorProblem } = openEvaluator(settings);
  const evalRecord = evaluator?.autoApprove ? readEvalRecord(settings.outputDir, evaluator.model) : null;
  // Read on first need, once: a run whose checkpoints all match never reads them.
  let diffs: Promise<CodeChange[]> | null = null;
  const code = () => (diffs ??= timed('branch diffs', () => branchChanges(context, settings.configDir)));
  const runOutcome = await judgeRun({
    tests,
    context,
    settings,
    approvals: readApprovals(settings.configDir),
    evaluator,
    evaluatorProblem,
    evalRecord,
    code,
  });

  if (runOutcome.baselineUnreadable && context?.suiteIndex) {
    forgetSuite(context.suiteIndex);
    printWarning(
      `visual-uat: a baseline image of this suite in the baseline store is unreadable: the suite's store entries are dropped, ` +
        `the next run renders its tests on the base again`,
    );
  }
  const sameApp = sameAppWarning(context, runOutcome.compared);
  if (sameApp) printWarning(sameApp);
  for (const outcome of runOutcome.outcomes) {
    annotate(outcome);
    failTest(outcome, failingCheckpoints(outcome.checkpoints, settings.options.failOn));
  }
  lap('annotate');
  const run = buildRunResult(runOutcome.outcomes, runOutcome.groups, context, settings, evaluator?.usage() ?? NO_USAGE);
  const { latest } = writeRunResult(settings.outputDir, run);
  lap('results');
  const onBase = context?.sameAsBase && context.baseCommit ? `${context.baseBranch} @ ${context.baseCommit.slice(0, 8)}` : null;
  printSummary(run, {
    results: path.relative(process.cwd(), latest),
    report: htmlReportPath(config, settings.configDir),
    approvals: runOutcome.approvals,
    onBase,
  });
  if (evaluator && runOutcome.judged > 0) printLine(evaluator.summary());
  lap('summary');
  return exitStatus(runOutcome, settings);
}

/**
 * What the branch changed in the app's files, commit by commit, for the explanations'
 * attribution. A repository that cannot be read is said once; the explanations then name no cause.
 */
async function branchChanges(context: RunContext | null, dir: string): Promise<CodeChange[]> {
  if (!context || context.sameAsBase || !context.baseCommit) return [];
  const files = context.appFilesChanged.length ? context.appFilesChanged : context.changedFiles.map(changedPath);
  try {
    return await codeChanges(await openRepo(dir), context.baseCommit, files);
  } catch (error) {
    printWarning(
      `visual-uat: the branch's diffs could not be read (${(error as Error).message.split('\n')[0]}): the explanations name no commit`,
    );
    return [];
  }
}

/**
 * The evaluator from the reporter's options (the only place the API key may be given besides
 * OPENAI_API_KEY). One that cannot be made (an invalid option, the openai package missing) is
 * reported once, and its problem becomes the reason of each change it would have judged.
 */
function openEvaluator(settings: Settings): { evaluator: Evaluator | null; evaluatorProblem: string | null } {
  try {
    return {
      evaluator: createEvaluator(settings.options.evaluator, process.env, { outputDir: settings.outputDir, configDir: settings.configDir }),
      evaluatorProblem: null,
    };
  } catch (error) {
    if (!(error instanceof EvaluatorConfigError)) throw error;
    printWarning(`${error.message}: changed checkpoints are left for review`);
    return { evaluator: null, evaluatorProblem: error.message.replace(/^visual-uat: /, '') };
  }
}

function exitStatus(runOutcome: RunOutcome, settings: Settings): EndResult {
  const { failOn } = settings.options;
  const hit = failingCheckpoints(
    runOutcome.outcomes.flatMap((outcome) => outcome.checkpoints),
    failOn,
  );
  if (hit.length === 0) return undefined;
  const what = failOn.includes('signals') ? 'with a status or a new signal in failOn' : 'with a status in failOn';
  const unreviewed = hit.some((checkpoint) => checkpoint.status === 'needs_review' || checkpoint.status === 'regression');
  const settle = unreviewed
    ? `: approve the intended changes with npx visual-uat review (or npx visual-uat approve --all), commit ${APPROVALS_FILE}, and run again`
    : '';
  const message = `visual-uat: ${plural(hit.length, 'checkpoint')} ${what} (${failOn.join(', ')})${settle}`;
  // merge-reports ignores a returned status; only a throw makes it exit 1.
  if (isMergeReports()) throw new Error(message);
  printWarning(message);
  return { status: 'failed' };
}
