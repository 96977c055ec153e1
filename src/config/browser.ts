import fs from 'node:fs';
import type { PlaywrightTestConfig } from '@playwright/test';

/**
 * Where Playwright's own browsers cannot be downloaded (an air-gapped CI, a distro image), a system
 * Chromium is used instead: VISUAL_UAT_CHROMIUM names it, or /usr/bin/chromium is found when
 * Playwright's bundled Chromium is not installed. A project that sets its own executablePath or
 * channel is left alone.
 */

export const CHROMIUM_ENV = 'VISUAL_UAT_CHROMIUM';
const SYSTEM_CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const SYSTEM_CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function bundledChromiumInstalled(): boolean {
  try {
    // Through the peer dependency: playwright-core itself is not resolvable from here under pnpm.
    const { chromium } = require('@playwright/test') as typeof import('@playwright/test');
    return fs.existsSync(chromium.executablePath());
  } catch {
    return false;
  }
}

export function systemChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const explicit = env[CHROMIUM_ENV];
  if (explicit) {
    if (!fs.existsSync(explicit))
      throw new Error(`visual-uat: ${CHROMIUM_ENV}=${explicit} does not exist: point it at a Chromium binary or unset it`);
    return explicit;
  }
  if (bundledChromiumInstalled()) return null;
  return SYSTEM_CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}

type UseOptions = NonNullable<PlaywrightTestConfig['use']>;

function withChromium(use: UseOptions | undefined, executablePath: string): UseOptions | undefined {
  const browserName = use?.browserName;
  if (browserName && browserName !== 'chromium') return use;
  if (use?.channel || use?.launchOptions?.executablePath) return use;
  const launchOptions = use?.launchOptions ?? {};
  return {
    ...use,
    launchOptions: {
      ...launchOptions,
      executablePath,
      args: [...(launchOptions.args ?? []), ...SYSTEM_CHROMIUM_ARGS],
    },
  };
}

export function applySystemChromium<T extends PlaywrightTestConfig>(config: T, env: NodeJS.ProcessEnv = process.env): T {
  const executablePath = systemChromium(env);
  if (!executablePath) return config;
  return {
    ...config,
    use: withChromium(config.use, executablePath),
    projects: config.projects?.map((project) =>
      project.use?.launchOptions || project.use?.browserName ? { ...project, use: withChromium(project.use, executablePath) } : project,
    ),
  };
}
