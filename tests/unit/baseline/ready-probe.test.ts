import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitAnswer, serverAnswers } from '../../../src/baseline/ready-probe';
import { readyTarget } from '../../../src/config/server-ready';

/** A server answering each path with the status the table gives it (a redirect's location after a space): 404 elsewhere. */
function serve(statuses: Record<string, string>): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const [status, location] = (statuses[request.url ?? '/'] ?? '404').split(' ');
    response.writeHead(Number(status), location ? { location } : {});
    response.end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const close = () => new Promise<void>((done) => server.close(() => done()));
      resolve({ url: `http://127.0.0.1:${port}`, port, close });
    }),
  );
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function started(statuses: Record<string, string>) {
  const server = await serve(statuses);
  open.push(server.close);
  return server;
}

const at = (url: string) => ({ url, ignoreHTTPSErrors: false });

describe('serverAnswers, as Playwright tests a webServer', () => {
  it('takes 200–403 at the url as up, and a server error or a 404 as not yet', async () => {
    const { url } = await started({ '/ok': '200', '/forbidden': '403', '/starting': '503' });
    expect(await serverAnswers(at(`${url}/ok`))).toBe(true);
    expect(await serverAnswers(at(`${url}/forbidden`))).toBe(true);
    expect(await serverAnswers(at(`${url}/starting`))).toBe(false);
    expect(await serverAnswers(at(`${url}/missing`))).toBe(false);
  });

  it('follows redirects, and asks /index.html where / is 404', async () => {
    const { url } = await started({ '/old': '302 /new', '/new': '200', '/index.html': '200' });
    expect(await serverAnswers(at(`${url}/old`))).toBe(true);
    expect(await serverAnswers(at(`${url}/`))).toBe(true);
  });

  it('takes a port as up when it accepts a connection', async () => {
    const { port, close } = await serve({});
    expect(await serverAnswers({ port })).toBe(true);
    await close();
    expect(await serverAnswers({ port })).toBe(false);
    expect(await serverAnswers(at(`http://127.0.0.1:${port}/`))).toBe(false);
  });

  it('waits until the server answers', async () => {
    const { port, close } = await serve({});
    await close();
    let listening = false;
    const answered = awaitAnswer(at(`http://127.0.0.1:${port}/`)).then(() => listening);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const server = http.createServer((_, response) => response.end());
    open.push(() => new Promise<void>((done) => server.close(() => done())));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    listening = true;
    expect(await answered).toBe(true);
  });
});

describe('readyTarget', () => {
  it("tests an entry's url, else its port; nothing for an entry that waits for its own output or names neither", () => {
    expect(readyTarget({ url: 'https://localhost:41001/app', ignoreHTTPSErrors: true })).toEqual({
      url: 'https://localhost:41001/app',
      ignoreHTTPSErrors: true,
    });
    expect(readyTarget({ port: 41002 })).toEqual({ port: 41002 });
    expect(readyTarget({ url: 'http://localhost:41001', wait: { stdout: /listening on (?<port>\d+)/ } })).toBeNull();
    expect(readyTarget({})).toBeNull();
  });
});
