import path from 'node:path';
import type { TestCase } from '@playwright/test/reporter';
import { identityOfTestCase } from '../config/test-identity';
import type { ListedTest } from './selection';

/**
 * The runner's test list, handed from visual-uat's reporter (onBegin, just before the first test
 * starts) to the global setup of the same run, which waits for it to choose the tests its baseline
 * pass renders beside them. Playwright calls onBegin synchronously and starts the tests when it
 * returns, so what the listener writes (the stored baselines, the run context) is in place before
 * any capture. Kept on globalThis: the runner may load the global setup and the reporter as two
 * instances of this module.
 */
type SuiteListener = (tests: ListedTest[]) => void;

const LISTENER = Symbol.for('visual-uat.suiteListener');

interface WithListener {
  [LISTENER]?: SuiteListener;
}

const holder = globalThis as WithListener;

export function awaitSuite(listener: SuiteListener): void {
  holder[LISTENER] = listener;
}

export function stopAwaitingSuite(): void {
  delete holder[LISTENER];
}

/**
 * Called by the reporter's onBegin in the current role: the listener hears the list once. An empty
 * list is not handed over: Playwright begins with an empty suite when the test files fail to load.
 */
export function handOverSuite(rootDir: string, tests: readonly TestCase[]): void {
  const listener = holder[LISTENER];
  if (!listener || tests.length === 0) return;
  stopAwaitingSuite();
  listener(suiteTests(rootDir, tests));
}

/**
 * The runner's own test list (the reporter's onBegin) as a listing gives it (see listedTests): the
 * file relative to the config's rootDir, the title path without the file, no test declared skipped.
 */
function suiteTests(rootDir: string, tests: readonly TestCase[]): ListedTest[] {
  return tests
    .filter((test) => test.expectedStatus !== 'skipped')
    .map((test) => {
      const { project, titlePath, key, folder } = identityOfTestCase(test);
      const { file, line, column } = test.location;
      return { project, relativeFile: path.relative(rootDir, file), file, line, column, titlePath: titlePath.slice(1), key, folder };
    });
}
