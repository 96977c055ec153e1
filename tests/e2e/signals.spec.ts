import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { reply, startFakeOpenAI, userTextOf, type FakeOpenAI } from '../support/fake-openai';
import { runPlaywrightAsync, type AsyncRun } from '../support/playwright-run';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';
import { filesUnder } from '../support/files';

/**
 * Signals beyond pixels, end to end: the signals-app fixture's feature commit inserts a notice
 * (text), an image without alt (an a11y violation), a console error and a request to a missing
 * URL on the shop page, and only a console error on the status page (pixel-identical). Both
 * versions share a console error (with a number that differs on every load), a 404, an error whose
 * stack names the bundle by a hash and query that are new on every server start, and an absolute
 * link built from location.origin; the status page's failed heartbeat moves to the next checkpoint.
 */

const API_KEY = 'sk-e2e-signals-NEVER-WRITTEN';
const QUERY_SECRET = 's3cr3t-abc';

test.describe('signals beyond pixels', () => {
  test.describe.configure({ mode: 'serial' });

  let server: FakeOpenAI;
  let repo: string;
  let run: AsyncRun;

  test.beforeAll(async () => {
    // The model approves everything it sees, confidently.
    server = await startFakeOpenAI({
      responder: () => reply.verdict({ pass: true, confidence: 0.95, reason: 'A promotion notice was added, as intended.' }),
    });
    repo = createFixtureRepo({ fixture: 'signals-app', branch: 'feature/notice' });
    run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    console.log(`signals run: ${run.durationMs} ms, ${server.completions().length} calls`);
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('a text insertion shows in the ARIA diff', async () => {
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const { signals } = checkpoint(readLatest(repo), 'shop', 'products').checkpoint;
    expect(signals.ariaDiff).toContain('+  - paragraph: Free shipping on all orders this week');
    expect(signals.ariaDiff).toContain('+  - img');
    expect(signals.ariaDiff).toMatch(/^@@ -1,\d+ \+1,\d+ @@/);
    // Only the inserted lines are marked.
    expect(signals.ariaDiff!.split('\n').filter((line) => /^[+-]/.test(line))).toHaveLength(2);
  });

  test('new console errors and failed requests are reported once; shared ones are not', async () => {
    const results = readLatest(repo);
    const shop = checkpoint(results, 'shop', 'products').checkpoint.signals;
    expect(shop.newConsoleErrors).toEqual(['console.error: checkout: widget failed to start']);
    // Same-origin as a path (base and current run on different ports), query values dropped.
    expect(shop.newFailedRequests).toEqual(['GET /api/recommendations?token=… → 404']);
    const status = checkpoint(results, 'status', 'status').checkpoint.signals;
    expect(status.newConsoleErrors).toEqual(['console.error: status: feed unavailable']);
    expect(status.newFailedRequests).toEqual([]);
    const everything = JSON.stringify(results);
    expect(everything).not.toContain('analytics: tracker blocked');
    expect(everything).not.toContain('pixel.gif');
  });

  test('dev-server noise is not new: hashed bundle names, queries and ports, origins in links, a request seen at another checkpoint', async () => {
    const results = readLatest(repo);
    for (const name of ['status', 'refreshed']) {
      const { signals } = checkpoint(results, 'status', name).checkpoint;
      expect(signals.ariaDiff, name).toBeNull();
      expect(signals.newConsoleErrors.filter((e) => e.includes('chart'))).toEqual([]);
    }
    expect(checkpoint(results, 'status', 'refreshed').checkpoint.signals.newFailedRequests).toEqual([]);
    expect(statuses(results)['status › refreshed']).toBe('unchanged');
    expect(JSON.stringify(results)).not.toContain('chart: renderer unavailable');
  });

  test('an a11y violation introduced in current is reported with its rule id', async () => {
    const results = readLatest(repo);
    expect(checkpoint(results, 'shop', 'products').checkpoint.signals.newA11yViolations).toContainEqual({
      id: 'image-alt',
      impact: 'critical',
      targets: ['img'],
    });
    expect(checkpoint(results, 'status', 'status').checkpoint.signals.newA11yViolations).toEqual([]);
  });

  test('a pixel-identical checkpoint with a new console error stays unchanged but is annotated', async ({ page }) => {
    expect(statuses(readLatest(repo))['status › status']).toBe('unchanged');
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'status', exact: true }).click();
    const annotations = page.getByTestId('test-case-annotations');
    await expect(annotations).toContainText('console-errors');
    await expect(annotations).toContainText('status: console.error: status: feed unavailable');
    await expect(annotations).not.toContainText('failed-requests');
  });

  test('a changed checkpoint with new signals is not approved even when the evaluator says pass', async ({ page }) => {
    const { checkpoint: products } = checkpoint(readLatest(repo), 'shop', 'products');
    expect(server.completions()).toHaveLength(1);
    expect(products.evaluation).toMatchObject({ pass: true, confidence: 0.95 });
    expect(products.status).toBe('needs_review');
    expect(products.reason).toBe(
      'A promotion notice was added, as intended. Not approved: 1 new console error, 1 new failed request, 1 new accessibility violation.',
    );
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'shop', exact: true }).click();
    const annotations = page.getByTestId('test-case-annotations');
    await expect(annotations).toContainText('needs_review');
    await expect(annotations).toContainText('failed-requests');
    await expect(annotations).toContainText('products: GET /api/recommendations?token=… → 404');
    await expect(annotations).toContainText('a11y-violations');
    await expect(annotations).toContainText('products: image-alt (critical): img');
    await expect(page.getByText('products-aria.diff')).toBeVisible();
  });

  test('the evaluator gets the project instructions, the ARIA diff and the new signals', async () => {
    const request = server.completions()[0];
    const system = request.body.messages.find((m: { role: string }) => m.role === 'system').content as string;
    expect(system).toContain('Shop review rules: the teal notice banner above the products announces promotions and is always intended.');
    const text = userTextOf(request);
    expect(text).toContain('## Beyond pixels');
    expect(text).toContain('when it alone explains the visual difference, decide from it');
    expect(text).toContain('+  - paragraph: Free shipping on all orders this week');
    expect(text).toContain('- console.error: checkout: widget failed to start');
    expect(text).toContain('- GET /api/recommendations?token=… → 404');
    expect(text).toContain('- image-alt (critical): img');
  });

  test('neither the API key nor the query secret is in any file the run wrote', async () => {
    const files = ['.visual-uat', 'playwright-report', 'test-results'].flatMap((dir) => filesUnder(path.join(repo, dir)));
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(API_KEY), file).toBe(false);
      expect(bytes.includes(QUERY_SECRET), file).toBe(false);
    }
  });

  test("failOn: ['signals'] fails the run on any new signal", async () => {
    const failing = await runPlaywrightAsync(repo, ['test'], { SHOP_FAIL_ON: 'regression,signals' });
    expect(failing.status, failing.stdout + failing.stderr).toBe(1);
    expect(failing.stderr).toContain('visual-uat: 2 checkpoints with a status or a new signal in failOn (regression, signals)');
  });
});
