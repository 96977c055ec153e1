import fs from 'node:fs';
import path from 'node:path';
import type { PlaywrightTestConfig, ReporterDescription } from '@playwright/test';
import type { BaseWebServer, VisualUatOptions } from '../types';
import { applySystemChromium, browserOf } from './browser';
import {
  ambiguousBaseOverride,
  baseOverride,
  baseServer,
  hostResolverRules,
  moveOrigins,
  pathVariants,
  rewriteUrl,
  serverPort,
  type WebServer,
} from './base-server';
import { baselineComponentBuild } from './component-tests';
import { currentRole, ENV } from './environment';
import { serialProjects } from './isolation';
import { outputPath } from './paths';
import { gatedReporters, REPORTER_NAME } from './reporters';
import { resolveOptions, withoutSecrets } from './settings';
import { screenshotDefaultsByProject } from './screenshot-defaults';
import { readyTarget, SERVER_READY } from './server-ready';
import { say } from '../util/output';

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
  return name === REPORTER || name === REPORTER_NAME;
}

type UseOptions = NonNullable<PlaywrightTestConfig['use']>;

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function normaliseReporters(reporter: PlaywrightTestConfig['reporter']): ReporterDescription[] {
  if (reporter === undefined) return [[ENV.ci.read() ? 'dot' : 'list']];
  if (typeof reporter === 'string') return [[reporter]];
  return reporter.map((entry) => (typeof entry === 'string' ? [entry] : entry) as ReporterDescription);
}

/**
 * Wires visual-uat into a Playwright config: the global setup (before the user's own) and the
 * reporter (first, so every other reporter sees the tests its gate failed and what it adds; see
 * reporters.ts). In the nested baseline pass it rewrites the config so the base app runs from the
 * base worktree on a port of its own.
 */
export function withVisualUat<T extends PlaywrightTestConfig>(config: T, options: VisualUatOptions = {}): T {
  resolveOptions(options);
  const ambiguous = ambiguousBaseOverride(options.baseWebServer, asArray(config.webServer));
  if (ambiguous) throw new Error(ambiguous);
  ENV.options.write(withoutSecrets(options));
  ENV.screenshotDefaults.write(screenshotDefaultsByProject(config));
  ENV.webServers.write(
    asArray(config.webServer).map((server, index): WebServerEntry => webServerEntry(server, baseOverride(options.baseWebServer, index))),
  );
  ENV.serialProjects.write(serialProjects(config));
  const userSetups = asArray(config.globalSetup);
  const wired = {
    ...config,
    globalSetup: [GLOBAL_SETUP, ...userSetups],
    reporter: gatedReporters([REPORTER, options], normaliseReporters(config.reporter)),
  };
  const withBrowser = applySystemChromium(wired);
  return currentRole() === 'baseline' ? baselineRole(withBrowser, options) : withBrowser;
}

/** One webServer entry of the config, as messages name it: its command and the current app's port (of `url` or `port`). */
export interface WebServerEntry {
  command: string;
  port: number | null;
  /** The base's command where baseWebServer gives it (`{port}` as written), else null. */
  baseWebServer: string | null;
}

function webServerEntry(server: WebServer, override: BaseWebServer | undefined): WebServerEntry {
  return { command: server.command, port: serverPort(server), baseWebServer: override ? (override.command ?? server.command) : null };
}

/** The config's webServer entries as withVisualUat saw them (see WEB_SERVERS_ENV). */
export function webServersFromEnv(env: NodeJS.ProcessEnv = process.env): WebServerEntry[] {
  return (ENV.webServers.read(env) ?? []) as WebServerEntry[];
}

/**
 * The base server runs under a guard that ends it when this runner dies, even by SIGKILL (see
 * baseline/server-guard). Process groups are POSIX; on Windows the command runs as given.
 */
function guarded(server: WebServer): WebServer {
  if (process.platform === 'win32' || !SERVER_GUARD.endsWith('.js')) return server;
  const target = readyTarget(server);
  return {
    ...server,
    command: `${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER_GUARD)}`,
    env: {
      ...(server.env ?? {}),
      ...ENV.guardedCommand.entry(server.command),
      ...ENV.guardPid.entry(process.pid),
      ...(target ? ENV.guardReady.entry(target) : {}),
    },
    ...(target ? { wait: { stdout: SERVER_READY } } : {}),
  };
}

function rewriteUse<U extends UseOptions | undefined>(use: U, ports: Map<number, number>): U {
  if (!use?.baseURL) return use;
  return { ...use, baseURL: rewriteUrl(use.baseURL, ports) };
}

function isChromium(use: UseOptions | undefined, inherited: UseOptions | undefined): boolean {
  return browserOf(use, inherited) === 'chromium';
}

/** Adds a Chromium flag where Chromium is launched; a Firefox or WebKit project keeps launch options without it. */
function withChromiumArg<T extends PlaywrightTestConfig>(config: T, arg: string | null): T {
  if (!arg) return config;
  const top = config.use;
  const withArg = (use: UseOptions | undefined): UseOptions => ({
    ...use,
    launchOptions: { ...use?.launchOptions, args: [...(use?.launchOptions?.args ?? []), arg] },
  });
  return {
    ...config,
    use: isChromium(top, undefined) ? withArg(top) : top,
    projects: config.projects?.map((project) => {
      if (isChromium(project.use, top)) return project.use?.launchOptions ? { ...project, use: withArg(project.use) } : project;
      // A non-Chromium project inherits the top-level launch options: without the Chromium flag.
      return project.use?.launchOptions || !isChromium(top, undefined)
        ? project
        : { ...project, use: { ...project.use, launchOptions: top?.launchOptions ?? {} } };
    }),
  };
}

/** Playwright's default expect timeout: the most a base test waits on an assertion. */
const BASE_EXPECT_TIMEOUT_MS = 5000;

type ExpectOptions = PlaywrightTestConfig['expect'];

/**
 * A base test that fails an assertion usually asserts what only the feature has, and waits out
 * the whole expect timeout first; suites raise it to 10 s and more for slow CI. In the baseline
 * role it is at most Playwright's default, which assertions that pass on a working app meet.
 */
function baseExpect(expect: ExpectOptions): ExpectOptions {
  if (expect?.timeout === undefined || expect.timeout <= BASE_EXPECT_TIMEOUT_MS) return expect;
  return { ...expect, timeout: BASE_EXPECT_TIMEOUT_MS };
}

/**
 * The baseline pass runs the current tests against the base app. Its servers start from the base
 * worktree on free ports (see base-server.ts) and never reuse a running server: with
 * `reuseExistingServer` the nested run would silently capture the current app as the "baseline".
 * baseURLs move to the base's ports, and Chromium maps every other way to a current server's
 * origin onto the base server.
 */
function baselineRole<T extends PlaywrightTestConfig>(config: T, options: VisualUatOptions, env: NodeJS.ProcessEnv = process.env): T {
  const freePorts = ENV.basePorts.read(env) ?? [];
  const servers = asArray(config.webServer) as WebServer[];
  const ports = new Map<number, number>();
  servers.forEach((server, index) => {
    const original = serverPort(server);
    if (original !== null && freePorts[index] !== undefined) ports.set(original, freePorts[index]);
  });
  const outputDir = ENV.outputDir.read(env) ?? '.visual-uat';
  const repoRoot = ENV.repoRoot.read(env);
  const checkout = {
    repoRoots: repoRoot ? pathVariants(repoRoot) : [],
    worktree: ENV.worktree.read(env) ?? '',
    configDirInBase: ENV.baseCwd.read(env)!,
    keep: pathVariants(outputDir),
  };
  const rewritten = servers.map((server, index) => {
    const port = freePorts[index];
    const { server: base, moved } = moveOrigins(baseServer(server, port, baseOverride(options.baseWebServer, index), checkout), ports);
    // The runner's output is the pass's log; workers load the config too, and say nothing.
    if (moved.length && !ENV.testWorkerIndex.read(env))
      say(`webServer[${index}] names another server's origin, moved to the base server's port: ${moved.join(', ')}`);
    return guarded({
      ...base,
      // The base server's own output goes to the pass's log: where it listened, why it stopped.
      stdout: 'pipe' as const,
      url: rewriteUrl(server.url, ports),
      port: server.port && port !== undefined ? port : undefined,
    });
  });
  const withComponents = withChromiumArg(componentBuild(config, env, outputDir), hostResolverRules(servers, ports));
  return {
    ...withComponents,
    // Its own setup only holds a run started ahead of its plan at its gate (see baseline/gate).
    globalSetup: ENV.passGate.read(env)
      ? asArray(config.globalSetup)
      : asArray(config.globalSetup).filter((setup) => setup !== GLOBAL_SETUP),
    reporter: [[REPORTER, { role: 'baseline' }], ['list']],
    outputDir: outputPath(outputDir, 'baselineRunOutput'),
    webServer: Array.isArray(config.webServer) ? rewritten : rewritten[0],
    use: rewriteUse(withComponents.use, ports),
    expect: baseExpect(withComponents.expect),
    projects: withComponents.projects?.map((project) => ({
      ...project,
      use: rewriteUse(project.use, ports),
      ...(project.expect ? { expect: baseExpect(project.expect) } : {}),
    })),
    metadata: { ...(config.metadata ?? {}), visualUatRole: 'baseline' },
  };
}

/** Vite reports real paths: compare against real paths too. */
function realPath(dir: string): string {
  return fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir);
}

/** A component-test config builds the base's components, into a cache folder of its own (see component-tests.ts). */
function componentBuild<T extends PlaywrightTestConfig>(config: T, env: NodeJS.ProcessEnv, outputDir: string): T {
  const repoRoot = ENV.repoRoot.read(env);
  const worktree = ENV.worktree.read(env);
  if (!repoRoot || !worktree) return config;
  const sources = { repoRoot: realPath(repoRoot), worktree: realPath(worktree), keep: [realPath(worktree), realPath(outputDir)] };
  return baselineComponentBuild(config, sources, path.resolve(outputPath(outputDir, 'baselineComponentCache')));
}
