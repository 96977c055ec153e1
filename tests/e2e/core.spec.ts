import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { addWorkInProgress, repoState, type RepoState, extraWorktrees } from '../support/repo-state';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

test.describe.configure({ mode: 'serial' });

let repo: string;
let before: RepoState;
let run: ReturnType<typeof runPlaywright>;

test.beforeAll(async () => {
  repo = createFixtureRepo({ fixture: 'demo-app' });
  addWorkInProgress(repo);
  before = repoState(repo);
  run = runPlaywright(repo, ['test']);
});

test('a run pairs checkpoints: unchanged page, changed page, changed element', async () => {
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'home › landing': 'unchanged',
    'plans › plans': 'needs_review',
    'plans › header': 'unchanged',
    'about › contact': 'needs_review',
    'pricing › pricing-header': 'unchanged',
  });
  const plans = checkpoint(results, 'plans', 'plans');
  expect(plans.test.status).toBe('needs_review');
  expect(plans.test.baselineAvailable).toBe(true);
  expect(plans.checkpoint.reason).toBe('no evaluator configured');
  expect(plans.checkpoint.diffMetrics!.pixelDiffPercent).toBeGreaterThan(0);
  expect(plans.checkpoint.diffMetrics!.changedRegions.length).toBeGreaterThan(0);
  const resultsDir = path.join(repo, '.visual-uat', 'results');
  for (const image of [plans.checkpoint.baselineImage, plans.checkpoint.currentImage, plans.checkpoint.diffImage])
    expect(fs.existsSync(path.resolve(resultsDir, image!)), `${image} opens`).toBe(true);
  const landing = checkpoint(results, 'home', 'landing');
  expect(landing.checkpoint.diffImage).toBeNull();
  expect(landing.test.status).toBe('passed');
  expect(results).toMatchObject({
    baseBranch: 'main',
    baseCommit: git(repo, ['rev-parse', 'main']),
    currentBranch: 'feature/pricing',
    currentCommit: git(repo, ['rev-parse', 'HEAD']),
    dirty: true,
    summary: { total: 4, passed: 2, failed: 0, errored: 0, needsReview: 2 },
  });
  expect(Object.keys(results.evaluator)).toEqual([
    'model',
    'calls',
    'cacheHits',
    'inputTokens',
    'cachedInputTokens',
    'outputTokens',
    'costUSD',
  ]);
  const timestamped = fs.readdirSync(resultsDir).filter((f) => /^\d+\.json$/.test(f));
  expect(timestamped).toHaveLength(1);
  expect(run.stdout).toContain('visual-uat: 5 checkpoints: 2 needs_review, 3 unchanged');
});

test('the user repository is untouched and no worktree is left', async () => {
  expect(repoState(repo)).toEqual(before);
  expect(extraWorktrees(repo)).toEqual([]);
});

test('the HTML report shows the verdict and the image-diff viewer', async ({ page }) => {
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await expect(page.getByRole('link', { name: 'site › pricing › plans' }).locator('xpath=../..')).toContainText('needs_review');
  await page.getByRole('link', { name: 'site › pricing › plans' }).click();
  await expect(page.getByTestId('test-case-annotations')).toContainText('needs_review');
  await expect(page.getByTestId('test-case-annotations')).toContainText('plans: no evaluator configured');
  await expect(page.getByText('Image mismatch: plans.png')).toBeVisible();
  for (const tab of ['Diff', 'Actual', 'Expected', 'Side by side', 'Slider'])
    await expect(page.getByText(tab, { exact: true }).first()).toBeVisible();
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}#?q=annot:needs_review`);
  await expect(page.getByRole('link', { name: 'site › pricing › plans' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'site › about' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'site › home' })).toHaveCount(0);
});

test('the default gate fails an unreviewed change, in the exit code and in the report, with the command that settles it; failOn opts out', async ({
  page,
}) => {
  expect(run.status, run.stdout + run.stderr).toBe(1);
  expect(run.stderr).toContain(
    'visual-uat: 2 checkpoints with a status in failOn (regression, needs_review): approve the intended changes with npx visual-uat review (or npx visual-uat approve --all), commit visual-uat.approvals.json, and run again',
  );
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}#?q=s:failed`);
  await expect(page.getByRole('link', { name: 'site › pricing › plans' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'site › about' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'site › home' })).toHaveCount(0);
  await page.getByRole('link', { name: 'site › pricing › plans' }).click();
  await expect(
    page.getByText(
      'visual-uat: checkpoint "plans" is needs_review (in failOn): no evaluator configured. If the change is intended: npx visual-uat approve "site.spec.ts › site › pricing › plans › plans" (or npx visual-uat review), then commit visual-uat.approvals.json',
    ),
  ).toBeVisible();

  const config = path.join(repo, 'playwright.config.ts');
  const original = fs.readFileSync(config, 'utf8');
  fs.writeFileSync(config, original.replace("{ baseBranch: 'main' }", "{ baseBranch: 'main', failOn: ['regression'] }"));
  try {
    const optedOut = runPlaywright(repo, ['test']);
    expect(optedOut.status, optedOut.stdout + optedOut.stderr).toBe(0);
    expect(statuses(readLatest(repo))['plans › plans']).toBe('needs_review');
  } finally {
    fs.writeFileSync(config, original);
  }
});
