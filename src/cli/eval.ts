import path from 'node:path';
import { ENV } from '../config/environment';
import type { Settings } from '../config/settings';
import { evalExitCode, formatEval, runEval, shippedCorpus, type EvalRecord } from '../trust';
import type { EvaluatorOptions } from '../types';
import { cliSettings, type CliFlags } from './cli-settings';
import { printLine, printText } from '../util/output';

export interface EvalCliOptions extends CliFlags {
  model?: string;
  baseUrl?: string;
  labels?: string;
  corpus?: boolean;
  json?: boolean;
}

function labelsSource(options: EvalCliOptions, settings: Settings): EvalRecord['labels'] {
  if (options.corpus && options.labels) throw new Error('visual-uat eval: --corpus and --labels name two sets of cases: pass one of them');
  if (options.corpus) return { source: 'corpus', folder: shippedCorpus() };
  const folder = options.labels ? path.resolve(options.labels) : settings.labelsDir;
  return { source: 'labels', folder };
}

/** The config's evaluator, with the environment and then the flags on top. */
function evaluatorSetup(options: EvalCliOptions, settings: Settings): { evaluator: EvaluatorOptions; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.model) ENV.model.write(options.model, env);
  if (options.baseUrl) ENV.openaiBaseUrl.write(options.baseUrl, env);
  return { evaluator: settings.options.evaluator || {}, env };
}

/**
 * `visual-uat eval`: replays labelled cases through the evaluator and prints how far it agrees
 * with the people who labelled them. Returns the exit code: 0 clean, 1 when the model would have
 * approved a labelled regression, 2 when the eval could not run or is incomplete.
 */
export async function evalCommand(options: EvalCliOptions): Promise<number> {
  const log = (line: string) => printLine(line, 'diagnostic');
  try {
    const settings = cliSettings(options);
    const { evaluator, env } = evaluatorSetup(options, settings);
    const { threshold, maxDiffPixels, maxDiffPixelRatio } = settings.options;
    const result = await runEval({
      configDir: settings.configDir,
      outputDir: settings.outputDir,
      labels: labelsSource(options, settings),
      evaluator,
      env,
      tolerance: { threshold, maxDiffPixels, maxDiffPixelRatio },
      log,
    });
    const file = path.relative(process.cwd(), result.file) || result.file;
    printText(options.json ? `${JSON.stringify(result.record, null, 2)}\n` : formatEval(result.record, file));
    return evalExitCode(result.record);
  } catch (error) {
    log((error as Error).message);
    return 2;
  }
}
