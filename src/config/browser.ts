import fs from 'node:fs';
import type { PlaywrightTestConfig } from '@playwright/test';
import { ENV } from './environment';

/**
 * Where Playwright's own browsers cannot be downloaded (an air-gapped CI, a distro image), a system
 * Chromium is used instead: VISUAL_UAT_CHROMIUM names it, or /usr/bin/chromium is found when
 * Playwright's bundled Chromium is not installed. A project that sets its own executablePath or
 * channel is left alone.
 */

const SYSTEM_CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const SYSTEM_CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A file that can be run: a Chromium binary, not a leftover or an empty placeholder. */
function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function bundledChromiumInstalled(): boolean {
  try {
    // Through the peer dependency: playwright-core itself is not resolvable from here under pnpm.
    const { chromium } = require('@playwright/test') as typeof import('@playwright/test');
    return executable(chromium.executablePath());
  } catch {
    return false;
  }
}

/** What a newcomer without any Chromium reads instead of Playwright's stack of launch errors. */
export const NO_CHROMIUM =
  `visual-uat: no Chromium on this machine: run npx playwright install chromium, or install your ` +
  `system's chromium package (apt-get install chromium), or point ${ENV.chromium.name} at one`;

export function systemChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const explicit = ENV.chromium.read(env);
  if (explicit) {
    if (!fs.existsSync(explicit))
      throw new Error(`visual-uat: ${ENV.chromium.name}=${explicit} does not exist: point it at a Chromium binary or unset it`);
    return explicit;
  }
  if (bundledChromiumInstalled()) return null;
  return SYSTEM_CHROMIUM_CANDIDATES.find(executable) ?? null;
}

/** Whether any Chromium can be launched here: Playwright's own, or a system one. */
export function chromiumAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return bundledChromiumInstalled() || systemChromium(env) !== null;
}

type UseOptions = NonNullable<PlaywrightTestConfig['use']>;

/**
 * Whether a project launches Playwright's own Chromium: no other browser (by name, or by the
 * device it copies), no channel, no executable of its own. A system Chromium, once found, is the
 * project's executable (applySystemChromium), so only such a project needs the bundled one.
 */
export function launchesBundledChromium(use: UseOptions | undefined): boolean {
  return browserOf(use) === 'chromium' && !use?.channel && !use?.launchOptions?.executablePath;
}

/** The one-line stop for a run that would launch a Chromium this machine does not have; null when it has one. */
export function missingChromium(uses: (UseOptions | undefined)[]): string | null {
  return uses.some(launchesBundledChromium) && !bundledChromiumInstalled() ? NO_CHROMIUM : null;
}

/**
 * The browser a project's tests launch, its `use` laid over the config's as Playwright does: a
 * `browserName` set anywhere wins over a device's `defaultBrowserType` (devices['Desktop Firefox']
 * sets only the latter).
 */
export function browserOf(use: UseOptions | undefined, inherited?: UseOptions): string {
  return use?.browserName ?? inherited?.browserName ?? use?.defaultBrowserType ?? inherited?.defaultBrowserType ?? 'chromium';
}

function withChromium(use: UseOptions | undefined, inherited: UseOptions | undefined, executablePath: string): UseOptions | undefined {
  const merged = { ...inherited, ...use };
  if (browserOf(use, inherited) !== 'chromium' || merged.channel || merged.launchOptions?.executablePath) return use;
  const launchOptions = merged.launchOptions ?? {};
  return {
    ...use,
    launchOptions: {
      ...launchOptions,
      executablePath,
      args: [...(launchOptions.args ?? []), ...SYSTEM_CHROMIUM_ARGS],
    },
  };
}

/**
 * With projects, each Chromium project gets the system Chromium in its own launch options: set on
 * the config's `use`, it would reach the Firefox, WebKit and channel projects that inherit it.
 */
export function applySystemChromium<T extends PlaywrightTestConfig>(config: T, env: NodeJS.ProcessEnv = process.env): T {
  const executablePath = systemChromium(env);
  if (!executablePath) return config;
  if (!config.projects?.length) return { ...config, use: withChromium(config.use, undefined, executablePath) };
  return {
    ...config,
    projects: config.projects.map((project) => {
      const use = withChromium(project.use, config.use, executablePath);
      return use === project.use ? project : { ...project, use };
    }),
  };
}
