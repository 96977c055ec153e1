import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { ReadyTarget } from '../config/server-ready';

/**
 * Playwright's test of whether a webServer is up (its isURLAvailable and isPortUsed, 1.65), for
 * the server guard to run often (see config/server-ready.ts): a GET of the url answering 200–403,
 * redirects followed, `/index.html` asked where `/` is 404; for a port, a connection on 127.0.0.1
 * or ::1.
 */

const MAX_REDIRECTS = 20;

function statusOf(url: URL, rejectUnauthorized: boolean, redirects = 0): Promise<number> {
  return new Promise((resolve) => {
    const get = url.protocol === 'https:' ? https.get : http.get;
    const request = get(url, { headers: { Accept: '*/*' }, rejectUnauthorized }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location && redirects < MAX_REDIRECTS)
        resolve(statusOf(new URL(location, url), rejectUnauthorized, redirects + 1));
      else resolve(status);
    });
    request.on('error', () => resolve(0));
  });
}

async function urlAnswers(url: URL, ignoreHTTPSErrors: boolean): Promise<boolean> {
  let status = await statusOf(url, !ignoreHTTPSErrors);
  if (status === 404 && url.pathname === '/') status = await statusOf(new URL('/index.html', url), !ignoreHTTPSErrors);
  return status >= 200 && status < 404;
}

function connects(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.on('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export async function serverAnswers(target: ReadyTarget): Promise<boolean> {
  if ('url' in target) return urlAnswers(new URL(target.url), target.ignoreHTTPSErrors);
  const answers = await Promise.all([connects(target.port, '127.0.0.1'), connects(target.port, '::1')]);
  return answers.some(Boolean);
}

/** Tests the server until it answers, every 10 ms at first, then less often (never more than 250 ms apart). */
export async function awaitAnswer(target: ReadyTarget): Promise<void> {
  for (let delay = 10; !(await serverAnswers(target)); delay = Math.min(250, delay * 1.5))
    await new Promise((resolve) => setTimeout(resolve, delay));
}
