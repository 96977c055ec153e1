import fs from 'node:fs';
import path from 'node:path';
import type { PlaywrightTestConfig, ReporterDescription } from '@playwright/test';
import type { VisualUatOptions } from '../types';
import { applySystemChromium } from './browser';
import { baselineComponentBuild } from './component-tests';
import {
  BASE_CWD_ENV,
  BASE_PORTS_ENV,
  GUARD_PID_ENV,
  GUARDED_COMMAND_ENV,
  OUTPUT_DIR_ENV,
  REPO_ROOT_ENV,
  WORKTREE_ENV,
  baselineComponentCacheDir,
  baselineRunOutputDir,
  currentRole,
} from './layout';
import { OPTIONS_ENV, resolveOptions, withoutSecrets } from './options';

/** Playwright loads these by path: the compiled .js beside this file, or the .ts source under a TS loader. */
function ownModule(relative: string): string {
  const candidates = ['.js', '.ts'].map((extension) => path.join(__dirname, `${relative}${extension}`));
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`visual-uat: ${candidates[0]} is missing: reinstall visual-uat (npm install visual-uat)`);
  return found;
}

const GLOBAL_SETUP = ownModule('../baseline/global-setup');
const REPORTER = ownModule('../../reporter/index');
const SERVER_GUARD = ownModule('../baseline/server-guard');

/** Whether a configured reporter is visual-uat's own (it releases the run lock when it ends). */
export function isVisualUatReporter(name: string): boolean {
  return name === REPORTER || name === 'visual-uat/reporter';
}

type WebServer = NonNullable<PlaywrightTestConfig['webServer']> extends infer W ? (W extends Array<infer One> ? One : W) : never;

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function normaliseReporters(reporter: PlaywrightTestConfig['reporter']): ReporterDescription[] {
  if (reporter === undefined) return [[process.env.CI ? 'dot' : 'list']];
  if (typeof reporter === 'string') return [[reporter]];
  return reporter.map((entry) => (typeof entry === 'string' ? [entry] : entry) as ReporterDescription);
}

/**
 * Wires visual-uat into a Playwright config: the global setup (before the user's own) and the
 * reporter (first, so the HTML and blob reporters see what it adds). In the nested baseline pass
 * it rewrites the config so the base app runs from the base worktree on a port of its own.
 */
export function withVisualUat<T extends PlaywrightTestConfig>(config: T, options: VisualUatOptions = {}): T {
  resolveOptions(options);
  process.env[OPTIONS_ENV] = JSON.stringify(withoutSecrets(options));
  const userSetups = asArray(config.globalSetup);
  const wired = {
    ...config,
    globalSetup: [GLOBAL_SETUP, ...userSetups],
    reporter: [[REPORTER, options], ...normaliseReporters(config.reporter)] as ReporterDescription[],
  };
  const withBrowser = applySystemChromium(wired);
  return currentRole() === 'baseline' ? baselineRole(withBrowser) : withBrowser;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '::1']);

function serverPort(server: WebServer): number | null {
  if (server.port) return server.port;
  if (!server.url) return null;
  const url = new URL(server.url);
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function rewriteUrl(url: string | undefined, ports: Map<number, number>): string | undefined {
  if (!url) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const replacement = ports.get(port);
  if (!LOCAL_HOSTS.has(parsed.hostname) || replacement === undefined) return url;
  parsed.port = String(replacement);
  return url.endsWith('/') || parsed.pathname !== '/' ? parsed.toString() : parsed.toString().replace(/\/$/, '');
}

function baseCwd(cwd: string | undefined, env: NodeJS.ProcessEnv): string {
  const configDirInBase = env[BASE_CWD_ENV]!;
  if (!cwd) return configDirInBase;
  if (!path.isAbsolute(cwd)) return path.resolve(configDirInBase, cwd);
  const repoRoot = env[REPO_ROOT_ENV];
  const worktree = env[WORKTREE_ENV];
  if (repoRoot && worktree) {
    const relative = path.relative(repoRoot, cwd);
    if (!relative.startsWith('..') && !path.isAbsolute(relative)) return path.join(worktree, relative);
  }
  return cwd;
}

/**
 * The base server runs under a guard that ends it when this runner dies, even by SIGKILL (see
 * baseline/server-guard). Process groups are POSIX; on Windows the command runs as given.
 */
function guarded(server: WebServer): Pick<WebServer, 'command' | 'env'> {
  if (process.platform === 'win32' || !SERVER_GUARD.endsWith('.js')) return { command: server.command, env: server.env };
  return {
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER_GUARD)}`,
    env: { ...(server.env ?? {}), [GUARDED_COMMAND_ENV]: server.command, [GUARD_PID_ENV]: String(process.pid) },
  };
}

function rewriteUse<U extends { baseURL?: string } | undefined>(use: U, ports: Map<number, number>): U {
  if (!use?.baseURL) return use;
  return { ...use, baseURL: rewriteUrl(use.baseURL, ports) };
}

/**
 * The baseline pass runs the current tests against the base app. Its servers start from the base
 * worktree on free ports and never reuse a running server: with `reuseExistingServer` the
 * nested run would silently capture the current app as the "baseline".
 */
function baselineRole<T extends PlaywrightTestConfig>(config: T, env: NodeJS.ProcessEnv = process.env): T {
  const freePorts = (env[BASE_PORTS_ENV] ?? '').split(',').filter(Boolean).map(Number);
  const servers = asArray(config.webServer) as WebServer[];
  const ports = new Map<number, number>();
  servers.forEach((server, index) => {
    const original = serverPort(server);
    if (original !== null && freePorts[index] !== undefined) ports.set(original, freePorts[index]);
  });
  const rewritten = servers.map((server, index) => {
    const port = freePorts[index];
    const { command, env: serverEnv } = guarded(server);
    return {
      ...server,
      command,
      cwd: baseCwd(server.cwd, env),
      env: { ...(serverEnv ?? {}), ...(port !== undefined ? { PORT: String(port) } : {}) },
      url: rewriteUrl(server.url, ports),
      port: server.port && port !== undefined ? port : undefined,
      reuseExistingServer: false,
    };
  });
  const outputDir = env[OUTPUT_DIR_ENV] ?? '.visual-uat';
  const withComponents = componentBuild(config, env, outputDir);
  return {
    ...withComponents,
    globalSetup: asArray(config.globalSetup).filter((setup) => setup !== GLOBAL_SETUP),
    reporter: [[REPORTER, { role: 'baseline' }], ['list']],
    outputDir: baselineRunOutputDir(outputDir),
    webServer: Array.isArray(config.webServer) ? rewritten : rewritten[0],
    use: rewriteUse(withComponents.use, ports),
    projects: withComponents.projects?.map((project) => ({ ...project, use: rewriteUse(project.use, ports) })),
    metadata: { ...(config.metadata ?? {}), visualUatRole: 'baseline' },
  };
}

/** Vite reports real paths: compare against real paths too. */
function realPath(dir: string): string {
  return fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir);
}

/** A component-test config builds the base's components, into a cache folder of its own (see component-tests.ts). */
function componentBuild<T extends PlaywrightTestConfig>(config: T, env: NodeJS.ProcessEnv, outputDir: string): T {
  const repoRoot = env[REPO_ROOT_ENV];
  const worktree = env[WORKTREE_ENV];
  if (!repoRoot || !worktree) return config;
  const sources = { repoRoot: realPath(repoRoot), worktree: realPath(worktree), keep: [realPath(worktree), realPath(outputDir)] };
  return baselineComponentBuild(config, sources, path.resolve(baselineComponentCacheDir(outputDir)));
}
