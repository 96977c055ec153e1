import type OpenAI from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { EvaluatorUsage } from '../types';
import { plural } from '../util/text';
import { DEFAULT_CALL_POLICY, type CallPolicy, type ModeState } from './call';
import { loadOpenAI } from './openai-package';
import { costOf, priceFor, type Price, type TokenCounts } from './prices';
import type { EvaluatorSettings } from './evaluator-settings';
import { redactor } from './transcript';

/**
 * One OpenAI-compatible client with its call policy, response-format state and token/cost
 * accounting: shared by the evaluator and by `visual-uat generate`, so both retry, fall back
 * and count the same way.
 */
export interface ModelClient {
  readonly settings: EvaluatorSettings;
  readonly client: OpenAI;
  readonly policy: CallPolicy;
  /** Shared by all calls: once a server rejected json_schema, later calls skip it. */
  readonly modes: ModeState;
  readonly price: Price | null;
  /** Removes the API key from text about to be written or printed. */
  readonly redact: (text: string) => string;
  /** Adds a completion's tokens and cost to the totals (and to `into`, e.g. one transcript's usage). */
  count(completion: ChatCompletion, into?: TokenCounts & { calls: number; costUSD: number }): void;
  usage(): EvaluatorUsage;
  /** "2,400 input tokens (0 cached), 80 output tokens, $0.0011". */
  tokensAndCost(): string;
}

export function tokensOf(completion: ChatCompletion): TokenCounts {
  const usage = completion.usage;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
  };
}

export function createModelClient(settings: EvaluatorSettings, callPolicy: Partial<Omit<CallPolicy, 'timeoutMs'>> = {}): ModelClient {
  const policy: CallPolicy = { ...DEFAULT_CALL_POLICY, ...callPolicy, timeoutMs: settings.timeoutMs };
  // Our own retry loop and deadline (see call.ts): the client's are switched off.
  const client = new (loadOpenAI())({ apiKey: settings.apiKey, baseURL: settings.baseURL, maxRetries: 0, timeout: settings.timeoutMs });
  const price = priceFor(settings.model, settings.prices);
  const totals: EvaluatorUsage = {
    model: settings.model,
    calls: 0,
    cacheHits: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    costUSD: 0,
  };
  return {
    settings,
    client,
    policy,
    modes: { mode: 'json_schema' },
    price,
    redact: redactor(settings.apiKey),
    count(completion, into) {
      const tokens = tokensOf(completion);
      const cost = price ? costOf(tokens, price) : 0;
      for (const target of into ? [totals, into] : [totals]) {
        target.calls++;
        target.inputTokens += tokens.inputTokens;
        target.cachedInputTokens += tokens.cachedInputTokens;
        target.outputTokens += tokens.outputTokens;
        target.costUSD += cost;
      }
    },
    usage: () => ({ ...totals, costUSD: Math.round(totals.costUSD * 1e6) / 1e6 }),
    tokensAndCost() {
      const cost = price ? `$${totals.costUSD.toFixed(4)}` : `cost unknown (no price for ${settings.model}: set evaluator.prices)`;
      return [
        `${plural(totals.inputTokens, 'input token')} (${totals.cachedInputTokens.toLocaleString('en-US')} cached)`,
        plural(totals.outputTokens, 'output token'),
        cost,
      ].join(', ');
    },
  };
}
