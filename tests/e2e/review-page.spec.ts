import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, PACKAGE_ROOT } from '../../scripts/fixture-repo';
import { readLabels } from '../../src/approve';
import { runPlaywrightAsync } from '../support/playwright-run';
import { startReview, type Review } from '../support/review-run';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * `npx visual-uat review` in a real browser, on the groups-app (a footer change on three pages, a
 * button change, a headline change): the page, its views, Approve with the button and with the
 * keyboard, Reject, what the next run makes of them, and the requests it must refuse.
 */

interface Answer {
  status: number;
  body: string;
}

/** A raw HTTP request: headers exactly as given (a browser would not let a page forge Host). */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

test.describe.configure({ mode: 'serial' });

let repo: string;
let approvalsFile: string;
let review: Review;

test.beforeAll(() => {
  repo = createFixtureRepo({ fixture: 'groups-app' });
  approvalsFile = path.join(repo, 'visual-uat.approvals.json');
});

test.afterAll(async () => {
  await review?.stop();
});

test('before any run the page says so, and Ctrl-C stops the server', async ({ page }) => {
  review = await startReview(repo);
  expect(review.output()).toContain('visual-uat review: no run yet: the page says so until one has finished (then reload it)');
  await page.goto(review.url);
  await expect(page.getByRole('status')).toHaveText(
    'No run yet (.visual-uat/results/latest.json does not exist): run npx visual-uat test (or npx playwright test), then reload this page.',
  );
  expect(await review.stop()).toBe(0);
  expect(review.output()).toContain('visual-uat review: Ctrl-C stops it');
  expect(review.output()).toContain('visual-uat review: stopped');
});

test('a request without the token, from another origin or to another host is refused with 403, and changes nothing', async () => {
  const run = await runPlaywrightAsync(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toContain('review:      npx visual-uat review');
  review = await startReview(repo);
  const url = new URL(review.url);
  const token = url.searchParams.get('token')!;
  const origin = url.origin;
  const body = JSON.stringify({ run: readLatest(repo).timestamp, entry: 'g1', decision: 'approved', reason: null });
  const json = { 'content-type': 'application/json' };
  const refused = [
    await request(`${origin}/`),
    await request(`${origin}/?token=wrong-${token}`),
    await request(`${origin}/api/decisions`, { method: 'POST', headers: { ...json, origin }, body }),
    await request(`${origin}/api/decisions`, {
      method: 'POST',
      headers: { ...json, origin: 'http://evil.example', 'x-visual-uat-token': token },
      body,
    }),
    await request(`${origin}/api/decisions`, { method: 'POST', headers: { ...json, 'x-visual-uat-token': token }, body }),
    await request(`${origin}/api/decisions`, {
      method: 'POST',
      headers: { ...json, host: `evil.example:${url.port}`, origin: `http://evil.example:${url.port}`, 'x-visual-uat-token': token },
      body,
    }),
  ];
  expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403]);
  expect(refused[3].body).toContain('a decision must come from this page (Origin http://evil.example)');
  expect(fs.existsSync(approvalsFile)).toBe(false);
  // Paths never leave the output folder.
  for (const file of [
    '../../../../../../etc/hosts',
    '../../package.json',
    '../results/latest.json',
    `${path.join(repo, 'public', 'index.html')}`,
  ])
    expect((await request(`${origin}/image?path=${encodeURIComponent(file)}&token=${token}`)).status).toBe(404);
  const image = readLatest(repo).tests[0].checkpoints[0].currentImage!;
  expect((await request(`${origin}/image?path=${encodeURIComponent(image)}&token=${token}`)).status).toBe(200);
});

test('approve a group with the button, another change with the keyboard, reject one', async ({ page }) => {
  // The HTML report names the review page where a decision is needed.
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'news' }).first().click();
  await expect(page.getByTestId('test-case-annotations')).toContainText('— approve or reject: npx visual-uat review');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(review.url);
  const entries = page.locator('article');
  await expect(entries).toHaveCount(3);
  const footer = page.getByRole('article', { name: 'group g1 · 3 checkpoints' });
  await expect(entries.first()).toHaveAttribute('aria-label', 'group g1 · 3 checkpoints');
  await expect(footer.getByRole('button', { name: /site\.spec\.ts › about › page/ })).toBeVisible();
  await expect(footer.locator('.status')).toHaveText('needs_review');
  await expect(footer.getByText('ARIA snapshot diff')).toBeVisible();
  // Every view of the images, loaded lazily.
  await expect(footer.getByRole('img', { name: 'current' })).toHaveAttribute('loading', 'lazy');
  await footer.getByRole('button', { name: 'Slider' }).click();
  await expect(footer.getByRole('slider', { name: 'Slider position' })).toBeVisible();
  await footer.getByRole('button', { name: 'Overlay' }).click();
  await expect(footer.getByRole('slider', { name: 'Overlay opacity' })).toBeVisible();
  await footer.getByRole('button', { name: 'Diff' }).click();
  await expect(footer.getByRole('img', { name: 'diff' })).toBeVisible();
  await footer.getByRole('button', { name: 'Side by side' }).click();
  await expect(footer.getByRole('img', { name: 'baseline' })).toBeVisible();
  // The screenshot docs/review.md shows: VISUAL_UAT_DOCS_SCREENSHOTS=1 takes it again.
  if (process.env.VISUAL_UAT_DOCS_SCREENSHOTS) {
    await expect(footer.getByRole('img', { name: 'current' })).toHaveJSProperty('complete', true);
    await page.screenshot({
      path: path.join(PACKAGE_ROOT, 'docs', 'images', 'review-page.png'),
      fullPage: false,
      clip: { x: 0, y: 0, width: 1280, height: 900 },
    });
  }

  await footer.getByRole('textbox', { name: 'Reason' }).fill('the new footer');
  await footer.getByRole('button', { name: 'Approve' }).click();
  await expect(footer.getByRole('status')).toHaveText(
    /^Approved by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d: the new footer \(applies from the next run\)$/,
  );
  let approvals = JSON.parse(fs.readFileSync(approvalsFile, 'utf8')).approvals;
  expect(approvals).toHaveLength(1);
  expect(approvals[0]).toMatchObject({ verdict: 'approved', scope: 'change', reason: 'the new footer' });
  expect(approvals[0].checkpoints).toHaveLength(3);

  // The next entry is now the current one: a approves it, then r rejects the last.
  const second = entries.nth(1);
  const third = entries.nth(2);
  await expect(second).toHaveAttribute('aria-current', 'true');
  const secondTitle = await second.getAttribute('aria-label');
  const thirdTitle = await third.getAttribute('aria-label');
  await page.keyboard.press('a');
  await expect(second.getByRole('status')).toHaveText(/^Approved by /);
  await expect(third).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('r');
  await expect(third.getByRole('status')).toHaveText(/^Rejected by /);
  // k goes back, j forward.
  await page.keyboard.press('k');
  await expect(second).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('j');
  await expect(third).toHaveAttribute('aria-current', 'true');

  approvals = JSON.parse(fs.readFileSync(approvalsFile, 'utf8')).approvals;
  const byCheckpoint = Object.fromEntries(
    approvals.flatMap((a: { verdict: string; checkpoints: { test: string; checkpoint: string }[] }) =>
      a.checkpoints.map((c) => [`${c.test} › ${c.checkpoint}`, a.verdict]),
    ),
  );
  const title = (label: string | null) => `site.spec.ts › ${label!.replace(/^site\.spec\.ts › /, '')}`;
  expect(byCheckpoint).toEqual({
    'site.spec.ts › home › page': 'approved',
    'site.spec.ts › about › page': 'approved',
    'site.spec.ts › pricing › page': 'approved',
    [title(secondTitle)]: 'approved',
    [title(thirdTitle)]: 'rejected',
  });
  // Each decision on the page leaves one labelled case for visual-uat eval, as approve and reject do.
  const labels = readLabels(path.join(repo, '.visual-uat', 'labels')).cases.map(
    ({ case: c }) => `${c.label} ${c.source} ${[...c.test.titlePath, c.checkpoint].join(' › ')}`,
  );
  expect(labels).toHaveLength(3);
  expect(labels).toContain(`intended approve ${title(secondTitle)}`);
  expect(labels).toContain(`regression reject ${title(thirdTitle)}`);
  await review.stop();

  // The next run: approvals make their checkpoints changed, the rejection a regression, whose image stayed the same.
  const [rejectedTest, rejectedName] = thirdTitle!.replace(/^site\.spec\.ts › /, '').split(' › ');
  const image = () =>
    fs.readFileSync(
      path.join(repo, '.visual-uat', 'results', checkpoint(readLatest(repo), rejectedTest, rejectedName).checkpoint.currentImage!),
    );
  const before = image();
  const run = await runPlaywrightAsync(repo, ['test']);
  expect(run.status, 'a rejected change fails the run').toBe(1);
  const after = readLatest(repo);
  const [approvedTest, approvedName] = secondTitle!.replace(/^site\.spec\.ts › /, '').split(' › ');
  expect(statuses(after)).toEqual({
    'home › page': 'changed',
    'about › page': 'changed',
    'pricing › page': 'changed',
    [`${approvedTest} › ${approvedName}`]: 'changed',
    [`${rejectedTest} › ${rejectedName}`]: 'regression',
  });
  const rejected = checkpoint(after, rejectedTest, rejectedName).checkpoint;
  expect(rejected.reason).toMatch(/^rejected by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d$/);
  expect(image().equals(before)).toBe(true);
  expect(run.stdout).toContain('4 checkpoints approved earlier (visual-uat.approvals.json)');
  expect(run.stdout).toContain('1 checkpoint rejected earlier (visual-uat.approvals.json): a regression until the change is gone');
});

test('the page shows the decisions the approvals file holds, and an empty state when nothing changed', async ({ page }) => {
  review = await startReview(repo);
  await page.goto(review.url);
  await expect(page.getByRole('article', { name: 'group g1 · 3 checkpoints' }).getByRole('status')).toHaveText(
    /^Approved by .*: the new footer/,
  );
  await expect(page.locator('article .status').first()).toHaveText('regression');
  await review.stop();

  // With the decisions committed, the branch compared with itself: nothing changed.
  git(repo, ['add', 'visual-uat.approvals.json']);
  git(repo, ['commit', '-q', '-m', 'Review decisions']);
  const same = await runPlaywrightAsync(repo, ['test'], { VISUAL_UAT_BASE: 'HEAD' });
  expect(same.status, same.stdout + same.stderr).toBe(gateExit(readLatest(repo)));
  review = await startReview(repo);
  await page.goto(review.url);
  await expect(page.getByRole('status')).toHaveText('Nothing to review: all 5 checkpoints of this run are unchanged.');
});
