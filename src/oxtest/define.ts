import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { rawUserCallSite } from '../util/call-site';
import { test, type OxtestRunner } from './fixture';

export const OXTEST_EXTENSION = '.ox.test';

type TestBody = (args: { oxtest: OxtestRunner }) => Promise<void>;
type Declare = (declare: (title: string, body: TestBody) => void, title: string, body: TestBody) => void;

/**
 * Playwright locates a test at the frame that calls `test()`. Called from this file, every flow
 * would be located in node_modules and no file filter would find it. Compiled under the spec
 * file's name and position, the call is located where the spec calls defineOxTests: file
 * filters, --list, test.only and the report's file grouping treat the flows as the spec's tests.
 * The position is the raw one: Playwright maps it through the spec's source map as it maps its own.
 */
function declarerAt(site: { fileName: string; line: number; column: number }): Declare {
  const call = `${' '.repeat(Math.max(0, site.column - 1))}declare(title, body)`;
  return vm.runInThisContext(`(declare, title, body) =>\n${call}`, { filename: site.fileName, lineOffset: site.line - 2 }) as Declare;
}

/**
 * One Playwright test per `*.ox.test` file in `folder` (relative to the calling spec file),
 * titled by the file name without `.ox.test`.
 */
export function defineOxTests(folder: string): void {
  const site = rawUserCallSite();
  if (!site && !path.isAbsolute(folder))
    throw new Error('defineOxTests: could not tell which spec file called it: pass an absolute folder');
  const specFile = site ? (site.fileName.startsWith('file://') ? fileURLToPath(site.fileName) : site.fileName) : null;
  const dir = path.isAbsolute(folder) ? folder : path.resolve(path.dirname(specFile!), folder);
  if (!fs.existsSync(dir))
    throw new Error(`defineOxTests: ${dir} does not exist: give a folder of .ox.test files, relative to the spec file`);
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(OXTEST_EXTENSION))
    .sort();
  const declare: Declare = site ? declarerAt(site) : (declareTest, title, body) => declareTest(title, body);
  for (const name of files) {
    const file = path.join(dir, name);
    declare(test as (title: string, body: TestBody) => void, name.slice(0, -OXTEST_EXTENSION.length), async ({ oxtest }) => {
      await oxtest.run(file);
    });
  }
}
