import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, tableRow, gateExit } from '../support/results';

/**
 * A base test that fails after taking a checkpoint: the capture it took is the baseline only when
 * it held still, the reason says so, and its error stays the base's (`baseError`), never the error
 * of the test that passed here. The current tests run against the branch's app, where the feature
 * these tests wait for exists; the base app lacks it, so only the base test fails.
 */

const BADGE_AFTER_CHECKPOINT = `import { test } from 'visual-uat';
test('recommended', async ({ page, screenshotCheckpoint }) => {
  test.setTimeout(10_000);
  await page.goto('/pricing');
  await screenshotCheckpoint('plans');
  // The badge is the branch's: on the base app the test waits for it until its timeout.
  await page.locator('.badge').waitFor();
  await screenshotCheckpoint('badge', { locator: page.locator('.badge') });
});
`;

const TICKING = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clock</title></head>
<body><p class="clock ticking" id="clock">0</p>
<script>let n = 0; setInterval(() => { document.getElementById('clock').textContent = String(++n); }, 16);</script></body></html>
`;
const STILL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Clock</title></head>
<body><p class="clock" id="clock">0</p></body></html>
`;

const CLOCK_SPEC = `import { test, expect } from 'visual-uat';
test('ticker', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/ticker');
  await screenshotCheckpoint('clock', { timeout: 1000 });
  // The base app's clock ticks: its capture never held still, and the test fails here.
  await expect(page.locator('.ticking')).toHaveCount(0, { timeout: 500 });
});
test('cut', async ({ page, screenshotCheckpoint }) => {
  test.setTimeout(4000);
  await page.goto('/ticker');
  // On the base the clock never holds still: the test's timeout ends it in the middle of its retakes.
  await screenshotCheckpoint('clock', { timeout: 20_000 });
});
`;

const TIMED_OUT = 'Test timeout of 10000ms exceeded.';
const COMPARED = `the base test failed after this capture (${TIMED_OUT}); compared with the capture it took`;

/** What the results and the table say of the test that timed out on the base after its first checkpoint. */
function expectComparedWithItsCapture(repo: string, stdout: string): void {
  const results = readLatest(repo);
  const plans = checkpoint(results, 'recommended', 'plans');
  // It passed here: its error is its own (none); the base's, whole, is the base's.
  expect(plans.test).toMatchObject({ status: 'needs_review', error: null, baselineAvailable: false });
  expect(plans.test.baseError).toContain(TIMED_OUT);
  expect(plans.test.baseError).toContain("waiting for locator('.badge')");
  // The demo's own pricing test shows the same change: one group, whose reason leads with the base failure too.
  expect(plans.checkpoint).toMatchObject({
    status: 'needs_review',
    group: 'g1',
    reason: `${COMPARED}; no evaluator configured — same change as 1 other checkpoint (group g1)`,
  });
  expect(plans.checkpoint.baselineImage).not.toBeNull();
  // Its capture completed: its layout record was written, and the change is explained.
  expect(plans.checkpoint.explanation).toMatchObject({ summary: expect.stringContaining('.badge added'), note: null });
  const grouped = `${COMPARED} (recommended.spec.ts › recommended › plans); no evaluator configured`;
  expect(results.groups.find((group) => group.id === 'g1')?.reason).toBe(grouped);
  const fresh = `no baseline: the base test failed before it took this checkpoint (${TIMED_OUT})`;
  expect(checkpoint(results, 'recommended', 'badge').checkpoint).toMatchObject({ status: 'new', baselineImage: null, reason: fresh });
  // The table names the base failure by its first line; the call log stays in the results and the log.
  expect(tableRow(stdout, 'the base test failed after').first).toMatch(
    /^ {2}needs_review +group g1 · 2 checkpoints +the base test failed after/,
  );
  expect(tableRow(stdout, 'the base test failed after').reason).toBe(grouped);
  expect(tableRow(stdout, 'no baseline:').first).toMatch(/^ {2}new +recommended\.spec\.ts › recommended › badge +no baseline:/);
  expect(tableRow(stdout, 'no baseline:').reason).toBe(fresh);
  expect(stdout).not.toContain('waiting for locator');
}

test('a base test that times out after its checkpoint is compared with the capture it took, says so, and lends no error to the test here', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  fs.writeFileSync(path.join(repo, 'tests', 'recommended.spec.ts'), BADGE_AFTER_CHECKPOINT);

  const first = runPlaywright(repo, ['test']);
  // Neither a base failure nor a new or reviewable checkpoint fails the run (failOn: regression).
  expect(first.status, first.stdout + first.stderr).toBe(gateExit(readLatest(repo)));
  // A test that failed on the base is not stored as a baseline (it renders again next time); the demo's four are.
  expect(first.stdout).toContain('baseline store: 4 tests stored');
  expectComparedWithItsCapture(repo, first.stdout);
  expect(fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8')).toContain("waiting for locator('.badge')");

  // The store keeps the failed test for this suite only (no other suite takes a failure as its baseline), with its record: the next run says the same.
  const image = checkpoint(readLatest(repo), 'recommended', 'plans').checkpoint.baselineImage!;
  const record = JSON.parse(fs.readFileSync(path.resolve(repo, '.visual-uat', 'results', image, '..', '..', '..', 'manifest.json'), 'utf8'))
    .tests['recommended.spec.ts › recommended'];
  expect(record).toMatchObject({ status: 'timedOut', checkpoints: ['plans'], unsettled: [], layouts: ['plans'] });
  const cached = runPlaywright(repo, ['test']);
  expect(cached.status, cached.stdout + cached.stderr).toBe(gateExit(readLatest(repo)));
  expect(cached.stdout).toContain("baselines from the store's index of this suite");
  expectComparedWithItsCapture(repo, cached.stdout);
});

test('a base test that fails after a capture that never settled, or in the middle of one, leaves no baseline: the checkpoint is new and names the failure in one line', async () => {
  const repo = createFixtureRepo({
    fixture: 'demo-app',
    prepare: (dir) => fs.writeFileSync(path.join(dir, 'public', 'ticker.html'), TICKING),
  });
  // The branch stopped the clock.
  fs.writeFileSync(path.join(repo, 'public', 'ticker.html'), STILL);
  fs.writeFileSync(path.join(repo, 'tests', 'clock.spec.ts'), CLOCK_SPEC);

  const run = runPlaywright(repo, ['test', 'clock']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  const ticker = checkpoint(results, 'ticker', 'clock');
  expect(ticker.test).toMatchObject({ status: 'passed', error: null, baselineAvailable: false });
  expect(ticker.test.baseError).toContain('toHaveCount');
  // It took its image before it failed, but that image never held still: no baseline.
  expect(ticker.checkpoint).toMatchObject({ status: 'new', baselineImage: null });
  expect(ticker.checkpoint.reason).toMatch(
    /^no baseline: the base test failed after this capture, which never settled \(Error: expect\(locator\)\.toHaveCount\([^\n]*\)$/,
  );
  const cut = checkpoint(results, 'cut', 'clock');
  expect(cut.test).toMatchObject({
    status: 'passed',
    error: null,
    baselineAvailable: false,
    baseError: expect.stringContaining('Test timeout of 4000ms exceeded.'),
  });
  expect(cut.checkpoint).toMatchObject({
    status: 'new',
    baselineImage: null,
    reason: 'no baseline: the base test failed before it took this checkpoint (Test timeout of 4000ms exceeded.)',
  });
  expect(tableRow(run.stdout, 'no baseline: the base test failed after').first).toMatch(
    /^ {2}new +clock\.spec\.ts › ticker › clock +no baseline:/,
  );
  expect(tableRow(run.stdout, 'no baseline: the base test failed before').reason).toBe(
    'no baseline: the base test failed before it took this checkpoint (Test timeout of 4000ms exceeded.)',
  );
});
