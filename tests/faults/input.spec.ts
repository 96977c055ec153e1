import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { DEMO_STATUSES, checkpoint, readLatest, statuses, gateExit } from '../support/results';

/** Hostile and broken input: refused names, Unicode on disk, corrupt baselines in the cache. */

const HOSTILE_SPEC = `import { test } from 'visual-uat';

for (const name of ['../escape', 'a/b', 'back\\\\slash', 'nul\\u0000byte', 'x'.repeat(101), '']) {
  test(\`refuses \${JSON.stringify(name).slice(0, 20)}\`, async ({ page, screenshotCheckpoint }) => {
    await page.goto('/');
    await screenshotCheckpoint(name);
  });
}

test('refuses a duplicate', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/');
  await screenshotCheckpoint('twice');
  await screenshotCheckpoint('twice');
});

test.describe('Café ☕ — 日本語', () => {
  test('größe', async ({ page, screenshotCheckpoint }) => {
    await page.goto('/');
    await screenshotCheckpoint('überschrift-✓', { locator: page.locator('h1') });
  });
});
`;

function pngsOutside(dir: string, inside: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.png') && !file.startsWith(inside) && !/^(node_modules|test-results|playwright-report)\//.test(file));
}

test('hostile checkpoint names are refused with one line each, nothing is written outside the output folder; Unicode works', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  fs.writeFileSync(path.join(repo, 'tests', 'hostile.spec.ts'), HOSTILE_SPEC);
  const run = runPlaywright(repo, ['test', 'tests/hostile.spec.ts']);
  expect(run.status).toBe(1);
  const output = run.stdout + run.stderr;
  expect(output).toContain('7 failed');
  expect(output).toContain('1 passed');
  expect(output).toMatch(/screenshotCheckpoint: .*"\.\.\/escape"/);
  expect(output).toContain('screenshotCheckpoint: "twice" is already used in this test: checkpoint names must be unique within a test');
  expect(pngsOutside(repo, '.visual-uat')).toEqual([]);
  expect(git(repo, ['status', '--porcelain'])).toBe('?? tests/hostile.spec.ts');

  const unicode = checkpoint(readLatest(repo), 'größe', 'überschrift-✓');
  expect(unicode.test.titlePath).toEqual(['hostile.spec.ts', 'Café ☕ — 日本語', 'größe']);
  expect(unicode.checkpoint.status).toBe('unchanged');
  expect(fs.existsSync(path.resolve(repo, '.visual-uat', 'results', unicode.checkpoint.currentImage!))).toBe(true);
});

test("a corrupt baseline in the store is caught by its seal before any test: the suite's index is not used, and the test renders on the base again", async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const first = runPlaywright(repo, ['test']);
  expect(first.status, first.stdout + first.stderr).toBe(gateExit(readLatest(repo)));
  const store = path.join(repo, '.visual-uat', 'baseline-store');
  const [stored] = fs
    .readdirSync(store, { recursive: true })
    .map(String)
    .filter((file) => path.basename(file) === 'landing.png');
  fs.writeFileSync(path.join(store, stored), fs.readFileSync(path.join(store, stored)).subarray(0, 100));

  const rebuilt = runPlaywright(repo, ['test']);
  expect(rebuilt.status, rebuilt.stdout + rebuilt.stderr).toBe(gateExit(readLatest(repo)));
  expect(rebuilt.stdout).not.toContain("baselines from the store's index");
  expect(rebuilt.stdout).toContain('visual-uat: the store\'s index of this suite is not used: the stored image of "landing" is altered');
  expect(rebuilt.stdout).toMatch(
    /visual-uat: baseline: 1 of \d+ tests rendered on the base \(the stored image of "landing" is altered: [^)]+\); \d+ from the store/,
  );
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  // The entry rendered again is stored, and the next run is warm.
  expect(runPlaywright(repo, ['test']).stdout).toContain("visual-uat: baselines from the store's index of this suite");
});

test('a11y without @axe-core/playwright installed fails the test with the install command', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  fs.writeFileSync(
    path.join(repo, 'tests', 'a11y.spec.ts'),
    `import { test } from 'visual-uat';
test('a11y', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/');
  await screenshotCheckpoint('landing', { a11y: true });
});
`,
  );
  const run = runPlaywright(repo, ['test']);
  expect(run.status).toBe(1);
  expect(run.stdout).toContain(
    'screenshotCheckpoint: a11y checks need @axe-core/playwright, which is not installed: npm install -D @axe-core/playwright@~4.13.0',
  );
  // The suite's other checkpoints compared as ever.
  expect(statuses(readLatest(repo))).toMatchObject(DEMO_STATUSES);
});
