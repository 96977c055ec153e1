import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { loadOpenAI } from './openai-package';
import { ANSWER_SCHEMA } from './prompt';

/**
 * One chat completion with our own retry loop (the client's retries are off, so every attempt is
 * counted, written to the transcript, and Retry-After is honoured the same way on every server).
 */

/** Structured output first; a server that rejects it gets the next, looser mode. */
export const RESPONSE_MODES = ['json_schema', 'json_object', 'plain'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export interface CallPolicy {
  timeoutMs: number;
  /** Transient failures retried per evaluation (shared by the first call and the repair). */
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A server asking for a longer wait than this is not waited for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_CALL_POLICY: Omit<CallPolicy, 'timeoutMs'> = {
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  maxRetryAfterMs: 30_000,
};

export interface Attempt {
  mode: ResponseMode;
  startedAt: string;
  latencyMs: number;
  /** HTTP status of a failed attempt, when there was a response. */
  status: number | null;
  error: string | null;
  /** The completion as the server sent it (successful attempts). */
  response: ChatCompletion | null;
}

/** A final failure. `breaksRun`: the next calls would fail the same way (hung server, bad key, wrong URL). */
export class EvaluatorFault extends Error {
  constructor(
    message: string,
    readonly breaksRun: boolean,
  ) {
    super(message);
  }
}

/** Shared by the calls of one evaluation, so retries stay bounded whatever happens. */
export interface RetryBudget {
  retriesLeft: number;
}

/** Shared by all evaluations of a run: once a server rejected json_schema, later calls skip it. */
export interface ModeState {
  mode: ResponseMode;
}

type Classified =
  | { kind: 'timeout' }
  | { kind: 'transient'; status: number | null; retryAfterMs: number | null; message: string }
  | { kind: 'format'; status: number; message: string }
  | { kind: 'final'; status: number | null; message: string; breaksRun: boolean };

const FORMAT_REJECTION = /response_format|json_schema|json_object|structured|schema/i;
const TRANSIENT_STATUSES = new Set([408, 409, 429]);

function causeOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return [...new Set(parts)].join(': ');
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function classify(error: unknown, timedOut: boolean, mode: ResponseMode): Classified {
  const openai = loadOpenAI();
  if (timedOut || error instanceof openai.APIConnectionTimeoutError) return { kind: 'timeout' };
  if (error instanceof openai.APIConnectionError) return { kind: 'transient', status: null, retryAfterMs: null, message: causeOf(error) };
  if (error instanceof openai.APIError && typeof error.status === 'number') {
    const { status, message } = error;
    if (TRANSIENT_STATUSES.has(status) || status >= 500)
      return { kind: 'transient', status, retryAfterMs: retryAfterMs(error.headers), message };
    if ((status === 400 || status === 415 || status === 422) && mode !== 'plain' && FORMAT_REJECTION.test(message))
      return { kind: 'format', status, message };
    return { kind: 'final', status, message, breaksRun: status === 401 || status === 403 || status === 404 };
  }
  return { kind: 'final', status: null, message: causeOf(error), breaksRun: false };
}

function advice(status: number | null): string {
  if (status === 401 || status === 403) return ': check OPENAI_API_KEY (or evaluator.apiKey)';
  if (status === 404)
    return ': check the model (VISUAL_UAT_MODEL / evaluator.model) and the base URL (OPENAI_BASE_URL / evaluator.baseURL)';
  return '';
}

/** The JSON schema an answer must follow under structured output. */
export interface AnswerFormat {
  name: string;
  schema: Record<string, unknown>;
}

export const VERDICT_FORMAT: AnswerFormat = { name: 'visual_verdict', schema: ANSWER_SCHEMA };

export function responseFormat(
  mode: ResponseMode,
  format: AnswerFormat = VERDICT_FORMAT,
): ChatCompletionCreateParamsNonStreaming['response_format'] | undefined {
  if (mode === 'json_schema') return { type: 'json_schema', json_schema: { name: format.name, strict: true, schema: format.schema } };
  if (mode === 'json_object') return { type: 'json_object' };
  return undefined;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Exponential, with jitter so concurrent calls that failed together do not retry together. */
function backoffMs(retry: number, policy: CallPolicy): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** retry);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** Runs one request with a hard deadline that also covers a body that never finishes. */
async function attemptOnce(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  timeoutMs: number,
): Promise<{ completion: ChatCompletion } | { error: unknown; timedOut: boolean }> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const completion = await client.chat.completions.create(body, { signal: controller.signal, timeout: timeoutMs, maxRetries: 0 });
    return { completion };
  } catch (error) {
    return { error, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends the request until it yields a completion, falling back to looser response formats and
 * retrying transient failures within the budget. Throws EvaluatorFault on a final failure.
 * Every attempt, failed or not, is appended to `attempts`.
 */
export async function complete(
  client: OpenAI,
  request: Omit<ChatCompletionCreateParamsNonStreaming, 'response_format'>,
  policy: CallPolicy,
  modes: ModeState,
  budget: RetryBudget,
  attempts: Attempt[],
  answerFormat: AnswerFormat = VERDICT_FORMAT,
): Promise<ChatCompletion> {
  for (let retry = 0; ; ) {
    const mode = modes.mode;
    const format = responseFormat(mode, answerFormat);
    const body: ChatCompletionCreateParamsNonStreaming = format ? { ...request, response_format: format } : { ...request };
    const started = Date.now();
    const outcome = await attemptOnce(client, body, policy.timeoutMs);
    const attempt: Attempt = {
      mode,
      startedAt: new Date(started).toISOString(),
      latencyMs: Date.now() - started,
      status: null,
      error: null,
      response: null,
    };
    attempts.push(attempt);
    if ('completion' in outcome) {
      attempt.response = outcome.completion;
      return outcome.completion;
    }
    const failure = classify(outcome.error, outcome.timedOut, mode);
    if (failure.kind === 'timeout') {
      attempt.error = `timed out after ${policy.timeoutMs} ms`;
      // Not retried: a hung or overloaded server would multiply the wait by the retry count.
      throw new EvaluatorFault(
        `the evaluator did not answer within ${duration(policy.timeoutMs)} (raise evaluator.timeoutMs or ` +
          `VISUAL_UAT_EVAL_TIMEOUT_MS for a slow model)`,
        true,
      );
    }
    attempt.status = failure.status;
    attempt.error = failure.message;
    if (failure.kind === 'format') {
      // Concurrent calls may have stepped down already: never step back up.
      const next = RESPONSE_MODES[RESPONSE_MODES.indexOf(mode) + 1];
      if (RESPONSE_MODES.indexOf(next) > RESPONSE_MODES.indexOf(modes.mode)) modes.mode = next;
      continue;
    }
    if (failure.kind === 'final') {
      const what = failure.status ? `HTTP ${failure.status}` : 'an error';
      throw new EvaluatorFault(`the evaluator answered ${what}: ${failure.message}${advice(failure.status)}`, failure.breaksRun);
    }
    const what = failure.status ? `HTTP ${failure.status}` : 'a network error';
    if (budget.retriesLeft <= 0)
      throw new EvaluatorFault(
        `the evaluator kept failing (${what}: ${failure.message}) after ${retry} ${retry === 1 ? 'retry' : 'retries'}`,
        true,
      );
    const delay = failure.retryAfterMs ?? backoffMs(retry, policy);
    if (delay > policy.maxRetryAfterMs)
      throw new EvaluatorFault(`the evaluator is rate limited (${what}) and asks to wait ${duration(delay)}: run again later`, true);
    budget.retriesLeft--;
    retry++;
    await sleep(delay);
  }
}
