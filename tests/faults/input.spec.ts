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

test('a corrupt baseline in the cache is caught by its seal before any test: the entry is not used, and is rebuilt from the per-test store', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const first = runPlaywright(repo, ['test']);
  expect(first.status, first.stdout + first.stderr).toBe(gateExit(readLatest(repo)));
  const baseline = path.resolve(repo, '.visual-uat', 'results', checkpoint(readLatest(repo), 'home', 'landing').checkpoint.baselineImage!);
  // <entry>/<project>/<test folder>/<name>.png
  const entry = path.dirname(path.dirname(path.dirname(baseline)));
  fs.writeFileSync(baseline, fs.readFileSync(baseline).subarray(0, 100));

  // The per-test store's copy of the image, which the corruption did not reach, serves instead.
  const rebuilt = runPlaywright(repo, ['test']);
  expect(rebuilt.status, rebuilt.stdout + rebuilt.stderr).toBe(gateExit(readLatest(repo)));
  expect(rebuilt.stdout).not.toContain('baselines from cache');
  expect(rebuilt.stdout).toContain('visual-uat: the cached baselines of this suite are not used: the stored image of "landing" is altered');
  expect(rebuilt.stdout).toMatch(/visual-uat: baseline: 0 of \d+ tests rendered on the base; \d+ from the store/);
  expect(fs.existsSync(path.join(entry, 'cache.json'))).toBe(true);
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
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
  expect(run.stdout).toContain('screenshotCheckpoint: a11y checks need @axe-core/playwright, which is not installed: npm install -D @axe-core/playwright@~4.13.0');
  // The suite's other checkpoints compared as ever.
  expect(statuses(readLatest(repo))).toMatchObject(DEMO_STATUSES);
});
