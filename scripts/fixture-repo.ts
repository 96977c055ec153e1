import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * Builds real git repositories from fixtures/<name>: `base/` is committed on main, each entry of
 * `commits.json` is copied on top and committed on a feature branch. Used by the demo and the
 * end-to-end tests, so both exercise the plugin the way a user's repository does.
 */

export const PACKAGE_ROOT = path.resolve(__dirname, '..', fs.existsSync(path.resolve(__dirname, '..', 'package.json')) ? '' : '..');
export const FIXTURES_DIR = path.join(PACKAGE_ROOT, 'fixtures');

export interface FixtureCommit {
  overlay: string;
  message: string;
}

/** Environment of a child Playwright run: nothing of an enclosing test runner leaks in. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(PLAYWRIGHT_|PW_|TEST_|VISUAL_UAT_|VITEST|GITHUB_)/.test(key) || key === 'NODE_OPTIONS' || key === 'OPENAI_API_KEY' || key === 'OPENAI_BASE_URL') continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return { ...env, FORCE_COLOR: env.FORCE_COLOR ?? '0' };
}

export function git(dir: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${result.stderr}`);
  return result.stdout.trim();
}

export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

/** node_modules with just what a user's project would have: @playwright/test and visual-uat. */
export function linkDependencies(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@playwright'), { recursive: true });
  fs.symlinkSync(PACKAGE_ROOT, path.join(modules, 'visual-uat'), 'dir');
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', '@playwright', 'test'), path.join(modules, '@playwright', 'test'), 'dir');
  for (const name of ['playwright', 'playwright-core'])
    fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', name), path.join(modules, name), 'dir');
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function declaresDependencies(packageJson: PackageJson): boolean {
  return Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies }).length > 0;
}

/**
 * A fixture that declares its own dependencies (the component-test app pins its own Playwright)
 * gets them from the registry, installed once per package.json content under .tmp/ and reused.
 */
export function installedModules(packageJsonFile: string): string {
  const text = fs.readFileSync(packageJsonFile, 'utf8');
  const hash = crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);
  const target = path.join(PACKAGE_ROOT, '.tmp', `fixture-deps-${hash}`);
  if (fs.existsSync(path.join(target, 'node_modules'))) return path.join(target, 'node_modules');
  // Installed aside and renamed into place, so a parallel or interrupted install never leaves a half folder.
  const staging = `${target}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  fs.writeFileSync(path.join(staging, 'package.json'), text);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staging, encoding: 'utf8', env: cleanEnv() });
  if (install.status !== 0) throw new Error(`npm install failed for ${packageJsonFile}: ${install.stderr.trim().split('\n').pop()}`);
  try {
    fs.renameSync(staging, target);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }); // another process installed it first
  }
  return path.join(target, 'node_modules');
}

/**
 * visual-uat as npm would install it: a real folder (not a link to this checkout), so its peer
 * @playwright/test resolves to the project's own, as mergeTests with the CT `test` requires.
 * Its runtime dependencies are linked from this checkout.
 */
function installVisualUat(modules: string): void {
  const target = path.join(modules, 'visual-uat');
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as PackageJson;
  fs.mkdirSync(path.join(target, 'node_modules'), { recursive: true });
  fs.copyFileSync(path.join(PACKAGE_ROOT, 'package.json'), path.join(target, 'package.json'));
  for (const folder of ['src', 'reporter']) copyTree(path.join(PACKAGE_ROOT, 'dist', folder), path.join(target, 'dist', folder));
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const link = path.join(target, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules', name), link, 'dir');
  }
}

/** node_modules of a fixture with its own dependencies: each installed package linked, visual-uat copied in. */
function linkInstalledDependencies(dir: string, installed: string): void {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(installed)) fs.symlinkSync(path.join(installed, entry), path.join(modules, entry));
  installVisualUat(modules);
}

/** A git repository on main with everything in `dir` committed. */
export function initRepo(dir: string, message: string): void {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'user.name', 'Visual UAT Fixture']);
  git(dir, ['config', 'user.email', 'fixture@visual-uat.test']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message]);
}

export interface FixtureRepoOptions {
  /** Folder under fixtures/. */
  fixture: string;
  /** Where to create it (default: a new temporary folder). */
  dir?: string;
  /** How many of commits.json's commits to apply on the feature branch (default: all). */
  commits?: number;
  branch?: string;
}

export function createFixtureRepo(options: FixtureRepoOptions): string {
  const source = path.join(FIXTURES_DIR, options.fixture);
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-${options.fixture}-`));
  fs.mkdirSync(dir, { recursive: true });
  copyTree(path.join(source, 'base'), dir);
  const packageJsonFile = path.join(source, 'base', 'package.json');
  if (declaresDependencies(JSON.parse(fs.readFileSync(packageJsonFile, 'utf8')))) linkInstalledDependencies(dir, installedModules(packageJsonFile));
  else linkDependencies(dir);
  initRepo(dir, 'Initial site');
  git(dir, ['checkout', '-q', '-b', options.branch ?? 'feature/pricing']);
  const commitsFile = path.join(source, 'commits.json');
  const commits: FixtureCommit[] = fs.existsSync(commitsFile) ? JSON.parse(fs.readFileSync(commitsFile, 'utf8')) : [];
  for (const commit of commits.slice(0, options.commits ?? commits.length)) {
    copyTree(path.join(source, commit.overlay), dir);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', commit.message]);
  }
  return dir;
}

/** A port nobody listens on now, so parallel runs of the fixture apps never meet. */
export function freePortSync(): number {
  const probe = "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  const port = Number(spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: cleanEnv() }).stdout.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error('could not find a free port on 127.0.0.1');
  return port;
}

/** Environment of a fixture app's run: a port of its own and no enclosing runner's variables. */
export function fixtureEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return cleanEnv({ CI: '', DEMO_PORT: String(freePortSync()), ...env });
}

/** The repository's own Playwright CLI, as `npx playwright` would find it there. */
export function playwrightCli(dir: string): string {
  return createRequire(path.join(dir, 'package.json')).resolve('@playwright/test/cli');
}

export function runPlaywright(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [playwrightCli(dir), ...args], {
    cwd: dir,
    env: fixtureEnv(env),
    encoding: 'utf8',
    timeout: 300_000,
  });
}
