import path from 'node:path';
import type { EvaluatorOptions, FailOn, VisualUatOptions } from '../types';
import { OUTPUT_DIR_ENV } from './environment';
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

/** A pull request's (merge request's) target branch, as CI services name it, after the explicit settings. */
const CI_BASE_VARIABLES = ['GITHUB_BASE_REF', 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME', 'BITBUCKET_PR_DESTINATION_BRANCH'];

/** VISUAL_UAT_BASE (what `visual-uat test --base` sets), then the baseBranch option, then a CI service's target branch. */
function namedBase(options: VisualUatOptions, env: NodeJS.ProcessEnv): NamedBase | null {
  if (env.VISUAL_UAT_BASE) return { branch: env.VISUAL_UAT_BASE, setting: 'VISUAL_UAT_BASE' };
  if (options.baseBranch) return { branch: options.baseBranch, setting: 'baseBranch in withVisualUat' };
  const variable = CI_BASE_VARIABLES.find((name) => env[name]);
  return variable ? { branch: env[variable]!, setting: variable } : null;
}

const FAIL_ON_VALUES: readonly FailOn[] = ['regression', 'needs_review', 'new', 'missing', 'errored', 'signals'];

/**
 * An unreviewed change fails the run until a person approves it, as a failing toHaveScreenshot
 * does (and as hosted review tools hold a pull request): a change nobody looked at never merges
 * on a green build. `['regression']` is the opt-out.
 */
export const DEFAULT_FAIL_ON: readonly FailOn[] = ['regression', 'needs_review'];

/** Internal: how `withVisualUat` hands its (secret-free) options to the global setup and the workers. */
export const OPTIONS_ENV = 'VISUAL_UAT_OPTIONS';

/** Set by `visual-uat record`. */
export const RECORD_ENV = 'VISUAL_UAT_RECORD';

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return value === '1' || value.toLowerCase() === 'true';
}

export function resolveOptions(options: VisualUatOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  const failOn = options.failOn ?? [...DEFAULT_FAIL_ON];
  for (const value of failOn) {
    if (!FAIL_ON_VALUES.includes(value))
      throw new Error(`visual-uat: unknown failOn value "${value}": use any of ${FAIL_ON_VALUES.join(', ')}`);
  }
  return {
    baseBranch: namedBase(options, env),
    outputDir: env.VISUAL_UAT_DIR || options.outputDir || '.visual-uat',
    updateBaselines: flag(env.VISUAL_UAT_UPDATE_BASELINES) ?? options.updateBaselines ?? false,
    keepWorktrees: flag(env.VISUAL_UAT_KEEP_WORKTREES) ?? options.keepWorktrees ?? false,
    evaluator: options.evaluator ?? {},
    failOn,
    threshold: options.threshold ?? 0.1,
    maxDiffPixels: options.maxDiffPixels ?? 0,
    maxDiffPixelRatio: options.maxDiffPixelRatio ?? 0,
    allowMissingBaselines: flag(env.VISUAL_UAT_ALLOW_MISSING_BASELINES) ?? options.allowMissingBaselines ?? false,
    labelsDir: options.labelsDir || null,
    baselineStore: env.VISUAL_UAT_BASELINE_STORE || options.baselineStore || null,
    record: flag(env[RECORD_ENV]) ?? false,
  };
}

/** Options as withVisualUat stored them for the other processes of the run (never with a key). */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): VisualUatOptions {
  const raw = env[OPTIONS_ENV];
  if (!raw) return {};
  try {
    return JSON.parse(raw) as VisualUatOptions;
  } catch {
    return {};
  }
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
  const outputDir = env[OUTPUT_DIR_ENV] || path.resolve(configDir, resolved.outputDir);
  return {
    configFile: configFile ? path.resolve(cwd, configFile) : null,
    configDir,
    outputDir,
    labelsDir: resolved.labelsDir ? path.resolve(configDir, resolved.labelsDir) : outputPath(outputDir, 'labels'),
    baselineStore: resolved.baselineStore ? path.resolve(configDir, resolved.baselineStore) : outputPath(outputDir, 'baselineStore'),
    options: resolved,
  };
}
