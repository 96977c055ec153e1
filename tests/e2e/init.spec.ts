import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  FIXTURES_DIR,
  cleanEnv,
  createFixtureRepo,
  fixtureEnv,
  git,
  initRepo,
  installOnce,
  packageManagerCli,
  pluginTarball,
  provideModules,
  runPlaywright,
  visualUatCli,
} from '../../scripts/fixture-repo';
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
    .replace(
      /\/\/ webServer: \{[\s\S]*?\/\/ \},/,
      "webServer: { command: 'node server.js', env: { PORT: process.env.DEMO_PORT ?? '3000' }, url: `http://127.0.0.1:${process.env.DEMO_PORT ?? 3000}`, reuseExistingServer: !process.env.CI },",
    );
}

function init(args: string[], dir = repo) {
  return spawnSync(process.execPath, [visualUatCli(dir), 'init', ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

const status = (dir = repo) => git(dir, ['status', '--porcelain']);

/** `file` read-only, as on a read-only mount, for the duration of `run`: a bind mount of the file onto itself, remounted read-only, undone after. */
function readOnly<T>(file: string, run: () => T): T {
  const mount = (args: string[]) => {
    const done = spawnSync('mount', args, { encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`mount ${args.join(' ')} failed: ${done.stderr}`);
  };
  mount(['--bind', file, file]);
  try {
    mount(['-o', 'remount,bind,ro', file, file]);
    return run();
  } finally {
    spawnSync('umount', [file]);
  }
}

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
  fs.writeFileSync(
    path.join(repo, 'public', 'index.html'),
    '<!doctype html><html><body style="font-family: sans-serif"><h1>Shop</h1><p>Ten products.</p></body></html>\n',
  );
  fs.mkdirSync(path.join(repo, 'tests'));
  fs.writeFileSync(
    path.join(repo, 'tests', 'home.spec.ts'),
    "import { test, expect } from 'visual-uat';\n\ntest('home', async ({ page }) => {\n  await page.goto('/');\n  await expect(page).toHaveScreenshot();\n});\n",
  );
  initRepo(repo, "Playwright's init template, a page and its test");
});

test('init --dry-run shows the edit, init makes it: config wrapped, .visual-uat/ ignored, a workflow, the next commands', async () => {
  const dry = init(['--dry-run', '--github-actions']);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toContain(
    "- import { defineConfig, devices } from '@playwright/test';\n+ import { defineConfig, devices } from '@playwright/test';\n+ import { withVisualUat } from 'visual-uat';",
  );
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
  expect(fs.readFileSync(path.join(repo, '.github', 'workflows', 'visual-uat.yml'), 'utf8')).toContain(
    'npx playwright merge-reports --reporter=visual-uat/reporter,html ./all-blobs',
  );
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
  fs.writeFileSync(
    path.join(repo, 'public', 'index.html'),
    '<!doctype html><html><body style="font-family: sans-serif"><h1>Shop</h1><p>Twelve products, two of them new.</p></body></html>\n',
  );
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

/**
 * A Vite app as a team has it (fixtures/vite-app's page and test, its port in vite.config.js, `npm
 * run dev` running plain `vite`) with `config` as its Playwright config: the base's Vite, started
 * the same way, would find the current app on that port and move to the next.
 */
function viteAppRepo(config: string): string {
  return createFixtureRepo({
    fixture: 'vite-app',
    branch: 'feature/cards',
    prepare(dir) {
      const manifest = path.join(dir, 'package.json');
      fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), scripts: { dev: 'vite' } }, null, 2));
      fs.writeFileSync(path.join(dir, 'vite.config.js'), 'export default { server: { port: Number(process.env.DEMO_PORT ?? 5173) } };\n');
      fs.rmSync(path.join(dir, 'http-server.config.ts'));
      fs.writeFileSync(path.join(dir, 'playwright.config.ts'), config);
    },
  });
}

/** Playwright's init template with its webServer filled in for the Vite app. */
function viteTemplate(): string {
  return template
    .replace("// baseURL: 'http://localhost:3000',", 'baseURL: `http://localhost:${process.env.DEMO_PORT ?? 5173}`,')
    .replace(
      /\/\/ webServer: \{[\s\S]*?\/\/ \},/,
      "webServer: { command: 'npm run dev', url: `http://localhost:${process.env.DEMO_PORT ?? 5173}`, reuseExistingServer: !process.env.CI },",
    );
}

/** init on the Vite app: the line for its server (`label`), the config it writes (`wired`), then a first run that compares with no hand edit. */
function initThenCompare(vite: string, label: string, wired: string): void {
  const done = init([], vite);
  expect(done.status, done.stderr).toBe(0);
  expect(done.stdout).toContain(
    `${label} (\`npm run dev\`): Vite, through package.json's "dev" script: baseWebServer starts the base with \`npm run dev -- --port {port} --strictPort\`, {port} being the base's port`,
  );
  expect(fs.readFileSync(path.join(vite, 'playwright.config.ts'), 'utf8')).toContain(wired);
  const run = runPlaywright(vite, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(vite)));
  expect(statuses(readLatest(vite))).toEqual({ 'overview › metrics': 'needs_review', 'overview › header': 'unchanged' });
}

test('a Vite app: init writes the base its own dev server command, and the first run compares with no hand edit; a read-only .gitignore first changes nothing', async () => {
  const vite = viteAppRepo(viteTemplate());
  const config = fs.readFileSync(path.join(vite, 'playwright.config.ts'), 'utf8');
  expect(config).toContain("webServer: { command: 'npm run dev'");

  const refused = readOnly(path.join(vite, '.gitignore'), () => init([], vite));
  expect(refused.status).toBe(1);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toBe(
    'visual-uat init: changed nothing: .gitignore cannot be written (EROFS): make it writable, then run init again\n',
  );
  expect(status(vite)).toBe('');

  initThenCompare(
    vite,
    'webServer',
    "}), { baseBranch: 'main', baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' } });",
  );
});

/**
 * A config as teams write it when the tests also run against a deployed site: the object built
 * first, its webServer array assigned in an `if`, the command a template literal. Only loading
 * the config, as Playwright does, shows the server.
 */
const CONDITIONAL_CONFIG = `import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.DEMO_PORT ?? 5173);
const packageManager = 'npm';

const config = defineConfig({
  testDir: 'tests',
  use: { baseURL: process.env.SITE_URL ?? \`http://localhost:\${port}\` },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
});

// Against a deployed site (SITE_URL) the tests start no server.
if (!process.env.SITE_URL) {
  config.webServer = [{ command: \`\${packageManager} run dev\`, url: \`http://localhost:\${port}\`, reuseExistingServer: !process.env.CI }];
}

export default config;
`;

test('a webServer array set in an if, its command a template literal: init reads the config as Playwright loads it, writes the base its command, and the first run compares', async () => {
  const vite = viteAppRepo(CONDITIONAL_CONFIG);

  // Where the condition does not hold, the server is not there to wire: one line says so and what to add.
  const elsewhere = spawnSync(process.execPath, [visualUatCli(vite), 'init', '--dry-run'], {
    cwd: vite,
    env: fixtureEnv({ SITE_URL: 'https://shop.example' }),
    encoding: 'utf8',
  });
  expect(elsewhere.status, elsewhere.stderr).toBe(0);
  expect(elsewhere.stdout.split('\n').filter((line) => line.startsWith('webServer'))).toEqual([
    "webServer: init cannot tell its entries (Playwright loads it here without one, though the file sets webServer under a condition; run init where that condition holds): if the base run stops on its port, add baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' } (a server of your package.json scripts: check it serves this app) to withVisualUat's options (README: \"Your web server\")",
  ]);

  initThenCompare(
    vite,
    'webServer[0]',
    "export default withVisualUat(config, { baseBranch: 'main', baseWebServer: [{ command: 'npm run dev -- --port {port} --strictPort' }] });",
  );
});

test('a project whose Playwright is older than visual-uat needs: init says what to install, in one line, and changes nothing', async () => {
  const old = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-init-old-'));
  fs.writeFileSync(
    path.join(old, 'package.json'),
    `${JSON.stringify({ name: 'old', private: true, devDependencies: { '@playwright/test': '1.44.1' } }, null, 2)}\n`,
  );
  // What `npm install -D visual-uat --legacy-peer-deps` leaves: npm itself refuses the pinned version (ERESOLVE).
  const install = spawnSync(
    'npm',
    ['install', '-D', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=error', pluginTarball()],
    { cwd: old, encoding: 'utf8', env: cleanEnv() },
  );
  expect(install.status, install.stderr).toBe(0);
  fs.writeFileSync(path.join(old, 'playwright.config.ts'), template);
  fs.writeFileSync(path.join(old, '.gitignore'), 'node_modules/\n');
  initRepo(old, 'A project on Playwright 1.44');
  const run = init([], old);
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(
    'visual-uat init: changed nothing: @playwright/test 1.44.1 is installed: npm install -D @playwright/test@latest (visual-uat needs 1.49.0 or later), then run init again\n',
  );
  expect(status(old)).toBe('');
});

/** A Playwright config as Nuxt's docs and users write it: `npm run dev` on Nuxt's port, two projects, retries on CI. */
const NUXT_CONFIG = `import { defineConfig, devices } from '@playwright/test'

export default defineConfig({
  testDir: './tests/e2e',
  retries: process.env.CI ? 2 : 0,
  reporter: 'html',
  use: { baseURL: 'http://localhost:3000' },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'] } },
    { name: 'mobile', use: { ...devices['Pixel 5'] } },
  ],
  webServer: { command: 'npm run dev', url: 'http://localhost:3000', reuseExistingServer: !process.env.CI },
})
`;

test("a Nuxt 3 app whose dev script fixes its port: init writes the base Nuxt's own command on the base's port", async () => {
  const nuxt = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-init-nuxt-'));
  // package.json as `nuxi init` writes it, the dev script given its port as the app's README says.
  const scripts = { build: 'nuxt build', dev: 'nuxt dev --port 3000', generate: 'nuxt generate', preview: 'nuxt preview' };
  const manifest = { name: 'nuxt-app', private: true, type: 'module', scripts: { ...scripts, postinstall: 'nuxt prepare' } };
  fs.writeFileSync(path.join(nuxt, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  provideModules(nuxt, installOnce({ '@playwright/test': PLAYWRIGHT }, pluginTarball()));
  fs.writeFileSync(path.join(nuxt, 'nuxt.config.ts'), 'export default defineNuxtConfig({ devtools: { enabled: true } })\n');
  fs.writeFileSync(path.join(nuxt, 'app.vue'), '<template>\n  <NuxtPage />\n</template>\n');
  fs.writeFileSync(path.join(nuxt, 'playwright.config.ts'), NUXT_CONFIG);
  fs.writeFileSync(path.join(nuxt, '.gitignore'), 'node_modules\n.nuxt\n.output\n');
  initRepo(nuxt, 'A Nuxt app and its Playwright config');
  const run = init([], nuxt);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(
    'webServer (`npm run dev`): Nuxt, through package.json\'s "dev" script, which sets a port of its own: ' +
      "baseWebServer starts the base with `npx nuxt dev --port {port}`, {port} being the base's port",
  );
  expect(fs.readFileSync(path.join(nuxt, 'playwright.config.ts'), 'utf8')).toContain(
    "}), { baseBranch: 'main', baseWebServer: { command: 'npx nuxt dev --port {port}' } })",
  );
});
