import type { PlaywrightTestConfig } from '@playwright/test';
import { ENV } from './environment';

/**
 * The config's `expect.toHaveScreenshot` options, per project, as Playwright applies them: a
 * project's own `expect` replaces the config's whole (Playwright's `takeFirst`). Playwright keeps
 * them on an internal object only, so `withVisualUat`, which sees the config in every process of
 * the run, hands them to the workers through the environment.
 */

export type ScreenshotDefaults = NonNullable<NonNullable<PlaywrightTestConfig['expect']>['toHaveScreenshot']>;

export function screenshotDefaultsByProject(config: PlaywrightTestConfig): Record<string, ScreenshotDefaults> {
  const top = config.expect?.toHaveScreenshot ?? {};
  if (!config.projects?.length) return { '': top };
  return Object.fromEntries(
    config.projects.map((project) => [project.name ?? '', (project.expect ?? config.expect)?.toHaveScreenshot ?? {}]),
  );
}

export function screenshotDefaults(projectName: string, env: NodeJS.ProcessEnv = process.env): ScreenshotDefaults {
  const byProject = (ENV.screenshotDefaults.read(env) ?? {}) as Record<string, ScreenshotDefaults>;
  return byProject[projectName] ?? {};
}
