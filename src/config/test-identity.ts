import crypto from 'node:crypto';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { TestCase } from '@playwright/test/reporter';

/**
 * A test's identity across the two passes and every stage: its project and title path (file,
 * describes, title), the key the manifest, the results and the approvals use, and its image
 * folder. Each place Playwright describes a test (a worker's TestInfo, a reporter's TestCase, the
 * `--list` JSON) derives it here, so the sides always agree.
 */
export interface TestIdentity {
  project: string;
  /** File (relative to the project's testDir), describes, title. */
  titlePath: string[];
  key: string;
  folder: string;
}

export function testIdentity(project: string, titlePath: readonly string[]): TestIdentity {
  return { project, titlePath: [...titlePath], key: testKey(project, titlePath), folder: testFolder(project, titlePath) };
}

/** In a worker. */
export function identityOfTestInfo(testInfo: Pick<TestInfo, 'project' | 'titlePath'>): TestIdentity {
  return testIdentity(testInfo.project.name, testInfo.titlePath);
}

/** In a reporter: the title path without the root and project suites. */
export function identityOfTestCase(test: TestCase): TestIdentity {
  return testIdentity(test.parent.project()?.name ?? '', test.titlePath().slice(2));
}

/** `<test key> › <checkpoint>`: a checkpoint of the run, as the results' groups and the approvals name it. */
export function checkpointKey(test: string, checkpoint: string): string {
  return `${test} › ${checkpoint}`;
}

/** Identity of a test across the two passes: project + title path (file, describes, title). */
export function testKey(projectName: string, titlePath: readonly string[]): string {
  return (projectName ? [projectName, ...titlePath] : titlePath).join(' › ');
}

/** A readable, filesystem-safe name for a folder (at most 60 characters). */
export function slug(text: string): string {
  const cleaned = text
    .normalize('NFKC')
    .replace(/[\\/:*?"<>|\x00-\x1f]+/g, '-')
    .replace(/\s+/g, '-')
    .replace(/^\.+/, '')
    .slice(0, 60);
  return cleaned || '_';
}

/** A folder name per test that is readable, filesystem-safe and collision-free (short hash of the key). */
export function testFolder(projectName: string, titlePath: readonly string[]): string {
  const hash = crypto.createHash('sha1').update(testKey(projectName, titlePath)).digest('hex').slice(0, 8);
  const title = titlePath.slice(1).join(' ');
  return path.join(slug(projectName || 'default'), `${slug(title)}-${hash}`);
}

/** `[desktop, mobile]`: Playwright projects as a row names them, as Playwright's list reporter names one (`[mobile] › …`). */
export function projectsLabel(projects: readonly string[]): string {
  return `[${projects.join(', ')}]`;
}
