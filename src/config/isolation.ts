import type { FullConfig, PlaywrightTestConfig } from '@playwright/test';
import { ENV } from './environment';

/** The projects of the user's config that turn `fullyParallel` off (Playwright's resolved project does not show it). */
export function serialProjects(config: PlaywrightTestConfig): string[] {
  return (config.projects ?? []).filter((project) => project.fullyParallel === false).map((project) => project.name ?? '');
}

/**
 * Whether a project's tests are isolated: Playwright runs them fully parallel (the config's or the
 * command line's `fullyParallel`, which a project may turn off unless the command line sets it), so
 * any of them may run in any worker, in any order, and none may depend on another. Only then may a
 * test's store key leave out the other tests of its file (see sources/test-text.ts).
 */
export function testsIsolated(
  config: Pick<FullConfig, 'fullyParallel'>,
  project: string,
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): boolean {
  if (!config.fullyParallel) return false;
  if (argv.includes('--fully-parallel')) return true;
  return !(ENV.serialProjects.read(env) ?? []).includes(project);
}

/**
 * The projects other projects depend on (`dependencies`: a setup project that signs in and saves
 * `storageState`) or name as their `teardown`, in config order. Their tests write files the
 * dependents read at paths the test code names, the same on both sides: a baseline pass beside the
 * current tests would overwrite them.
 */
export function setupProjects(config: Pick<FullConfig, 'projects'>): string[] {
  const needed = new Set(config.projects.flatMap((project) => [...project.dependencies, project.teardown]));
  return config.projects.map((project) => project.name).filter((name) => needed.has(name));
}
