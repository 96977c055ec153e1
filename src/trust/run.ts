import fs from 'node:fs';
import path from 'node:path';
import { readLabels } from '../approve';
import { outputPath } from '../config/paths';
import { createEvaluator, PROMPT_VERSION } from '../evaluate';
import type { ComparisonTolerance, EvaluatorOptions } from '../types';
import { writeEvalRecord, type EvalRecord } from './eval-record';
import { replayCases } from './replay';
import { confidenceCurve, riskiestApproval, scoreOutcomes } from './score';

/** The eval could not run (no cases, no evaluator): a one-line reason that names the fix. */
export class EvalSetupError extends Error {}

export interface EvalRun {
  outputDir: string;
  configDir: string;
  labels: EvalRecord['labels'];
  evaluator: EvaluatorOptions;
  env: NodeJS.ProcessEnv;
  tolerance: Required<ComparisonTolerance>;
  /** Progress lines and skipped folders. */
  log: (line: string) => void;
}

export interface EvalResult {
  record: EvalRecord;
  file: string;
}

/** The corpus shipped with visual-uat (fixtures/label-corpus/cases), from the source tree or the installed package. */
export function shippedCorpus(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'fixtures', 'label-corpus', 'cases');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new EvalSetupError(
    `visual-uat eval: the shipped corpus (fixtures/label-corpus/cases) is not installed beside ${__dirname}: reinstall visual-uat`,
  );
}

/** Replays every labelled case through the evaluator with its cache off, scores it and keeps the record. */
export async function runEval(run: EvalRun): Promise<EvalResult> {
  const store = readLabels(run.labels.folder);
  for (const problem of store.problems) run.log(`visual-uat eval: skipped ${problem}`);
  if (store.cases.length === 0)
    throw new EvalSetupError(
      `visual-uat eval: no labelled cases in ${run.labels.folder}: approve or reject changes with visual-uat approve or review ` +
        `to make some, or run visual-uat eval --corpus`,
    );
  const dir = outputPath(run.outputDir, 'eval');
  const evaluator = createEvaluator(run.evaluator, run.env, { outputDir: dir, configDir: run.configDir, cache: false, log: run.log });
  if (!evaluator)
    throw new EvalSetupError(
      'visual-uat eval: no evaluator configured: set OPENAI_API_KEY (and OPENAI_BASE_URL or --base-url for another endpoint, ' +
        'VISUAL_UAT_MODEL or --model for another model)',
    );
  const started = Date.now();
  const outcomes = await replayCases(store.cases, evaluator, path.join(dir, 'diffs'), run.tolerance);
  const record: EvalRecord = {
    version: 1,
    model: evaluator.model,
    baseURL: evaluator.baseURL,
    promptVersion: PROMPT_VERSION,
    at: new Date().toISOString(),
    labels: run.labels,
    thresholds: evaluator.thresholds,
    figures: scoreOutcomes(outcomes),
    riskiestApproval: riskiestApproval(outcomes),
    byConfidence: confidenceCurve(outcomes),
    usage: evaluator.usage(),
    priced: evaluator.priced,
    timeMs: Date.now() - started,
    outcomes,
    unreadable: store.problems,
  };
  return { record, file: writeEvalRecord(run.outputDir, record) };
}

/**
 * 1 when the model would have approved a labelled regression (the number that matters); 2 when
 * the eval is incomplete (a case not judged, a label folder unreadable); 0 otherwise.
 */
export function evalExitCode(record: EvalRecord): number {
  if (record.figures.regressionsApproved.length) return 1;
  if (record.figures.notJudged.length || record.unreadable.length) return 2;
  return 0;
}
