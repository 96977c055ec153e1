import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * Shortcuts save work and never change an answer. The suite-app fixture is shaped like a real
 * suite: a page object behind a tsconfig path alias, a conditional checkpoint the feature no
 * longer takes, functional tests, and a new test for the feature's banner.
 */

const baseLog = (repo: string) => fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8');

test('a page object behind a path alias is compared, and a conditional checkpoint the feature dropped is missing in cold, warm and -u runs', async () => {
  const repo = createFixtureRepo({ fixture: 'suite-app' });

  const cold = runPlaywright(repo, ['test']);
  expect(cold.status, cold.stdout + cold.stderr).toBe(gateExit(readLatest(repo)));
  // The scan follows @pages/home to the page object's capture; the functional tests stay out.
  expect(cold.stdout).toContain('visual-uat: the baseline pass runs 3 of 5 tests');
  expect(cold.stdout).not.toContain('top-up pass');
  const expected = {
    'about › about-header': 'unchanged',
    'about › maintenance-notice': 'missing',
    'home-po › home': 'needs_review',
    'promo banner › promo': 'new',
  };
  expect(statuses(readLatest(repo))).toEqual(expected);

  const warm = runPlaywright(repo, ['test']);
  expect(warm.status, warm.stdout + warm.stderr).toBe(gateExit(readLatest(repo)));
  expect(warm.stdout).toContain("visual-uat: baselines from the store's index of this suite");
  expect(statuses(readLatest(repo))).toEqual(expected);

  const updated = runPlaywright(repo, ['test', '-u']);
  expect(updated.status, updated.stdout + updated.stderr).toBe(gateExit(readLatest(repo)));
  expect(updated.stdout).toContain('baseline pass (--update-snapshots=changed)');
  expect(statuses(readLatest(repo))).toEqual(expected);
  expect(checkpoint(readLatest(repo), 'about', 'maintenance-notice').checkpoint.reason).toMatch(/current/);

  // The page object is part of the test side: an edit to it is a new suite key, not stale baselines.
  const pageObject = path.join(repo, 'tests', 'pages', 'home.ts');
  fs.appendFileSync(pageObject, '// the home page object, kept with the specs\n');
  const edited = runPlaywright(repo, ['test', 'tests/po.spec.ts']);
  expect(edited.status, edited.stdout + edited.stderr).toBe(gateExit(readLatest(repo)));
  expect(edited.stdout).not.toContain("baselines from the store's index");
  expect(statuses(readLatest(repo))).toEqual({ 'home-po › home': 'needs_review' });
});

test('one new test run alone is new with the base failure as its reason, and the run goes on', async () => {
  const repo = createFixtureRepo({ fixture: 'suite-app' });
  const run = runPlaywright(repo, ['test', 'tests/promo.spec.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout + run.stderr).not.toContain('the baseline pass failed');
  const promo = checkpoint(readLatest(repo), 'promo banner', 'promo');
  expect(promo.checkpoint.status).toBe('new');
  expect(promo.test.baselineAvailable).toBe(false);
  expect(promo.checkpoint.reason).toMatch(/^no baseline: .*toBeVisible/);
  expect(baseLog(repo)).toContain('1 failed');
});

test('a checkpoint the scan cannot see gets its baseline from a top-up pass in the same run', async () => {
  const repo = createFixtureRepo({ fixture: 'suite-app' });
  // A shared helper package that uses visual-uat without declaring it: the scan sees a package
  // with no capture in its dependencies, and leaves the test out of the base pass.
  const kit = path.join(repo, 'node_modules', 'shop-test-kit');
  fs.mkdirSync(kit, { recursive: true });
  fs.writeFileSync(path.join(kit, 'package.json'), JSON.stringify({ name: 'shop-test-kit', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(
    path.join(kit, 'index.js'),
    "const { screenshotCheckpoint } = require('visual-uat/playwright');\nexports.snapHeader = (page, name) => screenshotCheckpoint(page, name, { locator: page.locator('header.top') });\n",
  );
  fs.writeFileSync(
    path.join(repo, 'tests', 'hidden.spec.ts'),
    `import { test } from '@playwright/test';
import { snapHeader } from 'shop-test-kit';
test('hidden', async ({ page }) => {
  await page.goto('/about');
  await snapHeader(page, 'hidden-header');
});
`,
  );
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'A test through a helper package']);
  const run = runPlaywright(repo, ['test', 'tests/hidden.spec.ts', 'tests/about.spec.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toMatch(/visual-uat: top-up pass: 1 test took a checkpoint but did not run on the base \(hidden\)/);
  expect(run.stdout).toMatch(/visual-uat: top-up pass done: 1 test in/);
  const hidden = checkpoint(readLatest(repo), 'hidden', 'hidden-header');
  expect(hidden.checkpoint.status).toBe('unchanged');
  expect(hidden.test.baselineAvailable).toBe(true);

  // The top-up joined the suite's index: the next run needs no pass at all.
  const warm = runPlaywright(repo, ['test', 'tests/hidden.spec.ts', 'tests/about.spec.ts']);
  expect(warm.status, warm.stdout + warm.stderr).toBe(gateExit(readLatest(repo)));
  expect(warm.stdout).toContain("visual-uat: baselines from the store's index of this suite");
  expect(warm.stdout).not.toContain('top-up pass');
  expect(checkpoint(readLatest(repo), 'hidden', 'hidden-header').checkpoint.status).toBe('unchanged');

  // The top-up's test is in the store by its sources: without the suite's index, no pass at all.
  const store = path.join(repo, '.visual-uat', 'baseline-store');
  for (const commit of fs.readdirSync(store).filter((name) => /^[0-9a-f]{40}$/.test(name)))
    fs.rmSync(path.join(store, commit, 'suites'), { recursive: true, force: true });
  const fromStore = runPlaywright(repo, ['test', 'tests/hidden.spec.ts', 'tests/about.spec.ts']);
  expect(fromStore.status, fromStore.stdout + fromStore.stderr).toBe(gateExit(readLatest(repo)));
  expect(fromStore.stdout).toMatch(/visual-uat: baseline: 0 of 2 tests rendered on the base; 2 from the store/);
  expect(fromStore.stdout).toContain('visual-uat: baselines from the store');
  // No pass runs: the scan's line, which says how many tests the pass runs, is not printed.
  expect(fromStore.stdout).not.toContain('visual-uat: the baseline pass runs');
  expect(fromStore.stdout).not.toContain('top-up pass');
  expect(checkpoint(readLatest(repo), 'hidden', 'hidden-header').checkpoint.status).toBe('unchanged');
});
