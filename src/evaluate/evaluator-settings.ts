import fs from 'node:fs';
import path from 'node:path';
import type { AutoApprovePolicy, EvaluatorOptions } from '../types';
import { DEFAULT_PRICES, type PriceTable } from './prices';
import { ENV } from '../config/environment';

/** The evaluator's options after the environment and the defaults are applied. */
export interface EvaluatorSettings {
  baseURL: string | undefined;
  apiKey: string;
  model: string;
  approveAt: number;
  rejectAt: number;
  timeoutMs: number;
  concurrency: number;
  prices: PriceTable;
  /** Project review instructions as text (read from the file when the option named one). */
  instructions: string | null;
  /** `autoApprove` with its defaults, or null when it is off (the default). */
  autoApprove: ResolvedAutoApprove | null;
}

export type ResolvedAutoApprove = Required<AutoApprovePolicy>;

/**
 * A vision model cheap enough to judge every changed checkpoint of a pull request. Not
 * gpt-4o-mini: it bills an image at gpt-4o's dollar price (many more tokens per image), while
 * gpt-4.1-mini counts about a thousand tokens for a 1024×640 screenshot.
 */
export const DEFAULT_MODEL = 'gpt-4.1-mini';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_APPROVE_AT = 0.8;
export const DEFAULT_REJECT_AT = 0.8;

export class EvaluatorConfigError extends Error {}

function unit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new EvaluatorConfigError(`visual-uat: evaluator.${name} must be a number from 0 to 1 (got ${JSON.stringify(value)})`);
  return value;
}

function positiveInteger(name: string, value: number | string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new EvaluatorConfigError(`visual-uat: ${name} must be a positive whole number (got ${JSON.stringify(value)})`);
  return parsed;
}

/** `instructions` is text, or the path of a file beside the Playwright config. */
function readInstructions(value: string | undefined, configDir: string): string | null {
  if (!value?.trim()) return null;
  const looksLikePath = !value.includes('\n') && value.length < 260;
  if (looksLikePath) {
    const file = path.resolve(configDir, value);
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return fs.readFileSync(file, 'utf8').trim() || null;
  }
  return value.trim();
}

/** `evaluator.autoApprove` with its defaults, or null when it is off. Throws EvaluatorConfigError when malformed. */
export function autoApprovePolicy(given: AutoApprovePolicy | false | undefined): ResolvedAutoApprove | null {
  if (given === undefined || given === false) return null;
  if (typeof given !== 'object' || given === null)
    throw new EvaluatorConfigError(
      `visual-uat: evaluator.autoApprove must be an object { minConfidence, requireEval } (got ${JSON.stringify(given)})`,
    );
  const { minConfidence = 0, requireEval = true } = given;
  const floor = unit('autoApprove.minConfidence', minConfidence, 0);
  if (typeof requireEval !== 'boolean')
    throw new EvaluatorConfigError(
      `visual-uat: evaluator.autoApprove.requireEval must be true or false (got ${JSON.stringify(requireEval)})`,
    );
  return { minConfidence: floor, requireEval };
}

/**
 * Options, then the environment on top (as everywhere in visual-uat). Returns null when there is
 * no API key or the evaluator is switched off: every changed checkpoint then needs review.
 */
export function resolveEvaluatorSettings(
  options: EvaluatorOptions | false | undefined,
  env: NodeJS.ProcessEnv,
  configDir: string,
): EvaluatorSettings | null {
  if (options === false) return null;
  const given = options ?? {};
  const apiKey = ENV.openaiApiKey.read(env) || given.apiKey;
  if (!apiKey) return null;
  const approveAt = unit('approveAt', given.approveAt, DEFAULT_APPROVE_AT);
  const rejectAt = unit('rejectAt', given.rejectAt, DEFAULT_REJECT_AT);
  return {
    baseURL: ENV.openaiBaseUrl.read(env) || given.baseURL || undefined,
    apiKey,
    model: ENV.model.read(env) || given.model || DEFAULT_MODEL,
    approveAt,
    rejectAt,
    timeoutMs: positiveInteger(
      ENV.evalTimeoutMs.read(env) ? ENV.evalTimeoutMs.name : 'evaluator.timeoutMs',
      ENV.evalTimeoutMs.read(env) || given.timeoutMs,
      DEFAULT_TIMEOUT_MS,
    ),
    concurrency: positiveInteger('evaluator.concurrency', given.concurrency, DEFAULT_CONCURRENCY),
    prices: { ...DEFAULT_PRICES, ...given.prices },
    instructions: readInstructions(given.instructions, configDir),
    autoApprove: autoApprovePolicy(given.autoApprove),
  };
}
