import path from 'node:path';
import { test as captureTest } from '../capture';
import { runOxtestFile } from './runner';

export interface OxtestRunner {
  /** Runs a .ox.test file, relative to the spec file (or absolute). */
  run(file: string): Promise<void>;
}

export interface OxtestFixtures {
  oxtest: OxtestRunner;
}

/** visual-uat's `test` with `oxtest`: checkpoints in a script are visual-uat checkpoints of this test. */
export const test = captureTest.extend<OxtestFixtures>({
  oxtest: async ({ page, visualUat }, use, testInfo) => {
    await use({ run: (file) => runOxtestFile(page, testInfo, path.resolve(path.dirname(testInfo.file), file), visualUat) });
  },
});
