import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OpenAI-compatible chat-completions server on 127.0.0.1 for tests: scripted answers,
 * HTTP errors with headers, hangs, dropped connections, and servers that reject structured
 * output. Real sockets, so the real `openai` client is exercised end to end.
 *
 *   const server = await startFakeOpenAI({ responder: sequence(reply.error(429, { 'retry-after': '1' }), reply.verdict()) });
 *   process.env.OPENAI_BASE_URL = server.baseURL;
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (null when it was not JSON). */
  body: any;
  receivedAt: number;
}

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

export type Reply =
  | { kind: 'content'; content: string; usage?: Partial<FakeUsage> }
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Sends the headers and part of the body, then stalls. */
  | { kind: 'hang-body' }
  /** Destroys the socket without an answer: a network error for the client. */
  | { kind: 'drop' };

export type Responder = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface Verdict {
  pass: boolean;
  confidence: number;
  reason: string;
  needsReview: boolean;
}

export const DEFAULT_USAGE: FakeUsage = { prompt_tokens: 1200, completion_tokens: 40, cached_tokens: 0 };

export const reply = {
  verdict(verdict: Partial<Verdict> = {}, usage?: Partial<FakeUsage>): Reply {
    const full: Verdict = { pass: true, confidence: 0.9, reason: 'The change matches the stated intent.', needsReview: false, ...verdict };
    return { kind: 'content', content: JSON.stringify(full), usage };
  },
  content(content: string, usage?: Partial<FakeUsage>): Reply {
    return { kind: 'content', content, usage };
  },
  error(status: number, headers?: Record<string, string>, message = `fake server error ${status}`): Reply {
    return { kind: 'error', status, message, headers };
  },
  hang(): Reply {
    return { kind: 'hang' };
  },
  hangBody(): Reply {
    return { kind: 'hang-body' };
  },
  drop(): Reply {
    return { kind: 'drop' };
  },
};

/** Replies in order, per request; the last one repeats. */
export function sequence(...replies: Reply[]): Responder {
  return (_request, index) => replies[Math.min(index, replies.length - 1)];
}

export interface FakeOpenAIOptions {
  responder?: Responder;
  /** Answer 400 to `response_format: json_schema`, as servers without structured output do. */
  rejectJsonSchema?: boolean;
  /** Answer 400 to `response_format: json_object` as well. */
  rejectJsonObject?: boolean;
}

export interface FakeOpenAI {
  /** The base URL for the `openai` client (ends in /v1). */
  baseURL: string;
  /** Every request received, including rejected ones, in arrival order. */
  requests: RecordedRequest[];
  /** Chat-completion requests that reached the responder. */
  completions(): RecordedRequest[];
  /** Most requests that were open at the same time. */
  maxInFlight(): number;
  respond(responder: Responder): void;
  close(): Promise<void>;
}

/** The text of a request's last user message. */
export function userTextOf(request: RecordedRequest): string {
  const messages: any[] = request.body?.messages ?? [];
  const user = [...messages].reverse().find((m) => m.role === 'user');
  if (!user) return '';
  if (typeof user.content === 'string') return user.content;
  return user.content
    .filter((part: any) => part.type === 'text')
    .map((part: any) => part.text)
    .join('\n');
}

/** The data URLs of the images in a request. */
export function imageUrlsOf(request: RecordedRequest): string[] {
  const messages: any[] = request.body?.messages ?? [];
  return messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p: any) => p.type === 'image_url')
    .map((p: any) => p.image_url.url);
}

function completionBody(model: string, content: string, usage: Partial<FakeUsage> | undefined) {
  const u = { ...DEFAULT_USAGE, ...usage };
  return {
    id: `chatcmpl-fake-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: {
      prompt_tokens: u.prompt_tokens,
      completion_tokens: u.completion_tokens,
      total_tokens: u.prompt_tokens + u.completion_tokens,
      prompt_tokens_details: { cached_tokens: u.cached_tokens },
    },
  };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function formatRejection(type: string): Reply {
  return { kind: 'error', status: 400, message: `response_format type '${type}' is not supported by this server` };
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let responder: Responder = options.responder ?? (() => reply.verdict());
  const requests: RecordedRequest[] = [];
  const completions: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, receivedAt: Date.now() };
    requests.push(recorded);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions'))
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const format = body?.response_format?.type;
    let answer: Reply;
    if (options.rejectJsonSchema && format === 'json_schema') answer = formatRejection(format);
    else if (options.rejectJsonObject && format === 'json_object') answer = formatRejection(format);
    else {
      completions.push(recorded);
      answer = await responder(recorded, completions.length - 1);
    }
    switch (answer.kind) {
      case 'content':
        return sendJson(res, 200, completionBody(body?.model ?? 'fake', answer.content, answer.usage));
      case 'error':
        return sendJson(
          res,
          answer.status,
          { error: { message: answer.message, type: 'fake_error', code: null, param: null } },
          answer.headers,
        );
      case 'hang':
        return;
      case 'hang-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"id":"chatcmpl-stalled","choices":[');
        return;
      case 'drop':
        req.socket.destroy();
        return;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error) => sendJson(res, 500, { error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    completions: () => completions,
    maxInFlight: () => maxInFlight,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging requests keep their sockets open: end them so close() returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
