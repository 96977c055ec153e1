import type { TestInfo } from '@playwright/test';
import type { TestCase } from '@playwright/test/reporter';
import { testFolder, testKey } from './layout';

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
