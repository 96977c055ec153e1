import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import pLimit from 'p-limit';
import type { EvaluatorOptions, EvaluatorUsage } from '../types';
import { cacheScope, changeKey, readCachedVerdict, writeCachedVerdict } from './cache';
import { EvaluatorFault, complete, type Attempt, type CallPolicy, type RetryBudget } from './call';
import { pngFileSize } from '../util/png';
import { plainText, plural } from '../util/text';
import { createModelClient } from './client';
import { dataUrl, planView, renderViews, viewNote, type ViewImage, type ViewPlan } from './images';
import { parseVerdict } from './parse';
import { DEFAULT_HEARTBEAT_MS, startProgress } from './progress';
import { PLAIN_JSON_INSTRUCTION, PROMPT_VERSION, repairPrompt, sendsDiff, systemPrompt, userText } from './prompt';
import type { EvaluationRequest, EvaluatorVerdict } from './request';
import { resolveEvaluatorSettings, type EvaluatorSettings, type ResolvedAutoApprove } from './evaluator-settings';
import { statusOf, type Thresholds } from './status';
import { writeTranscript, type Transcript } from './transcript';
import { printLine } from '../util/output';

export interface EvaluatorRuntime {
  outputDir: string;
  /** Where a relative `instructions` file is looked up (the Playwright config's folder). */
  configDir?: string;
  /** Where progress lines go (default: stdout). */
  log?: (line: string) => void;
  heartbeatMs?: number;
  /** Retry tuning; tests shorten the backoff. */
  callPolicy?: Partial<Omit<CallPolicy, 'timeoutMs'>>;
  /** Verdicts cached under the output folder (default true); `visual-uat eval` asks the model every time. */
  cache?: boolean;
}

export interface Evaluator {
  readonly model: string;
  readonly baseURL: string | null;
  /** The confidences at which a verdict becomes `changed` or `regression`. */
  readonly thresholds: Thresholds;
  /** Whether the model has a price (built in or from evaluator.prices): without one, costUSD stays 0. */
  readonly priced: boolean;
  /** `evaluator.autoApprove`, for the decide stage (see trust/policy.ts); null when off. */
  readonly autoApprove: ResolvedAutoApprove | null;
  /** Judges one changed checkpoint. Never throws, never approves on a fault. */
  evaluate(request: EvaluationRequest): Promise<EvaluatorVerdict>;
  /** Judges many, in order, with a start line and a heartbeat while calls are in flight. */
  evaluateAll(requests: EvaluationRequest[]): Promise<EvaluatorVerdict[]>;
  usage(): EvaluatorUsage;
  /** One line for the end of the run: calls, cache hits, tokens, cost, time. */
  summary(): string;
}

/**
 * The most bytes one request may have, text and images as sent: the images take what the text
 * leaves (see images.ts `renderViews`). A full-page change went from 327,668 bytes (three PNGs)
 * to less than a tenth of it.
 */
export const REQUEST_BUDGET_BYTES = 30 * 1024;
/** The request's JSON besides the prompt's text and images: the model, the response format and its schema, the messages' wrapping. */
const FRAMING_BYTES = 1024;

interface Prepared {
  system: string;
  plan: ViewPlan;
  /** The verdict cache's scope (model, prompt, intent, commits); the change is the key within it. */
  scope: string;
  /** Names the transcript: scope and change. */
  key: string;
}

function prepare(request: EvaluationRequest, settings: EvaluatorSettings): Prepared {
  const plan = planView(pngFileSize(request.images.baseline), pngFileSize(request.images.current), request.metrics.changedRegions);
  const system = systemPrompt(settings.instructions);
  const scope = cacheScope({
    model: settings.model,
    promptVersion: PROMPT_VERSION,
    system,
    intent: request.intent,
    context: request.context,
  });
  return { system, plan, scope, key: `${scope.slice(0, 8)}${changeKey(request.change).slice(0, 8)}` };
}

/**
 * The user text; the answer's shape is spelled out even under json_schema, so the prompt is the same whichever response format the server
 * ends up accepting.
 */
function userPrompt(request: EvaluationRequest, note: string): string {
  return `${userText(request, note)}\n\n${PLAIN_JSON_INSTRUCTION}`;
}

/** As JSON escapes it in the request's body. */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));

/** The messages, with the user text and the images' note as sent (they say at which scale the images went). */
async function messagesFor(
  request: EvaluationRequest,
  prepared: Prepared,
): Promise<{ messages: ChatCompletionMessageParam[]; user: string; note: string }> {
  const { plan, system } = prepared;
  const images: ViewImage[] = [
    { file: request.images.baseline, role: 'side' },
    { file: request.images.current, role: 'side' },
    ...(sendsDiff(request) ? [{ file: request.images.diff, role: 'diff' as const }] : []),
  ];
  // The scale's few words are not known yet: the framing allowance covers them.
  const textBytes = jsonBytes(system) + jsonBytes(userPrompt(request, viewNote(plan, 1)));
  const view = await renderViews(images, plan, REQUEST_BUDGET_BYTES - FRAMING_BYTES - textBytes);
  const user = userPrompt(request, view.note);
  const parts: ChatCompletionContentPart[] = view.images.map((webp) => ({ type: 'image_url', image_url: { url: dataUrl(webp) } }));
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: [{ type: 'text', text: user }, ...parts] },
    ],
    user,
    note: view.note,
  };
}

/** The answer text; a refusal stands in for it so the repair prompt can quote what went wrong. */
function replyOf(completion: ChatCompletion): string {
  const message = completion.choices[0]?.message;
  return message?.content ?? message?.refusal ?? '';
}

/**
 * The evaluator for these options and this environment, or null when there is no API key (or
 * `evaluator: false`): the reporter then marks every changed checkpoint as needing review.
 * Throws EvaluatorConfigError for an invalid option.
 */
export function createEvaluator(
  options: EvaluatorOptions | false | undefined,
  env: NodeJS.ProcessEnv,
  runtime: EvaluatorRuntime,
): Evaluator | null {
  const settings = resolveEvaluatorSettings(options, env, runtime.configDir ?? process.cwd());
  if (!settings) return null;
  const { outputDir } = runtime;
  const useCache = runtime.cache !== false;
  const log = runtime.log ?? ((line: string) => printLine(line));
  const model = createModelClient(settings, runtime.callPolicy);
  const { client, policy, modes, redact } = model;
  const limit = pLimit(settings.concurrency);
  let cacheHits = 0;
  let elapsedMs = 0;
  /** Set by the first fault that later calls would repeat (hung server, bad key): they are skipped. */
  let broken: string | null = null;

  async function judge(request: EvaluationRequest): Promise<EvaluatorVerdict> {
    const failed = (reason: string): EvaluatorVerdict => ({
      status: 'needs_review',
      evaluation: null,
      reason: redact(reason),
      cached: false,
    });
    if (broken) return failed(`not judged: the evaluator failed earlier in this run (${broken})`);
    let prepared: Prepared;
    try {
      prepared = prepare(request, settings!);
    } catch (error) {
      return failed(`not judged: could not read the images (${plainText((error as Error).message)})`);
    }
    const cached = useCache ? readCachedVerdict(outputDir, prepared.scope, request.change, request.group.shownOn, settings!.model) : null;
    if (cached) {
      cacheHits++;
      return { status: statusOf(cached, settings!), evaluation: cached, reason: cached.reason, cached: true };
    }

    const started = Date.now();
    const attempts: Attempt[] = [];
    const usage: Transcript['usage'] = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUSD: 0 };
    const budget: RetryBudget = { retriesLeft: policy.maxRetries };
    let repair: string | null = null;
    let verdict: EvaluatorVerdict;
    let evaluation: Transcript['evaluation'] = null;
    let error: string | null = null;
    // What the transcript says was asked: the images' scale is known once they are rendered.
    let note = viewNote(prepared.plan, 1);
    let user = userPrompt(request, note);
    try {
      const sent = await messagesFor(request, prepared);
      const { messages } = sent;
      ({ user, note } = sent);
      const body = { model: settings!.model, messages, temperature: 0 };
      const first = await complete(client, body, policy, modes, budget, attempts);
      model.count(first, usage);
      let content = replyOf(first);
      let parsed = parseVerdict(content);
      if (!parsed.ok) {
        repair = parsed.error;
        const retry = {
          ...body,
          messages: [...messages, { role: 'assistant' as const, content }, { role: 'user' as const, content: repairPrompt(parsed.error) }],
        };
        const second = await complete(client, retry, policy, modes, budget, attempts);
        model.count(second, usage);
        content = replyOf(second);
        parsed = parseVerdict(content);
      }
      if (!parsed.ok) throw new EvaluatorFault(`the evaluator's answer was unusable after one repair: ${parsed.error}`, false);
      evaluation = parsed.evaluation;
      if (useCache) writeCachedVerdict(outputDir, prepared.scope, request.change, request.group.shownOn, settings!.model, evaluation);
      verdict = { status: statusOf(evaluation, settings!), evaluation, reason: evaluation.reason, cached: false };
    } catch (caught) {
      error = plainText(caught instanceof Error ? caught.message : String(caught));
      if (caught instanceof EvaluatorFault && caught.breaksRun) broken ??= error;
      verdict = failed(`not judged: ${error}`);
    }
    try {
      writeTranscript(
        outputDir,
        {
          checkpoint: [request.project, ...request.intent.titlePath, request.name].filter(Boolean).join(' › '),
          model: settings!.model,
          baseURL: settings!.baseURL ?? null,
          cacheKey: prepared.key,
          prompt: { system: prepared.system, user, images: request.images, view: note },
          attempts,
          repair,
          usage,
          latencyMs: Date.now() - started,
          evaluation,
          error,
        },
        redact,
      );
    } catch (writeError) {
      log(`visual-uat: could not write the evaluator transcript (${(writeError as Error).message})`);
    }
    return verdict;
  }

  const evaluate = (request: EvaluationRequest) => limit(() => judge(request));

  return {
    model: settings.model,
    baseURL: settings.baseURL ?? null,
    thresholds: { approveAt: settings.approveAt, rejectAt: settings.rejectAt },
    priced: model.price !== null,
    autoApprove: settings.autoApprove,
    evaluate,
    async evaluateAll(requests) {
      if (requests.length === 0) return [];
      const started = Date.now();
      const checkpoints = requests.reduce((sum, request) => sum + request.group.shownOn.length, 0);
      const progress = startProgress(requests.length, checkpoints, settings.model, log, runtime.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
      try {
        return await Promise.all(
          requests.map(async (request) => {
            const verdict = await evaluate(request);
            progress.done();
            return verdict;
          }),
        );
      } finally {
        progress.stop();
        elapsedMs += Date.now() - started;
      }
    },
    usage: () => ({ ...model.usage(), cacheHits }),
    summary() {
      const calls = model.usage().calls;
      return (
        `visual-uat: evaluator ${settings.model}: ${plural(calls, 'call')}, ${plural(cacheHits, 'cache hit')}, ` +
        `${model.tokensAndCost()}, ${(elapsedMs / 1000).toFixed(1)} s`
      );
    },
  };
}
