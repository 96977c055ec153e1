import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ENV } from '../config/environment';
import type { WebServerEntry } from '../config/with-visual-uat';
import type { BaselineManifest } from '../types';
import { readManifest } from '../files/run-folder';
import { explainPassFailure } from './pass-failure';
import { portSource } from './port-source';

/** Enough ports for every webServer entry a config is likely to have; unused ones cost nothing. */
const PORTS_PER_PASS = 4;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Flags of the outer run that must not reach the nested one: it has its own reporter and output. */
const DROPPED_WITH_VALUE = new Set([
  '--reporter',
  '--output',
  '-o',
  '--max-failures',
  '-x',
  '--ui-port',
  '--ui-host',
  '--update-source-method',
]);
const DROPPED_FLAGS = new Set(['--ui', '--debug', '--list', '-x', '--last-failed']);
/** `-u` / `--update-snapshots` take an optional mode: the baseline pass has no snapshots to update. */
const UPDATE_FLAGS = new Set(['-u', '--update-snapshots']);
const UPDATE_MODES = new Set(['all', 'changed', 'missing', 'none']);

/** The outer `playwright test …` arguments (projects, grep, shard, files) minus what the nested run must not inherit. */
export function nestedArgs(argv: string[]): string[] {
  const start = argv.indexOf('test');
  const args = start === -1 ? [] : argv.slice(start + 1);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag] = arg.split('=');
    if (DROPPED_WITH_VALUE.has(flag)) {
      if (!arg.includes('=') && flag !== '-x') i++;
      continue;
    }
    if (UPDATE_FLAGS.has(flag)) {
      if (!arg.includes('=') && UPDATE_MODES.has(args[i + 1])) i++;
      continue;
    }
    if (DROPPED_FLAGS.has(flag)) continue;
    kept.push(arg);
  }
  return kept;
}

/**
 * The arguments for a nested run given a `--test-list`: the list holds the shard's tests already
 * (it comes from a listing with the same `--shard`), and Playwright shards after the list filters,
 * so a `--shard` kept would run only part of the list.
 */
export function withoutShard(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--shard') i++;
    else if (!args[i].startsWith('--shard=')) kept.push(args[i]);
  }
  return kept;
}

export interface BaselinePassInput {
  configFile: string;
  configDir: string;
  repoRoot: string;
  worktree: string;
  /**
   * Where the nested run keeps its Playwright output and component build: the output folder, or a
   * pass beside the tests' root outside the project.
   */
  outputDir: string;
  baselineDir: string;
  /** The outer run's arguments as the nested run takes them (see nestedArgs). */
  args: string[];
  logFile: string;
  /** The config's webServer entries (command as shown, port), for the message when a base server cannot start. */
  servers: WebServerEntry[];
  /** More of the run's environment: the gate of a run started ahead of its plan (see pass-ahead.ts). */
  env?: NodeJS.ProcessEnv;
}

export interface BaselinePassOutcome {
  manifest: BaselineManifest | null;
  /** Why the pass produced no usable manifest: one line with the fix. */
  error: string | null;
  exitCode: number | null;
}

/**
 * Runs the current tests against the base app: a nested `playwright test` with the same config and
 * arguments, in the baseline role (see withVisualUat). Its output goes to a log file.
 */
export async function runBaselinePass(input: BaselinePassInput): Promise<BaselinePassOutcome> {
  const ports: number[] = [];
  for (let i = 0; i < PORTS_PER_PASS; i++) ports.push(await freePort());
  const cli = createRequire(input.configFile).resolve('@playwright/test/cli');
  const args = [cli, 'test', ...input.args];
  if (!args.some((arg) => arg === '-c' || arg === '--config' || arg.startsWith('--config='))) args.push('--config', input.configFile);
  fs.rmSync(input.baselineDir, { recursive: true, force: true });
  fs.mkdirSync(input.baselineDir, { recursive: true });
  fs.mkdirSync(path.dirname(input.logFile), { recursive: true });
  const log = fs.openSync(input.logFile, 'w');
  const baseConfigDir = path.join(input.worktree, path.relative(input.repoRoot, input.configDir));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...ENV.role.entry('baseline'),
    ...ENV.baseCwd.entry(baseConfigDir),
    ...ENV.basePorts.entry(ports),
    ...ENV.baselineDir.entry(input.baselineDir),
    ...ENV.outputDir.entry(input.outputDir),
    ...ENV.repoRoot.entry(input.repoRoot),
    ...ENV.worktree.entry(input.worktree),
    ...ENV.forceColor.entry('0'),
    ...input.env,
  };
  const exitCode = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env, stdio: ['ignore', log, log] });
    child.on('error', () => resolve(null));
    child.on('exit', (code) => resolve(code));
  });
  fs.closeSync(log);
  const manifest = readManifest(input.baselineDir);
  if (manifest?.complete) return { manifest, error: null, exitCode };
  const servers = input.servers.map((server) => ({ ...server, ...portSource(baseConfigDir, server, input.servers.length === 1) }));
  const reason = explainPassFailure({ log: fs.readFileSync(input.logFile, 'utf8'), basePorts: ports, servers });
  return { manifest: null, error: `the baseline pass failed: ${reason}`, exitCode };
}
