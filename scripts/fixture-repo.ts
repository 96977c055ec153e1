import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ENV } from '../src/config/environment';
import { assertNoRepeatedLines } from '../tests/support/repeated-lines';

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
    // A CI's variables too: its target branch (GITHUB_BASE_REF, CI_MERGE_REQUEST_…, BITBUCKET_PR_…) would choose the fixture's base.
    if (
      /^(PLAYWRIGHT_|PW_|TEST_|VISUAL_UAT_|VITEST|GITHUB_|CI_MERGE_REQUEST_|BITBUCKET_)/.test(key) ||
      key === 'NODE_OPTIONS' ||
      key === ENV.openaiApiKey.name ||
      key === ENV.openaiBaseUrl.name
    )
      continue;
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

interface PackageJson {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readPackageJson(file: string): PackageJson {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as PackageJson;
}

function sha256(data: string | Buffer): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * This checkout as npm publishes it: `npm pack` of the built package (run `npm run build` first).
 * Tests and the demo install this tarball, never source paths, so packaging faults show.
 */
export function packPlugin(): string {
  const dir = path.join(PACKAGE_ROOT, '.tmp', 'pack');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(PACKAGE_ROOT, 'dist', 'src', 'index.js')))
    throw new Error('dist/ is missing: run npm run build before packing');
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr.trim().split('\n').pop()}`);
  const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
  return path.join(dir, filename);
}

/** The tarball of this run: the one the test run packed, else a fresh pack. */
export function pluginTarball(): string {
  const packed = ENV.testTarball.read();
  return packed && fs.existsSync(packed) ? packed : packPlugin();
}

/** The version of a package this checkout is tested with (fixtures that do not pin it get the same one). */
function ownVersion(name: string): string {
  return readPackageJson(path.join(PACKAGE_ROOT, 'node_modules', name, 'package.json')).version!;
}

/**
 * A project's devDependencies installed from the registry (the plugin from its tarball), once per
 * content under .tmp/installs/ and reused by every repository of the test run. Returns its node_modules.
 */
export function installOnce(devDependencies: Record<string, string>, tarball: string): string {
  // Sorted: the same dependencies in another order are the same install.
  const sorted = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => a.localeCompare(b)));
  const manifest = { private: true, devDependencies: { ...sorted, 'visual-uat': `file:${tarball}` } };
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const target = path.join(PACKAGE_ROOT, '.tmp', 'installs', sha256(text + sha256(fs.readFileSync(tarball))).slice(0, 16));
  if (fs.existsSync(path.join(target, 'node_modules'))) return path.join(target, 'node_modules');
  // Installed aside and renamed into place, so a parallel or interrupted install never leaves a half folder.
  const staging = `${target}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  fs.writeFileSync(path.join(staging, 'package.json'), text);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: staging,
    encoding: 'utf8',
    env: cleanEnv(),
  });
  if (install.status !== 0)
    throw new Error(
      `npm install of ${Object.keys(manifest.devDependencies).join(', ')} failed: ${install.stderr.trim().split('\n').pop()}`,
    );
  try {
    fs.renameSync(staging, target);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true }); // another process installed it first
  }
  return path.join(target, 'node_modules');
}

/**
 * The dependencies a fixture's package.json declares plus `extra` (unpinned: this checkout's own
 * versions), and @playwright/test when neither names it (every user's project has it), installed
 * with the plugin's tarball once per test run.
 */
export function fixtureModules(packageJsonFile?: string, tarball = pluginTarball(), extra: string[] = []): string {
  const declared = packageJsonFile ? readPackageJson(packageJsonFile) : {};
  const devDependencies = { ...declared.dependencies, ...declared.devDependencies };
  for (const name of ['@playwright/test', ...extra]) devDependencies[name] ??= ownVersion(name);
  return installOnce(devDependencies, tarball);
}

/** A real node_modules folder in `dir`, hard-linked from a shared install (as cheap as a link, laid out as npm lays it out). */
export function provideModules(dir: string, installed: string): void {
  const target = path.join(dir, 'node_modules');
  const linked = spawnSync('cp', ['-al', installed, target], { encoding: 'utf8' });
  if (linked.status !== 0) fs.cpSync(installed, target, { recursive: true, verbatimSymlinks: true });
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
  /** Edits the base files before the first commit (a variant of the fixture on main). */
  prepare?: (dir: string) => void;
  /** Give the repository the shared install's node_modules (default); false when the test installs its own. */
  modules?: boolean;
}

export function createFixtureRepo(options: FixtureRepoOptions): string {
  const source = path.join(FIXTURES_DIR, options.fixture);
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-${options.fixture}-`));
  fs.mkdirSync(dir, { recursive: true });
  copyTree(path.join(source, 'base'), dir);
  if (options.modules !== false) provideModules(dir, fixtureModules(path.join(source, 'base', 'package.json')));
  options.prepare?.(dir);
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

/** A package manager's command-line entry, installed from the registry once under .tmp/tools (pnpm, yarn). */
export function packageManagerCli(name: string, version: string, bin: string): string {
  const target = path.join(PACKAGE_ROOT, '.tmp', 'tools', `${name}-${version}`);
  const cli = path.join(target, 'node_modules', name, bin);
  if (fs.existsSync(cli)) return cli;
  const staging = `${target}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  const install = spawnSync('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--loglevel=error', `${name}@${version}`], {
    encoding: 'utf8',
    env: cleanEnv(),
  });
  if (install.status !== 0) throw new Error(`npm install ${name}@${version} failed: ${install.stderr.trim().split('\n').pop()}`);
  try {
    fs.renameSync(staging, target);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return cli;
}

/** A port nobody listens on now, so parallel runs of the fixture apps never meet. */
export function freePortSync(): number {
  const probe =
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
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

/** The installed visual-uat's command-line entry in a repository, as `npx visual-uat` runs it. */
export function visualUatCli(dir: string): string {
  const manifest = createRequire(path.join(dir, 'package.json')).resolve('visual-uat/package.json');
  const { bin } = readPackageJson(manifest) as PackageJson & { bin: Record<string, string> };
  return path.join(path.dirname(manifest), bin['visual-uat']);
}

export function runPlaywright(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const run = spawnSync(process.execPath, [playwrightCli(dir), ...args], {
    cwd: dir,
    env: fixtureEnv(env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  assertNoRepeatedLines(`playwright ${args.join(' ')}`, run);
  return run;
}
