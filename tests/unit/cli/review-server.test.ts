import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPROVALS_FILE, readApprovals } from '../../../src/approve';
import { portOption, startReviewServer, type ReviewServer } from '../../../src/cli/review-server';
import { imageFile } from '../../../src/cli/review-model';
import { encodeChange } from '../../../src/compare';
import { outputPath } from '../../../src/config/paths';
import { resolveSettings, type Settings } from '../../../src/config/settings';
import { writePng } from '../../support/png';
import { checkpointResult, runOf, testResult } from '../../support/results';

/**
 * The review server's guards on its own: the token, the Host, the Origin, a run replaced under an
 * open page, and paths that try to leave the output folder (a symbolic link included). The whole
 * page in a browser is tests/e2e/review-page.spec.ts.
 */

let dir: string;
let settings: Settings;
let server: ReviewServer;
let token: string;
let origin: string;
const TIMESTAMP = 1_700_000_000_000;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-review-server-'));
  settings = resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {});
  const images = path.join(settings.outputDir, 'images');
  const relative = (file: string) => path.relative(outputPath(settings.outputDir, 'results'), file);
  const baseline = writePng(path.join(images, 'base.png'), 40, 20);
  const current = writePng(path.join(images, 'current.png'), 40, 20, [{ x: 0, y: 0, width: 10, height: 10, rgba: [0, 0, 200, 255] }]);
  const cells = new Uint8Array(3 * 4).fill(200);
  const fingerprint = encodeChange({
    threshold: 0.1,
    regions: [{ kind: 'modified', width: 10, height: 10, cell: 5, base: cells, current: cells.map(() => 30) }],
    lines: [],
  });
  const contact = checkpointResult({
    name: 'contact',
    reason: 'no evaluator configured',
    baselineImage: relative(baseline),
    currentImage: relative(current),
    diffImage: relative(current),
    diffMetrics: { pixelDiffPercent: 12.5, changedRegions: [{ x: 0, y: 0, width: 10, height: 10, kind: 'modified' }] },
    group: 'g1',
    fingerprint,
    explanation: {
      // One rule restyled two siblings alike: the page says it once.
      changes: [1, 2].map((n) => ({
        kind: 'changed' as const,
        element: '.remove-btn',
        path: `html>body>ul>li:${n}>button.remove-btn`,
        box: { x: 0, y: n * 10, width: 10, height: 10 },
        properties: [{ property: 'padding', before: '5px 10px', after: '8px 16px' }],
        cause: null,
        words: '.remove-btn: padding 5px 10px → 8px 16px — no changed file mentions this element',
      })),
      summary: '',
      note: 'no layout record on the base side',
      unexplained: [{ x: 0, y: 0, width: 10, height: 10, kind: 'modified' }],
      regionCount: 1,
    },
  });
  const run = runOf([testResult(['site.spec.ts', 'about'], [contact])]);
  run.groups = [
    {
      id: 'g1',
      fingerprint,
      members: ['site.spec.ts › about › contact'],
      alsoIn: [],
      status: 'needs_review',
      reason: 'no evaluator configured',
      evaluation: null,
      explanation: null,
    },
  ];
  fs.mkdirSync(outputPath(settings.outputDir, 'results'), { recursive: true });
  fs.writeFileSync(outputPath(settings.outputDir, 'latestResults'), JSON.stringify({ ...run, timestamp: TIMESTAMP }));
  server = await startReviewServer(settings, {});
  const url = new URL(server.url);
  token = url.searchParams.get('token')!;
  origin = url.origin;
});

afterEach(async () => {
  await server.close();
});

function request(
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${pathname}`, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const decide = (headers: Record<string, string>, run = TIMESTAMP) =>
  request('/api/decisions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ run, entry: 'g1', decision: 'approved', reason: 'fine' }),
  });

describe('the review server', () => {
  it('shows what changed in words beside the images, and the regions the words do not explain, to outline apart', async () => {
    const page = await request(`/?token=${token}`);
    expect(page.body).toContain('".remove-btn ×2: padding 5px 10px → 8px 16px — no changed file mentions this element"');
    expect(page.body).not.toContain('".remove-btn: padding');
    expect(page.body).toContain('Not explained: no layout record on the base side');
    expect(page.body).toContain('"1 of 1 changed region not explained: at (0, 0) 10×10"');
    expect(page.body).toContain('"unexplained":[{"x":0,"y":0,"width":10,"height":10,"kind":"modified"}]');
  });

  it('listens on loopback, and serves the page only with its token', async () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect((await request('/')).status).toBe(403);
    expect((await request(`/?token=${token}x`)).status).toBe(403);
    const page = await request(`/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('"title":"site.spec.ts › about › contact"');
  });

  it('refuses a decision without the token, from another origin or for another host, and records one from the page', async () => {
    const own = { origin, 'x-visual-uat-token': token };
    expect((await decide({ origin })).status).toBe(403);
    expect((await decide({ ...own, origin: 'http://attacker.example' })).status).toBe(403);
    expect((await decide({ 'x-visual-uat-token': token })).status).toBe(403);
    expect((await decide({ ...own, host: 'attacker.example', origin: 'http://attacker.example' })).status).toBe(403);
    expect(readApprovals(settings.configDir)).toEqual([]);
    const recorded = await decide(own);
    expect(recorded.status).toBe(200);
    const decided = {
      test: 'site.spec.ts › about',
      checkpoint: 'contact',
      unexplained: '1 of 1 changed region not explained: at (0, 0) 10×10',
    };
    expect(readApprovals(settings.configDir)).toEqual([
      expect.objectContaining({ decision: 'approved', scope: 'change', reason: 'fine', checkpoints: [expect.objectContaining(decided)] }),
    ]);
  });

  it('refuses a decision while the approvals file does not read, with its one line, and leaves the file as it was', async () => {
    const file = path.join(settings.configDir, APPROVALS_FILE);
    const broken = '{"version": 2, "aprovals": []}\n';
    fs.writeFileSync(file, broken);
    const answer = await decide({ origin, 'x-visual-uat-token': token });
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.body).error).toMatch(
      /^visual-uat: .*visual-uat\.approvals\.json: "approvals" is missing \(found "aprovals"\): fix it to /,
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
  });

  it('refuses a decision taken on a run that a newer one replaced', async () => {
    const answer = await decide({ origin, 'x-visual-uat-token': token }, TIMESTAMP - 1);
    expect(answer.status).toBe(409);
    expect(JSON.parse(answer.body).error).toBe('a newer run has replaced the one this page shows: reload the page');
    expect(readApprovals(settings.configDir)).toEqual([]);
  });

  it('serves PNGs of the output folder only: not by .., not by a symbolic link, not another kind of file', () => {
    const outside = writePng(path.join(dir, 'outside.png'), 4, 4);
    fs.symlinkSync(outside, path.join(settings.outputDir, 'images', 'link.png'));
    expect(imageFile(settings, '../images/current.png')).toBe(fs.realpathSync(path.join(settings.outputDir, 'images', 'current.png')));
    expect(imageFile(settings, '../images/link.png')).toBeNull();
    expect(imageFile(settings, '../../outside.png')).toBeNull();
    expect(imageFile(settings, outside)).toBeNull();
    expect(imageFile(settings, 'latest.json')).toBeNull();
    expect(imageFile(settings, '../images/missing.png')).toBeNull();
  });
});

describe('starting the review server', () => {
  it('says what to do when the port is taken or is not a port', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startReviewServer(settings, { port })).rejects.toThrow(
      `visual-uat review: 127.0.0.1:${port} is in use: pick another --port, or leave it out for a free one`,
    );
    expect(() => portOption('eighty')).toThrow(
      'visual-uat review: --port eighty is not a port: give a number from 1 to 65535, or leave it out for a free one',
    );
    expect(() => portOption('70000')).toThrow(/--port 70000 is not a port/);
    expect(portOption('8080')).toBe(8080);
  });
});
