import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ENV, type Variable } from '../config/environment';
import { resolveSettings, type Settings } from '../config/settings';
import type { VisualUatOptions } from '../types';
import { printLine } from '../util/output';
import type { ProbedConfig } from './config-probe';

/** The names Playwright looks for when no --config is given, in its order. */
const CONFIG_NAMES = [
  'playwright.config.ts',
  'playwright.config.js',
  'playwright.config.mts',
  'playwright.config.mjs',
  'playwright.config.cts',
  'playwright.config.cjs',
];
const PROBE_TIMEOUT_MS = 60_000;
/** A test-file filter no path matches: Playwright loads the config and builds its reporters, and loads no test file. */
const NO_TEST_FILE = '^$';

export interface CliFlags {
  /** The Playwright config (a file, or the folder that has it). */
  config?: string;
  /** The output folder, relative to the config's folder. */
  dir?: string;
}

function configIn(dir: string): string | null {
  return CONFIG_NAMES.map((name) => path.join(dir, name)).find((file) => fs.existsSync(file)) ?? null;
}

/** The Playwright config the CLI works for: --config (a file, or a folder with one), else the current folder's, as Playwright finds it. */
export function findConfig(flag: string | undefined, cwd: string): string | null {
  if (!flag) return configIn(cwd);
  const resolved = path.resolve(cwd, flag);
  if (!fs.existsSync(resolved)) throw new Error(`visual-uat: --config ${flag} does not exist: name your Playwright config file`);
  if (!fs.statSync(resolved).isDirectory()) return resolved;
  const found = configIn(resolved);
  if (!found)
    throw new Error(`visual-uat: ${flag} has no playwright.config.{ts,js,mts,mjs,cts,cjs}: name your Playwright config file with --config`);
  return found;
}

/** The environment of the CLI without the variables a run hands its own processes. */
function userEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return without(env, [ENV.outputDir, ENV.role, ENV.contextFile]);
}

function without(env: NodeJS.ProcessEnv, variables: readonly Variable<unknown>[]): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const variable of variables) variable.write(undefined, rest);
  return rest;
}

function probeModule(): string {
  const compiled = path.join(__dirname, 'config-probe.js');
  return fs.existsSync(compiled) ? compiled : path.join(__dirname, 'config-probe.ts');
}

/** Why Playwright could not load a config: its first line of output. */
export class ConfigLoadError extends Error {}

/**
 * The config as a run sees it, learnt the way a run learns it: Playwright's own CLI loads the
 * config (TypeScript or JavaScript, CommonJS or ESM, whatever its version), with a reporter that
 * records withVisualUat's options and the webServer entries. `playwright test --list` starts no
 * server and no global setup, and with a filter that matches no file it loads no test either (it
 * then exits 1, "No tests found": only the probe's file says whether the config loaded).
 */
export function probeConfig(configFile: string, env: NodeJS.ProcessEnv = process.env): ProbedConfig {
  let cli: string;
  try {
    cli = createRequire(configFile).resolve('@playwright/test/cli');
  } catch {
    throw new ConfigLoadError('@playwright/test is not installed beside it');
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-config-'));
  const file = path.join(scratch, 'options.json');
  try {
    const probe = spawnSync(process.execPath, [cli, 'test', '--list', '--config', configFile, '--reporter', probeModule(), NO_TEST_FILE], {
      cwd: path.dirname(configFile),
      env: { ...userEnv(env), ...ENV.probeFile.entry(file) },
      encoding: 'utf8',
      timeout: PROBE_TIMEOUT_MS,
    });
    if (!fs.existsSync(file))
      throw new ConfigLoadError(
        `${probe.stderr ?? ''}\n${probe.stdout ?? ''}`
          .split('\n')
          .map((line) => line.trim())
          .find(Boolean) ??
          probe.error?.message ??
          'no output',
      );
    return JSON.parse(fs.readFileSync(file, 'utf8')) as ProbedConfig;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The options the config gives withVisualUat (see probeConfig). */
export function loadConfigOptions(configFile: string, env: NodeJS.ProcessEnv = process.env): VisualUatOptions {
  try {
    return probeConfig(configFile, env).options;
  } catch (error) {
    if (!(error instanceof ConfigLoadError)) throw error;
    if (error.message.startsWith('@playwright/test is not installed'))
      throw new Error(`visual-uat: @playwright/test is not installed beside ${configFile}: run npm install, or pass --dir <output folder>`);
    throw new Error(
      `visual-uat: could not load ${path.basename(configFile)} to find its output folder (${error.message}): fix the config, or ` +
        `pass --dir <output folder>`,
    );
  }
}

/**
 * The config's options. When the output folder is given, a config that cannot be loaded does not
 * stop the command (the folder is known): it says which options fall back to their defaults.
 */
function loadOptions(configFile: string, env: NodeJS.ProcessEnv, load: typeof loadConfigOptions, folderGiven: boolean): VisualUatOptions {
  try {
    return load(configFile, env);
  } catch (error) {
    if (!folderGiven) throw error;
    printLine(
      `visual-uat: the output folder is given, but its other options are not known (${(error as Error).message}): labelsDir, ` +
        `the evaluator and the tolerances take their defaults`,
      'warning',
    );
    return {};
  }
}

/**
 * What a command reads from the settings: the output folder alone (`report`), or the options too (labelsDir, the evaluator, tolerances).
 */
export type CliNeeds = 'output-folder' | 'options';

/**
 * The CLI's settings, resolved as a run resolves them: --dir, else VISUAL_UAT_DIR, else the
 * config's `withVisualUat({ outputDir })`, else `.visual-uat`, relative to the config's folder. The
 * config is loaded unless --dir or VISUAL_UAT_DIR decides all a command needs: a command that
 * also reads options gets the config's, whichever folder it works in.
 */
export function cliSettings(
  flags: CliFlags,
  needs: CliNeeds = 'options',
  cwd = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
  load = loadConfigOptions,
): Settings {
  const configFile = findConfig(flags.config, cwd);
  const own = userEnv(env);
  const folderGiven = Boolean(flags.dir || ENV.dir.read(own));
  const options = configFile && (needs === 'options' || !folderGiven) ? loadOptions(configFile, own, load, folderGiven) : {};
  if (flags.dir) return resolveSettings(configFile, { ...options, outputDir: flags.dir }, without(own, [ENV.dir]), cwd);
  return resolveSettings(configFile, options, own, cwd);
}
