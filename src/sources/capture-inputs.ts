import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FullProject } from '@playwright/test';
import { withoutSecrets } from '../config/settings';
import type { VisualUatOptions } from '../types';
import { readJsonFile } from '../util/fs';
import { ownManifest } from '../util/own-package';

/**
 * What reaches a capture besides the test's sources and the base app: the options that change a
 * screenshot, the project's `use` (browser, viewport, device), and the versions of Playwright and
 * visual-uat. The suite key and each test's store entry are keyed on it.
 */

/** Options that can change what a capture looks like; the rest (evaluator, failOn, where files go, …) never reach the baselines. */
export function captureOptions(options: VisualUatOptions): VisualUatOptions {
  const {
    evaluator: _evaluator,
    failOn: _failOn,
    updateBaselines: _update,
    keepWorktrees: _keep,
    outputDir: _dir,
    baseBranch: _base,
    allowMissingBaselines: _allow,
    labelsDir: _labels,
    baselineStore: _store,
    ...rest
  } = withoutSecrets(options);
  return rest;
}

export function versions(configFile: string): Record<string, string> {
  const version = (file: string): string => readJsonFile<{ version: string }>(file)?.version ?? 'unknown';
  let playwright = 'unknown';
  try {
    playwright = version(createRequire(configFile).resolve('@playwright/test/package.json'));
  } catch {
    // Without a resolvable @playwright/test the run fails anyway, with Playwright's own message.
  }
  return { playwright, visualUat: ownManifest()?.version ?? 'unknown' };
}

/**
 * A project's `use` as the store keys it: the same on every machine and checkout (the repository's
 * path written as `<repo>`; functions by their source; without `baseURL`, whose port changes from
 * run to run and which the base pass points elsewhere anyway), and the browser binary it names by
 * size and modification time, so a system Chromium upgraded in place is a different browser.
 */
export function projectUse(project: Pick<FullProject, 'use'> | undefined, repoRoot: string): string {
  const { baseURL: _where, ...use } = project?.use ?? {};
  const text = JSON.stringify(use, (_key, value: unknown) => (typeof value === 'function' ? String(value) : value)) ?? '{}';
  const executable = project?.use?.launchOptions?.executablePath;
  let binary = '';
  if (executable) {
    try {
      const stat = fs.statSync(executable);
      binary = `${stat.size}:${Math.round(stat.mtimeMs)}`;
    } catch {
      binary = 'missing';
    }
  }
  return `${text.split(repoRoot).join('<repo>')}\0${binary}`;
}
