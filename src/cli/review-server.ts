import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DecisionKind } from '../approve';
import type { Settings } from '../config/settings';
import { outputPath } from '../config/paths';
import { ApprovalsFileError } from '../files/approvals-file';
import { groupCheckpoints, groupDecision, groupsShownBy, readLatestRun, recordRunDecisions, reviewer, runCheckpoints } from './latest-run';
import { imageFile, reviewModel, type ReviewDecision } from './review-model';
import { reviewPage } from './review-page';
import { printLine } from '../util/output';

/**
 * `npx visual-uat review`: a page over the latest run with Approve and Reject, served on loopback.
 * A web page open in the same browser must not be able to approve anything, so:
 * - the server listens on 127.0.0.1 unless `--host` says otherwise;
 * - every request must name this server in `Host` (a DNS-rebinding page names its own);
 * - every request carries the random token that only the printed URL contains (the page passes it
 *   on: in the image URLs, and in a header on its decisions);
 * - a request that changes anything must be a JSON POST from the page's own origin (`Origin`);
 * refused requests get 403 and change nothing. Images are served from the output folder only. An
 * approvals file that does not read is a conflict (409, its one line): no decision writes over it.
 */

export interface ServeOptions {
  port?: number;
  host?: string;
  /** Commander's `--no-open`: false means do not open a browser. */
  open?: boolean;
}

export interface ReviewServer {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';
const MAX_BODY = 64 * 1024;

class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sameToken(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The Host values that name this server: its address, and the loopback names when it listens there. */
function allowedHosts(host: string, port: number): Set<string> | null {
  if (host === '0.0.0.0' || host === '::') return null;
  const names =
    host === LOOPBACK || host === 'localhost' || host === '::1'
      ? [LOOPBACK, 'localhost', '[::1]']
      : [host.includes(':') ? `[${host}]` : host];
  return new Set(names.map((name) => `${name}:${port}`));
}

function send(res: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    ...headers,
  });
  res.end(body);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new Refused(413, 'request body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

interface DecisionBody {
  run: number;
  entry: string;
  decision: DecisionKind;
  reason: string | null;
}

function parseDecision(text: string): DecisionBody {
  let body: Partial<DecisionBody>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Refused(400, 'the body is not JSON');
  }
  if (typeof body.run !== 'number' || typeof body.entry !== 'string' || (body.decision !== 'approved' && body.decision !== 'rejected'))
    throw new Refused(
      400,
      'a decision needs run (the run timestamp), entry (a group id, or a checkpoint key for everything it shows) and decision ' +
        '(approved or rejected)',
    );
  return {
    run: body.run,
    entry: body.entry,
    decision: body.decision,
    reason: typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim() : null,
  };
}

/**
 * Records a decision on one entry of the page (a group), or on everything one checkpoint shows
 * (each of its groups, as `approve <checkpoint>` does), through the same function as `approve`
 * and `reject` (approve/decisions.ts), on the run the page shows and no other.
 */
async function decide(settings: Settings, body: DecisionBody): Promise<ReviewDecision> {
  const run = readLatestRun(settings.outputDir);
  if (run.timestamp !== body.run) throw new Refused(409, 'a newer run has replaced the one this page shows: reload the page');
  const checkpoints = runCheckpoints(run, settings.outputDir);
  const group = run.groups.find((g) => g.id === body.entry);
  const checkpoint = group ? undefined : checkpoints.find((c) => c.key === body.entry);
  const groups = group ? [group] : checkpoint ? groupsShownBy(run, checkpoint) : [];
  if (groups.length === 0) throw new Refused(404, `no change ${body.entry} in the latest run`);
  const decider = { by: await reviewer(settings.configDir), at: new Date().toISOString(), reason: body.reason };
  if (groups.some((g) => groupCheckpoints(g, checkpoints).length === 0))
    throw new Refused(409, `the images of ${body.entry} are gone from the output folder: run the tests again`);
  const requests = groups.map((g) => groupDecision(g, checkpoints, body.decision, decider));
  const recorded = recordRunDecisions(settings, run, checkpoints, requests);
  for (const problem of recorded.labelProblems) printLine(problem, 'warning');
  return { decision: body.decision, by: decider.by, at: decider.at, reason: decider.reason };
}

/** `--port`'s value: a port number, or an error that says what to give. */
export function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`visual-uat review: --port ${value} is not a port: give a number from 1 to 65535, or leave it out for a free one`);
  return port;
}

function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  // cmd's `start` takes the URL as it is written, its `&` escaped for cmd.
  const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsVerbatimArguments: process.platform === 'win32' });
  child.on('error', () => printLine(`visual-uat review: could not open a browser (${command}): open the URL above yourself`));
  child.unref();
}

export async function startReviewServer(settings: Settings, options: ServeOptions = {}): Promise<ReviewServer> {
  const token = crypto.randomBytes(24).toString('base64url');
  const host = options.host ?? LOOPBACK;
  let hosts: Set<string> | null = null;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://review.invalid');
    if (hosts && !hosts.has(req.headers.host ?? ''))
      throw new Refused(403, `refused: Host ${req.headers.host ?? '(none)'} is not this server`);
    const given = url.searchParams.get('token') ?? (req.headers['x-visual-uat-token'] as string | undefined);
    if (!sameToken(given, token)) throw new Refused(403, 'refused: open the URL that npx visual-uat review printed (it carries the token)');
    if (req.method === 'GET' && url.pathname === '/') {
      const nonce = crypto.randomBytes(16).toString('base64');
      const csp =
        `default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src ` +
        `'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
      return send(res, 200, 'text/html; charset=utf-8', reviewPage(reviewModel(settings), nonce), {
        'content-security-policy': csp,
        'referrer-policy': 'no-referrer',
      });
    }
    if (req.method === 'GET' && url.pathname === '/image') {
      const file = imageFile(settings, url.searchParams.get('path') ?? '');
      if (!file) throw new Refused(404, 'no such image in the output folder');
      return send(res, 200, 'image/png', fs.readFileSync(file));
    }
    if (req.method === 'POST' && url.pathname === '/api/decisions') {
      const origin = req.headers.origin;
      if (!origin || origin !== `http://${req.headers.host}`)
        throw new Refused(403, `refused: a decision must come from this page (Origin ${origin ?? '(none)'})`);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        throw new Refused(415, 'a decision is sent as application/json');
      const decision = await decide(settings, parseDecision(await readBody(req)));
      return sendJson(res, 200, { decision });
    }
    throw new Refused(404, `no route ${req.method} ${url.pathname}`);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      const status = error instanceof Refused ? error.status : error instanceof ApprovalsFileError ? 409 : 500;
      if (!res.headersSent) sendJson(res, status, { error: error.message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${options.port ?? 0}`;
      if (error.code === 'EADDRINUSE')
        reject(new Error(`visual-uat review: ${where} is in use: pick another --port, or leave it out for a free one`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new Error(`visual-uat review: cannot listen on ${host} (${error.code}): give --host an address of this machine`));
      else reject(error);
    });
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts = allowedHosts(host, port);
  const shownHost = host === '0.0.0.0' || host === '::' ? LOOPBACK : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves until Ctrl-C. */
export async function serveReview(settings: Settings, options: ServeOptions): Promise<void> {
  const server = await startReviewServer(settings, options);
  printLine(`visual-uat review: ${server.url}`);
  if (options.host && options.host !== LOOPBACK && options.host !== 'localhost')
    printLine(`visual-uat review: listening on ${options.host}: anyone who can reach it and has the URL can approve`);
  if (!fs.existsSync(outputPath(settings.outputDir, 'latestResults')))
    printLine('visual-uat review: no run yet: the page says so until one has finished (then reload it)');
  printLine('visual-uat review: Ctrl-C stops it');
  if (options.open !== false) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  printLine('visual-uat review: stopped');
}
