import path from 'node:path';
import type { EvaluatorOptions, FailOn, VisualUatOptions } from '../types';
import { CI_BASE_VARIABLES, ENV } from './environment';
import { outputPath } from './paths';

/** The options after defaults and environment variables are applied (environment wins). */
export interface ResolvedOptions {
  /** The base branch a setting names, or null: the repository's default branch then (git/base defaultBranch). */
  baseBranch: NamedBase | null;
  outputDir: string;
  updateBaselines: boolean;
  keepWorktrees: boolean;
  evaluator: EvaluatorOptions | false;
  failOn: FailOn[];
  threshold: number;
  maxDiffPixels: number;
  maxDiffPixelRatio: number;
  allowMissingBaselines: boolean;
  /** As given (relative to the config's folder), or null for `<outputDir>/labels`. */
  labelsDir: string | null;
  /** As given (relative to the config's folder), or null for `<outputDir>/baseline-store`. */
  baselineStore: string | null;
  /** `visual-uat record`: HEAD is the base, and its checkpoints are stored as its baselines. */
  record: boolean;
}

/** A base branch and the setting that names it, as the run's first line says it. */
export interface NamedBase {
  branch: string;
  setting: string;
}

/** VISUAL_UAT_BASE (what `visual-uat test --base` sets), then the baseBranch option, then a CI service's target branch. */
function namedBase(options: VisualUatOptions, env: NodeJS.ProcessEnv): NamedBase | null {
  const named = ENV.base.read(env);
  if (named) return { branch: named, setting: ENV.base.name };
  if (options.baseBranch) return { branch: options.baseBranch, setting: 'baseBranch in withVisualUat' };
  const variable = CI_BASE_VARIABLES.find((each) => each.read(env));
  return variable ? { branch: variable.read(env)!, setting: variable.name } : null;
}

const FAIL_ON_VALUES: readonly FailOn[] = ['regression', 'needs_review', 'unsteady', 'new', 'missing', 'errored', 'signals'];

/**
 * An unreviewed change fails the run until a person approves it, as a failing toHaveScreenshot
 * does (and as hosted review tools hold a pull request): a change nobody looked at never merges
 * on a green build. `['regression']` is the opt-out.
 */
export const DEFAULT_FAIL_ON: readonly FailOn[] = ['regression', 'needs_review'];

export function resolveOptions(options: VisualUatOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  const failOn = options.failOn ?? [...DEFAULT_FAIL_ON];
  for (const value of failOn) {
    if (!FAIL_ON_VALUES.includes(value))
      throw new Error(`visual-uat: unknown failOn value "${value}": use any of ${FAIL_ON_VALUES.join(', ')}`);
  }
  return {
    baseBranch: namedBase(options, env),
    outputDir: ENV.dir.read(env) || options.outputDir || '.visual-uat',
    updateBaselines: ENV.updateBaselines.read(env) ?? options.updateBaselines ?? false,
    keepWorktrees: ENV.keepWorktrees.read(env) ?? options.keepWorktrees ?? false,
    evaluator: options.evaluator ?? {},
    failOn,
    threshold: options.threshold ?? 0.1,
    maxDiffPixels: options.maxDiffPixels ?? 0,
    maxDiffPixelRatio: options.maxDiffPixelRatio ?? 0,
    allowMissingBaselines: ENV.allowMissingBaselines.read(env) ?? options.allowMissingBaselines ?? false,
    labelsDir: options.labelsDir || null,
    baselineStore: ENV.baselineStore.read(env) || options.baselineStore || null,
    record: ENV.record.read(env) ?? false,
  };
}

/** Options as withVisualUat stored them for the other processes of the run (never with a key). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): VisualUatOptions {
  return (ENV.options.read(env) as VisualUatOptions | undefined) ?? {};
}

export function withoutSecrets(options: VisualUatOptions): VisualUatOptions {
  if (!options.evaluator) return options;
  const { apiKey: _apiKey, ...evaluator } = options.evaluator;
  return { ...options, evaluator };
}

/**
 * Everything a process of the run needs to know about where it works, resolved once at its entry
 * (global setup, reporter, worker, CLI) and handed down: the options after the environment and the
 * defaults, and the output folder as an absolute path.
 */
export interface Settings {
  configFile: string | null;
  /** The Playwright config's folder: relative paths (outputDir, approvals) start here. */
  configDir: string;
  outputDir: string;
  /** Where labelled cases are kept: the `labelsDir` option (relative to the config's folder), else `<outputDir>/labels`. */
  labelsDir: string;
  /** The per-test baseline store, absolute. */
  baselineStore: string;
  options: ResolvedOptions;
}

/**
 * Environment over options over defaults; the output folder relative to the config's folder. Once
 * the global setup has resolved the output folder it hands it to the run's other processes
 * (VISUAL_UAT_OUTPUT_DIR), which then use that very folder.
 */
export function resolveSettings(
  configFile: string | null,
  options: VisualUatOptions = optionsFromEnv(),
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Settings {
  const configDir = configFile ? path.dirname(path.resolve(cwd, configFile)) : cwd;
  const resolved = resolveOptions(options, env);
  const outputDir = ENV.outputDir.read(env) || path.resolve(configDir, resolved.outputDir);
  return {
    configFile: configFile ? path.resolve(cwd, configFile) : null,
    configDir,
    outputDir,
    labelsDir: resolved.labelsDir ? path.resolve(configDir, resolved.labelsDir) : outputPath(outputDir, 'labels'),
    baselineStore: resolved.baselineStore ? path.resolve(configDir, resolved.baselineStore) : outputPath(outputDir, 'baselineStore'),
    options: resolved,
  };
}
