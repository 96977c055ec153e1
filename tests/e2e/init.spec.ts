import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FIXTURES_DIR, fixtureEnv, git, initRepo, installOnce, packageManagerCli, pluginTarball, provideModules, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * `npx visual-uat init` in a project made from Playwright's own init template (create-playwright's
 * playwright.config.ts, Chromium only), which installs @playwright/test and no TypeScript compiler
 * (visual-uat brings its own).
 */

test.describe.configure({ mode: 'serial' });

const PLAYWRIGHT = JSON.parse(fs.readFileSync(require.resolve('@playwright/test/package.json'), 'utf8')).version as string;
const CREATE_PLAYWRIGHT = ['create-playwright', '1.17.139', 'index.js'] as const;

let repo: string;
let template: string;

/** create-playwright's template as `npm init playwright -- --browser=chromium --lang=ts` writes it: the other browsers commented out. */
function fromTemplate(text: string): string {
  let mode: 'show' | 'comment' = 'show';
  let indent = '';
  return text
    .replace(/\{\{testDir\}\}/g, 'tests')
    .split('\n')
    .flatMap((line) => {
      const begin = /^(\s*)\/\/--begin-(.*)/.exec(line);
      if (begin) {
        [mode, indent] = [begin[2] === 'chromium' ? 'show' : 'comment', begin[1]];
        return [];
      }
      if (line.trim().startsWith('//--end-')) {
        mode = 'show';
        return [];
      }
      return [mode === 'show' ? line : `${line.slice(0, indent.length)}// ${line.slice(indent.length)}`];
    })
    .join('\n');
}

/** What the user fills in after Playwright's init: their server and its URL, uncommented. */
function withServer(config: string): string {
  return config
    .replace("// baseURL: 'http://localhost:3000',", 'baseURL: `http://127.0.0.1:${process.env.DEMO_PORT ?? 3000}`,')
    .replace(/\/\/ webServer: \{[\s\S]*?\/\/ \},/, "webServer: { command: 'node server.js', env: { PORT: process.env.DEMO_PORT ?? '3000' }, url: `http://127.0.0.1:${process.env.DEMO_PORT ?? 3000}`, reuseExistingServer: !process.env.CI },");
}

function init(args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(repo), 'init', ...args], { cwd: repo, env: fixtureEnv(), encoding: 'utf8' });
}

const status = () => git(repo, ['status', '--porcelain']);

test.beforeAll(async () => {
  const createPlaywright = packageManagerCli(...CREATE_PLAYWRIGHT);
  template = fromTemplate(fs.readFileSync(path.join(path.dirname(createPlaywright), 'assets', 'playwright.config.ts'), 'utf8'));
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-init-'));
  const packageJson = { name: 'shop', private: true, devDependencies: { '@playwright/test': PLAYWRIGHT } };
  fs.writeFileSync(path.join(repo, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  provideModules(repo, installOnce(packageJson.devDependencies, pluginTarball()));
  fs.writeFileSync(path.join(repo, 'playwright.config.ts'), withServer(template));
  fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n/test-results/\n/playwright-report/\n');
  fs.cpSync(path.join(FIXTURES_DIR, 'snapshot-suite', 'base', 'server.js'), path.join(repo, 'server.js'));
  fs.mkdirSync(path.join(repo, 'public'));
  fs.writeFileSync(path.join(repo, 'public', 'index.html'), '<!doctype html><html><body style="font-family: sans-serif"><h1>Shop</h1><p>Ten products.</p></body></html>\n');
  fs.mkdirSync(path.join(repo, 'tests'));
  fs.writeFileSync(path.join(repo, 'tests', 'home.spec.ts'), "import { test, expect } from 'visual-uat';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page).toHaveScreenshot();\n});\n");
  initRepo(repo, "Playwright's init template, a page and its test");
});

test('init --dry-run shows the edit, init makes it: config wrapped, .visual-uat/ ignored, a workflow, the next commands', async () => {
  const dry = init(['--dry-run', '--github-actions']);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toContain("- import { defineConfig, devices } from '@playwright/test';\n+ import { defineConfig, devices } from '@playwright/test';\n+ import { withVisualUat } from 'visual-uat';");
  expect(dry.stdout).toContain('- export default defineConfig({\n+ export default withVisualUat(defineConfig({');
  expect(dry.stdout).toContain("- });\n+ }), { baseBranch: 'main' });");
  expect(dry.stdout).toContain("playwright.config.ts: baseBranch 'main' (main exists, and there is no remote origin)");
  expect(dry.stdout).toContain('.gitignore: would add .visual-uat/');
  expect(dry.stdout).toContain('.github/workflows/visual-uat.yml: would be written');
  expect(status()).toBe('');

  const wired = init(['--github-actions']);
  expect(wired.status, wired.stderr).toBe(0);
  const config = fs.readFileSync(path.join(repo, 'playwright.config.ts'), 'utf8');
  expect(config).toBe(
    withServer(template)
      .replace("from '@playwright/test';", "from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';")
      .replace('export default defineConfig({', 'export default withVisualUat(defineConfig({')
      .replace(/\}\);\s*$/, "}), { baseBranch: 'main' });\n"),
  );
  expect(fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('node_modules/\n/test-results/\n/playwright-report/\n.visual-uat/\n');
  expect(fs.readFileSync(path.join(repo, '.github', 'workflows', 'visual-uat.yml'), 'utf8')).toContain('npx playwright merge-reports --reporter=visual-uat/reporter,html ./all-blobs');
  expect(wired.stdout).toContain('Next:\n  npx playwright test');
  expect(wired.stdout).toContain('npx playwright show-report');
  expect(wired.stdout).toContain('npx visual-uat review');

  const again = init([]);
  expect(again.stdout).toContain('playwright.config.ts: already wired with withVisualUat');
  expect(again.stdout).toContain('.gitignore: already lists .visual-uat/');
});

test('a two-commit repository wired by init: npx playwright test compares the branch with main', async () => {
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-qm', 'Wire visual-uat (npx visual-uat init)']);
  git(repo, ['checkout', '-qb', 'feature/catalogue']);
  fs.writeFileSync(path.join(repo, 'public', 'index.html'), '<!doctype html><html><body style="font-family: sans-serif"><h1>Shop</h1><p>Twelve products, two of them new.</p></body></html>\n');
  git(repo, ['commit', '-qam', 'Two new products']);
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual({ 'home › home-1': 'needs_review' });
  expect(status()).toBe('');
});

test('a config init cannot edit safely gets the reason and the lines to add, and nothing changes', async () => {
  fs.writeFileSync(path.join(repo, 'ci.config.ts'), "export { default } from './playwright.config';\n");
  git(repo, ['add', 'ci.config.ts']);
  git(repo, ['commit', '-qm', 'A CI config that re-exports the main one']);
  // Without the .gitignore entry, so a refusal that still touched .gitignore would show.
  fs.writeFileSync(path.join(repo, '.gitignore'), fs.readFileSync(path.join(repo, '.gitignore'), 'utf8').replace('.visual-uat/\n', ''));
  git(repo, ['commit', '-qam', 'Drop the .gitignore entry']);
  const run = init(['--config', 'ci.config.ts']);
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split('\n')[0]).toBe(
    'visual-uat init: changed nothing: ci.config.ts cannot be edited safely: its default export comes from another module: wire the file that defines the config. Add these lines yourself:',
  );
  expect(status()).toBe('');
});
