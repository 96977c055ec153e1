import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { DEMO_STATUSES, checkpoint, readLatest, statuses, gateExit } from '../support/results';
import { extraWorktrees } from '../support/repo-state';
import { SERVER_READY_LINE } from '../../src/config/server-ready';

/**
 * A cold run runs in the baseline pass only the tests that can capture a checkpoint: the demo
 * app's suite plus functional tests (one file of them, and one mixed into a file with a visual
 * test), a test that takes its first checkpoint on the branch, and one whose checkpoint is
 * conditional. None of the checkpoints may be lost or mis-paired.
 */

const FUNCTIONAL = `import { expect, test } from 'visual-uat';

test('nav links', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Pricing', exact: true })).toBeVisible();
});

test('the Pro plan is recommended', async ({ page }) => {
  await page.goto('/pricing');
  // True only on the branch: on the base this test would wait out its timeout, then fail.
  await expect(page.locator('.badge')).toHaveText('Recommended', { timeout: 3000 });
});
`;

const MIXED = `import { expect, test } from 'visual-uat';

test('about has a contact button', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('.contact')).toBeVisible();
});

test('about header', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/about');
  await screenshotCheckpoint('about-header', { locator: page.locator('header') });
});

test('badge, when there is one', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/pricing');
  if (await page.locator('.badge').count()) await screenshotCheckpoint('badge', { locator: page.locator('.badge') });
  await screenshotCheckpoint('plans-again', { locator: page.locator('.plans') });
});
`;

test('the baseline pass runs only tests that can capture; every checkpoint is paired as before', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  fs.writeFileSync(path.join(repo, 'tests', 'functional.spec.ts'), FUNCTIONAL);
  fs.writeFileSync(path.join(repo, 'tests', 'mixed.spec.ts'), MIXED);
  // The home test takes a second checkpoint for the first time on this branch.
  const site = path.join(repo, 'tests', 'site.spec.ts');
  fs.writeFileSync(
    site,
    fs
      .readFileSync(site, 'utf8')
      .replace(
        "await screenshotCheckpoint('landing', { intent: 'The landing page introduces Acme' });",
        "await screenshotCheckpoint('landing', { intent: 'The landing page introduces Acme' });\n    await screenshotCheckpoint('landing-footer', { locator: page.locator('footer') });",
      ),
  );
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'More tests']);

  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toContain(
    'visual-uat: the baseline pass runs 6 of 9 tests: the others have no checkpoint call in their sources (checked after the run)',
  );
  const baseLog = fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8');
  expect(baseLog).not.toMatch(/nav links|Pro plan is recommended|contact button/);
  expect(baseLog).toContain('6 passed');
  // The base server's guard told Playwright when it answered (config/server-ready.ts).
  expect(baseLog).toContain(`[WebServer] ${SERVER_READY_LINE}`);

  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'pricing › pricing-header': 'unchanged',
    'home › landing': 'unchanged',
    'home › landing-footer': 'unchanged',
    'plans › plans': 'needs_review',
    'plans › header': 'unchanged',
    'about › contact': 'needs_review',
    'about header › about-header': 'unchanged',
    'badge, when there is one › badge': 'new',
    'badge, when there is one › plans-again': 'needs_review',
  });
  expect(checkpoint(results, 'badge, when there is one', 'badge').checkpoint.reason).toBe(
    'no baseline: the base version does not take this checkpoint',
  );
});

test('on many cores the baseline pass runs beside the current tests, with the same verdicts', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  // This machine has 2 cores: VISUAL_UAT_OVERLAP=1 asks for what 4 and more get by default.
  const run = runPlaywright(repo, ['test'], { VISUAL_UAT_OVERLAP: '1' });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toMatch(/visual-uat: the baseline pass runs beside the current tests \(\d+ tests, 1 worker, on \d+ cores\)/);
  const results = readLatest(repo);
  expect(statuses(results)).toEqual(DEMO_STATUSES);
  expect(results.tests.every((t) => t.baselineAvailable)).toBe(true);
  expect(extraWorktrees(repo)).toEqual([]);
});
