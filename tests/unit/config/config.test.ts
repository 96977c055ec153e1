import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { devices, type PlaywrightTestConfig } from '@playwright/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cliSettings, loadConfigOptions } from '../../../src/cli/cli-settings';
import { resolveOptions, resolveSettings, withoutSecrets } from '../../../src/config/settings';
import { withVisualUat } from '../../../src/config/with-visual-uat';
import { ENV } from '../../../src/config/environment';
import { testFolder, testKey } from '../../../src/config/test-identity';
import type { VisualUatOptions } from '../../../src/types';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe('resolveOptions', () => {
  it('applies defaults, then options, then the environment', () => {
    expect(resolveOptions({}, {})).toMatchObject({
      baseBranch: null,
      outputDir: '.visual-uat',
      updateBaselines: false,
      failOn: ['regression', 'needs_review'],
    });
    expect(resolveOptions({}, { GITHUB_BASE_REF: 'develop' }).baseBranch).toEqual({ branch: 'develop', setting: 'GITHUB_BASE_REF' });
    expect(resolveOptions({}, { GITHUB_BASE_REF: '', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'stage' }).baseBranch).toEqual({
      branch: 'stage',
      setting: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
    });
    expect(resolveOptions({}, { BITBUCKET_PR_DESTINATION_BRANCH: 'next' }).baseBranch).toEqual({
      branch: 'next',
      setting: 'BITBUCKET_PR_DESTINATION_BRANCH',
    });
    expect(resolveOptions({ baseBranch: 'trunk' }, { GITHUB_BASE_REF: 'develop' }).baseBranch).toEqual({
      branch: 'trunk',
      setting: 'baseBranch in withVisualUat',
    });
    expect(resolveOptions({ baseBranch: 'trunk', outputDir: 'out' }, { VISUAL_UAT_BASE: 'release', VISUAL_UAT_DIR: 'vu' })).toMatchObject({
      baseBranch: { branch: 'release', setting: 'VISUAL_UAT_BASE' },
      outputDir: 'vu',
    });
    expect(
      resolveOptions({ updateBaselines: false }, { VISUAL_UAT_UPDATE_BASELINES: '1', VISUAL_UAT_KEEP_WORKTREES: 'true' }),
    ).toMatchObject({ updateBaselines: true, keepWorktrees: true });
  });

  it('refuses an unknown failOn value with the list of valid ones', () => {
    expect(() => resolveOptions({ failOn: ['regresion' as never] }, {})).toThrow(
      /unknown failOn value "regresion": use any of regression, needs_review/,
    );
  });

  it('never hands the API key to the environment', () => {
    expect(withoutSecrets({ evaluator: { apiKey: 'sk-secret', model: 'm' } })).toEqual({ evaluator: { model: 'm' } });
  });
});

describe('withVisualUat', () => {
  it('puts the global setup before the user one, the reporter first and, for an html-only config, the terminal reporter after it', () => {
    delete process.env.VISUAL_UAT_ROLE;
    const input: PlaywrightTestConfig = { globalSetup: './setup.ts', reporter: [['html', { open: 'never' }]] };
    const config = withVisualUat(input, { baseBranch: 'main' });
    const setups = config.globalSetup as unknown as string[];
    expect(setups).toHaveLength(2);
    expect(setups[0]).toMatch(/baseline[\\/]global-setup/);
    expect(setups[1]).toBe('./setup.ts');
    const reporters = config.reporter as [string, unknown][];
    expect(reporters[0][0]).toMatch(/reporter[\\/]index/);
    expect(reporters[0][1]).toEqual({ baseBranch: 'main' });
    expect(reporters.slice(1)).toEqual([[process.env.CI ? 'dot' : 'line'], ['html', { open: 'never' }]]);
    expect(JSON.parse(process.env.VISUAL_UAT_OPTIONS!)).toEqual({ baseBranch: 'main' });
  });

  it('keeps the default reporter when the config names none', () => {
    delete process.env.VISUAL_UAT_ROLE;
    const reporters = withVisualUat({} as PlaywrightTestConfig).reporter as [string][];
    expect(reporters.map((r) => r[0]).slice(1)).toEqual([process.env.CI ? 'dot' : 'list']);
  });

  it('in the baseline role, starts the base app from the worktree on a free port and never reuses a server', () => {
    Object.assign(process.env, {
      VISUAL_UAT_ROLE: 'baseline',
      VISUAL_UAT_BASE_CWD: '/repo/.visual-uat/worktrees/abc/app',
      VISUAL_UAT_BASE_PORTS: '41001,41002',
      VISUAL_UAT_REPO_ROOT: '/repo',
      VISUAL_UAT_WORKTREE: '/repo/.visual-uat/worktrees/abc',
      VISUAL_UAT_OUTPUT_DIR: '/repo/app/.visual-uat',
    });
    const input: PlaywrightTestConfig = {
      globalSetup: './setup.ts',
      webServer: [
        { command: 'npm start', url: 'http://localhost:3000', reuseExistingServer: true },
        { command: 'node api.js', port: 4000, cwd: '/repo/api', reuseExistingServer: true },
      ],
      use: { baseURL: 'http://localhost:3000/app/' },
      projects: [{ name: 'a', use: { baseURL: 'http://127.0.0.1:4000' } }, { name: 'b' }],
      reporter: 'html',
    };
    const config = withVisualUat(input);
    const servers = config.webServer as {
      command: string;
      url?: string;
      port?: number;
      cwd: string;
      env: Record<string, string>;
      reuseExistingServer: boolean;
    }[];
    expect(servers[0]).toMatchObject({
      url: 'http://localhost:41001',
      cwd: '/repo/.visual-uat/worktrees/abc/app',
      env: { PORT: '41001' },
      reuseExistingServer: false,
    });
    expect(servers[1]).toMatchObject({
      port: 41002,
      cwd: '/repo/.visual-uat/worktrees/abc/api',
      env: { PORT: '41002' },
      reuseExistingServer: false,
    });
    expect(config.use?.baseURL).toBe('http://localhost:41001/app/');
    expect(config.projects?.[0].use?.baseURL).toBe('http://127.0.0.1:41002');
    expect(config.globalSetup).toEqual(['./setup.ts']);
    expect((config.reporter as [string, unknown][])[0][1]).toEqual({ role: 'baseline' });
    expect(config.outputDir).toBe('/repo/app/.visual-uat/baseline-run/test-results');
  });

  it('refuses one baseWebServer object beside several webServer entries, naming them and the array form', () => {
    const config = (baseWebServer: VisualUatOptions['baseWebServer']) =>
      withVisualUat<PlaywrightTestConfig>(
        {
          webServer: [
            { command: 'python3 -m http.server 6242 --directory public', port: 6242 },
            { command: 'npm run start -- --port 6241', url: 'http://localhost:6241' },
          ],
        },
        { baseWebServer },
      );
    expect(() => config({ command: 'npm run start -- --port {port}' })).toThrow(
      "visual-uat: baseWebServer is one object, but webServer has 2 entries (webServer[0] `python3 -m http.server 6242 --directory public`, webServer[1] `npm run start -- --port 6241`): write baseWebServer as an array in webServer's order, null for each entry the base starts as configured (e.g. baseWebServer: [null, { command: 'npm run start -- --port {port}' }] gives webServer[1] that command)",
    );
    expect(() => config([null, { command: 'npm run start -- --port {port}' }])).not.toThrow();
    expect(() =>
      withVisualUat(
        { webServer: { command: 'npm run start', port: 6241 } },
        { baseWebServer: { command: 'npm run start -- --port {port}' } },
      ),
    ).not.toThrow();
  });

  it('points only the Chromium projects at a system Chromium: a device of Firefox or WebKit, or a channel, keeps its own browser', () => {
    process.env.VISUAL_UAT_CHROMIUM = process.execPath;
    const config = withVisualUat<PlaywrightTestConfig>({
      use: { baseURL: 'http://localhost:6241', trace: 'on-first-retry' },
      projects: [
        { name: 'chromium', use: { ...devices['Desktop Chrome'] } },
        { name: 'firefox', use: { ...devices['Desktop Firefox'] } },
        { name: 'webkit', use: { ...devices['Desktop Safari'] } },
        { name: 'Mobile Chrome', use: { ...devices['Pixel 5'] } },
        { name: 'Mobile Safari', use: { ...devices['iPhone 12'] } },
        { name: 'Google Chrome', use: { ...devices['Desktop Chrome'], channel: 'chrome' } },
      ],
    });
    const launched = Object.fromEntries(
      (config.projects ?? []).map((project) => [project.name, { ...config.use, ...project.use }.launchOptions?.executablePath ?? null]),
    );
    expect(launched).toEqual({
      chromium: process.execPath,
      firefox: null,
      webkit: null,
      'Mobile Chrome': process.execPath,
      'Mobile Safari': null,
      'Google Chrome': null,
    });
  });

  it("in the baseline role, maps the current servers' origins onto the base ports in Chromium only", () => {
    Object.assign(process.env, {
      VISUAL_UAT_ROLE: 'baseline',
      VISUAL_UAT_BASE_CWD: '/repo/.visual-uat/worktrees/abc',
      VISUAL_UAT_BASE_PORTS: '41001',
      VISUAL_UAT_REPO_ROOT: '/repo',
      VISUAL_UAT_WORKTREE: '/repo/.visual-uat/worktrees/abc',
      VISUAL_UAT_OUTPUT_DIR: '/repo/.visual-uat',
      VISUAL_UAT_CHROMIUM: process.execPath,
    });
    const config: PlaywrightTestConfig = withVisualUat<PlaywrightTestConfig>({
      webServer: { command: 'node /repo/server.js --port 3000', url: 'http://localhost:3000' },
      expect: { timeout: 10_000, toHaveScreenshot: { threshold: 0.2 } },
      use: { launchOptions: { args: ['--lang=de'] } },
      projects: [
        { name: 'chromium' },
        { name: 'firefox', use: { browserName: 'firefox' } },
        { name: 'own', use: { launchOptions: { slowMo: 1 } } },
        { name: 'webkit', use: { ...devices['Desktop Safari'] } },
      ],
    });
    const rule = expect.stringMatching(
      /^--host-resolver-rules=MAP localhost:3000 localhost:41001, MAP 127\.0\.0\.1:3000 127\.0\.0\.1:41001/,
    );
    expect(config.use?.launchOptions?.args).toEqual(['--lang=de', ...config.use!.launchOptions!.args!.slice(1, -1), rule]);
    expect(config.projects?.[0].use?.launchOptions?.args).toEqual(expect.arrayContaining(['--lang=de', rule]));
    expect(config.projects?.[1].use?.launchOptions?.args ?? []).not.toContainEqual(rule);
    expect(config.projects?.[2].use?.launchOptions?.args?.at(-1)).toEqual(rule);
    expect(config.projects?.[2].use?.launchOptions?.slowMo).toBe(1);
    expect({ ...config.use, ...config.projects?.[3].use }.launchOptions?.args ?? []).not.toContainEqual(rule);
    expect((config.webServer as { command: string }).command).toContain('.js');
    // A base test that fails on an assertion waits at most Playwright's default.
    expect(config.expect).toEqual({ timeout: 5000, toHaveScreenshot: { threshold: 0.2 } });
    expect(process.env.VISUAL_UAT_ROLE).toBe('baseline');
  });
});

describe('layout', () => {
  it('gives each test a distinct, filesystem-safe folder', () => {
    const a = testFolder('chromium', ['a.spec.ts', 'pricing / plans']);
    const b = testFolder('chromium', ['a.spec.ts', 'pricing : plans']);
    expect(a).not.toEqual(b);
    expect(a).not.toMatch(/[:*?"<>|]|\.\./);
    expect(testFolder('', ['ü.spec.ts', 'Größe ✓'])).toMatch(/^default[\\/]Größe-✓-[0-9a-f]{8}$/);
    expect(testKey('chromium', ['a.spec.ts', 'x'])).toBe('chromium › a.spec.ts › x');
  });
});

describe('resolveSettings', () => {
  const config = path.join(path.sep, 'repo', 'app', 'playwright.config.ts');
  const app = path.dirname(config);

  it("puts the output folder relative to the config's folder: environment, then options, then the default", () => {
    expect(resolveSettings(config, {}, {})).toMatchObject({ configFile: config, configDir: app, outputDir: path.join(app, '.visual-uat') });
    expect(resolveSettings(config, { outputDir: 'out' }, {}).outputDir).toBe(path.join(app, 'out'));
    expect(resolveSettings(config, { outputDir: 'out' }, { VISUAL_UAT_DIR: 'vu' }).outputDir).toBe(path.join(app, 'vu'));
    expect(resolveSettings(config, {}, { VISUAL_UAT_DIR: path.join(path.sep, 'elsewhere') }).outputDir).toBe(
      path.join(path.sep, 'elsewhere'),
    );
    expect(resolveSettings(null, {}, {}, path.join(path.sep, 'cwd')).outputDir).toBe(path.join(path.sep, 'cwd', '.visual-uat'));
  });

  it("takes the folder the global setup resolved for the run's other processes", () => {
    expect(resolveSettings(config, { outputDir: 'out' }, ENV.outputDir.entry('/run/out')).outputDir).toBe('/run/out');
  });
});

describe('cliSettings', () => {
  let root: string;
  let app: string;
  const neverLoad = (): VisualUatOptions => {
    throw new Error('the config should not be loaded');
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-cli-'));
    app = path.join(root, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'playwright.config.ts'), 'export default {};\n');
  });

  it("finds the config as Playwright does and takes withVisualUat's outputDir from it", () => {
    const loaded: string[] = [];
    const settings = cliSettings({}, 'options', app, {}, (file) => {
      loaded.push(file);
      return { outputDir: 'out' };
    });
    expect(loaded).toEqual([path.join(app, 'playwright.config.ts')]);
    expect(settings).toMatchObject({ configDir: app, outputDir: path.join(app, 'out') });
    expect(cliSettings({ config: 'app' }, 'options', root, {}, () => ({ outputDir: 'out' })).outputDir).toBe(path.join(app, 'out'));
  });

  it("takes --dir, then VISUAL_UAT_DIR, relative to the config's folder, without loading the config when the folder is all a command needs", () => {
    expect(
      cliSettings({ config: 'app/playwright.config.ts', dir: 'mine' }, 'output-folder', root, { VISUAL_UAT_DIR: 'vu' }, neverLoad)
        .outputDir,
    ).toBe(path.join(app, 'mine'));
    expect(cliSettings({ config: 'app/playwright.config.ts' }, 'output-folder', root, { VISUAL_UAT_DIR: 'vu' }, neverLoad).outputDir).toBe(
      path.join(app, 'vu'),
    );
  });

  it('with --dir or VISUAL_UAT_DIR still takes the other options from the config (labelsDir, the evaluator)', () => {
    const fromConfig = () => ({ outputDir: 'out', labelsDir: 'labels-kept', evaluator: { model: 'qwen2.5vl:7b' } });
    const dir = cliSettings({ config: 'app/playwright.config.ts', dir: 'mine' }, 'options', root, {}, fromConfig);
    expect(dir).toMatchObject({
      outputDir: path.join(app, 'mine'),
      labelsDir: path.join(app, 'labels-kept'),
      options: { evaluator: { model: 'qwen2.5vl:7b' } },
    });
    const env = cliSettings({ config: 'app/playwright.config.ts' }, 'options', root, { VISUAL_UAT_DIR: 'vu' }, fromConfig);
    expect(env).toMatchObject({ outputDir: path.join(app, 'vu'), labelsDir: path.join(app, 'labels-kept') });
  });

  it('with the folder given, a config that cannot be loaded leaves the other options at their defaults and says so', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const broken = () => {
        throw new Error('visual-uat: could not load playwright.config.ts (SyntaxError)');
      };
      expect(cliSettings({ config: 'app/playwright.config.ts', dir: 'mine' }, 'options', root, {}, broken)).toMatchObject({
        outputDir: path.join(app, 'mine'),
        labelsDir: path.join(app, 'mine', 'labels'),
      });
      expect(() => cliSettings({ config: 'app/playwright.config.ts' }, 'options', root, {}, broken)).toThrow('SyntaxError');
      expect(stderr.mock.calls.map(([text]) => text)).toEqual([
        'visual-uat: the output folder is given, but its other options are not known (visual-uat: could not load playwright.config.ts (SyntaxError)): labelsDir, the evaluator and the tolerances take their defaults\n',
      ]);
    } finally {
      stderr.mockRestore();
    }
  });

  it('without a config works in the current folder; a --config that is not there is refused', () => {
    expect(cliSettings({}, 'options', root, {}, neverLoad)).toMatchObject({ configFile: null, outputDir: path.join(root, '.visual-uat') });
    expect(() => cliSettings({ config: 'nope.config.ts' }, 'options', root, {}, neverLoad)).toThrow(
      'visual-uat: --config nope.config.ts does not exist: name your Playwright config file',
    );
  });

  it('learns the options by letting Playwright load a TypeScript config', () => {
    const scratch = path.join(__dirname, '..', '..', '..', '.tmp', `cli-config-${process.pid}`);
    fs.mkdirSync(scratch, { recursive: true });
    try {
      const file = path.join(scratch, 'playwright.config.ts');
      const source = path
        .relative(scratch, path.join(__dirname, '..', '..', '..', 'src', 'config'))
        .split(path.sep)
        .join('/');
      fs.writeFileSync(
        file,
        `import { defineConfig } from '@playwright/test';\nimport { withVisualUat } from '${source}';\nexport default withVisualUat(defineConfig({ testDir: 'tests' }), { outputDir: 'out', baseBranch: 'trunk', evaluator: { apiKey: 'sk-never-leaves' } });\n`,
      );
      expect(loadConfigOptions(file, {})).toEqual({ outputDir: 'out', baseBranch: 'trunk', evaluator: {} });
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
