import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * .ox.test scripts in a user's repository: the demo app on two branches, its
 * tests/flows/pricing.ox.test registered by defineOxTests, checkpoints taken by the script
 * paired and compared across the base and the working tree like any other.
 */

test.describe.configure({ mode: 'serial' });

let repo: string;
let run: ReturnType<typeof runPlaywright>;

test.beforeAll(async () => {
  repo = createFixtureRepo({ fixture: 'demo-app' });
  // A script the user is still writing (uncommitted): the base pass runs it against main too.
  fs.writeFileSync(
    path.join(repo, 'tests', 'flows', 'pro-plan.ox.test'),
    [
      'navigate url=/pricing',
      'assertVisible role=heading name=Pro',
      'checkpoint name=pro-plan css=".plan:nth-child(2)" intent="The Pro plan card"',
      '',
    ].join('\n'),
  );
  run = runPlaywright(repo, ['test', '--grep', 'pricing|pro-plan']);
});

test('scripted checkpoints are compared across branches', async () => {
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'pricing › pricing-header': 'unchanged',
    'pro-plan › pro-plan': 'needs_review',
    'plans › plans': 'needs_review',
    'plans › header': 'unchanged',
  });
  const pro = checkpoint(results, 'pro-plan', 'pro-plan');
  expect(pro.test.titlePath).toEqual(['flows.spec.ts', 'pro-plan']);
  expect(pro.test.baselineAvailable).toBe(true);
  expect(pro.checkpoint.diffMetrics!.pixelDiffPercent).toBeGreaterThan(0);
  const resultsDir = path.join(repo, '.visual-uat', 'results');
  for (const image of [pro.checkpoint.baselineImage, pro.checkpoint.currentImage, pro.checkpoint.diffImage])
    expect(fs.existsSync(path.resolve(resultsDir, image!)), `${image} opens`).toBe(true);
  const header = checkpoint(results, 'pricing', 'pricing-header');
  expect(header.checkpoint.diffImage).toBeNull();
  expect(run.stdout).toContain('The Pro plan costs $12');
});

test('the HTML report shows the script, one step per line, and the verdict', async ({ page }) => {
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'pro-plan', exact: true }).click();
  await expect(page.getByTestId('test-case-annotations')).toContainText('pro-plan: no evaluator configured');
  await expect(page.getByText('Image mismatch: pro-plan.png')).toBeVisible();
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'pricing', exact: true }).click();
  for (const line of [
    'navigate url=/',
    'assertTitle text="Acme pricing"',
    'getText css=".plan:nth-child(2) .price" store_as=pro_price',
    'checkpoint name=pricing-header',
  ])
    await expect(page.getByText(line, { exact: false }).first()).toBeVisible();
});

test('flows are located in the spec file that calls defineOxTests, in both passes', async () => {
  const listed = runPlaywright(repo, ['test', '--list']);
  expect(listed.stdout).toContain('flows.spec.ts:4:1 › pricing');
  expect(listed.stdout).toContain('flows.spec.ts:4:1 › pro-plan');
  expect(listed.stdout).not.toContain('node_modules');
  const filtered = runPlaywright(repo, ['test', 'tests/flows.spec.ts']);
  expect(filtered.status, filtered.stdout + filtered.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({ 'pricing › pricing-header': 'unchanged', 'pro-plan › pro-plan': 'needs_review' });
  expect(checkpoint(results, 'pro-plan', 'pro-plan').test.baselineAvailable).toBe(true);
});

test('the report places each script step and its checkpoint at the script line', async ({ page }) => {
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'pro-plan', exact: true }).click();
  await expect(page.getByText('pro-plan.ox.test:3').first()).toBeVisible();
  await expect(page.getByText('node_modules')).toHaveCount(0);
});

test('a script error fails its test with the file and line', async () => {
  fs.writeFileSync(
    path.join(repo, 'tests', 'flows', 'broken.ox.test'),
    'navigate url=/pricing\nassertText css=h1 text=Pricing\nclik css=h1\n',
  );
  try {
    const failing = runPlaywright(repo, ['test', '--grep', 'broken']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('tests/flows/broken.ox.test:3: unknown command "clik"');
  } finally {
    fs.rmSync(path.join(repo, 'tests', 'flows', 'broken.ox.test'));
  }
});
