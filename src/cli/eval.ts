import path from 'node:path';
import { labelsFolder } from '../approve';
import { resultsDir } from '../config/layout';
import { resolveOptions } from '../config/options';
import { evalExitCode, formatEval, runEval, shippedCorpus, type EvalRecord } from '../eval';
import type { ComparisonTolerance, EvaluatorOptions } from '../types';
import { readJsonFile } from '../util/fs';
import { reviewPaths, type ReviewPaths } from './review';

export interface EvalCliOptions {
  model?: string;
  baseUrl?: string;
  labels?: string;
  corpus?: boolean;
  json?: boolean;
  config?: string;
  dir?: string;
}

/** What the latest run recorded of its options (never a key): the CLI cannot load playwright.config.ts itself. */
interface RecordedConfig {
  evaluator?: { model?: string | null; baseURL?: string | null } | false;
  labelsDir?: string | null;
  threshold?: number;
  maxDiffPixels?: number;
  maxDiffPixelRatio?: number;
}

function recordedConfig(outputDir: string): RecordedConfig {
  return readJsonFile<{ config?: RecordedConfig }>(path.join(resultsDir(outputDir), 'latest.json'))?.config ?? {};
}

function labelsSource(options: EvalCliOptions, paths: ReviewPaths, config: RecordedConfig): EvalRecord['labels'] {
  if (options.corpus && options.labels) throw new Error('visual-uat eval: --corpus and --labels name two sets of cases: pass one of them');
  if (options.corpus) return { source: 'corpus', folder: shippedCorpus() };
  const folder = options.labels ? path.resolve(options.labels) : labelsFolder(paths.outputDir, paths.configDir, config.labelsDir);
  return { source: 'labels', folder };
}

/** The evaluator the latest run used, with the environment and then the flags on top. */
function evaluatorSetup(options: EvalCliOptions, config: RecordedConfig): { evaluator: EvaluatorOptions; env: NodeJS.ProcessEnv } {
  const recorded = config.evaluator || {};
  const evaluator: EvaluatorOptions = { model: recorded.model ?? undefined, baseURL: recorded.baseURL ?? undefined };
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.model) env.VISUAL_UAT_MODEL = options.model;
  if (options.baseUrl) env.OPENAI_BASE_URL = options.baseUrl;
  return { evaluator, env };
}

function tolerance(config: RecordedConfig): Required<ComparisonTolerance> {
  const defaults = resolveOptions({}, {});
  return {
    threshold: config.threshold ?? defaults.threshold,
    maxDiffPixels: config.maxDiffPixels ?? defaults.maxDiffPixels,
    maxDiffPixelRatio: config.maxDiffPixelRatio ?? defaults.maxDiffPixelRatio,
  };
}

/**
 * `visual-uat eval`: replays labelled cases through the evaluator and prints how far it agrees
 * with the people who labelled them. Returns the exit code: 0 clean, 1 when the model would have
 * approved a labelled regression, 2 when the eval could not run or is incomplete.
 */
export async function evalCommand(options: EvalCliOptions): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const paths = reviewPaths(options);
    const config = recordedConfig(paths.outputDir);
    const { evaluator, env } = evaluatorSetup(options, config);
    const result = await runEval({ ...paths, labels: labelsSource(options, paths, config), evaluator, env, tolerance: tolerance(config), log });
    const file = path.relative(process.cwd(), result.file) || result.file;
    process.stdout.write(options.json ? `${JSON.stringify(result.record, null, 2)}\n` : formatEval(result.record, file));
    return evalExitCode(result.record);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
}
