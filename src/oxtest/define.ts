import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from './fixture';

export const OXTEST_EXTENSION = '.ox.test';

/** The file of the code that called defineOxTests, as Playwright's own test() finds its caller. */
function callerFile(): string {
  const original = Error.prepareStackTrace;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    const frames = new Error().stack as unknown as NodeJS.CallSite[];
    const file = frames.map((frame) => frame.getFileName()).find((name) => name && name !== __filename && !name.startsWith('node:'));
    if (!file) throw new Error('defineOxTests: could not tell which spec file called it: pass an absolute folder');
    return file.startsWith('file://') ? fileURLToPath(file) : file;
  } finally {
    Error.prepareStackTrace = original;
  }
}

/**
 * One Playwright test per `*.ox.test` file in `folder` (relative to the calling spec file),
 * titled by the file name without `.ox.test`.
 */
export function defineOxTests(folder: string): void {
  const dir = path.isAbsolute(folder) ? folder : path.resolve(path.dirname(callerFile()), folder);
  if (!fs.existsSync(dir)) throw new Error(`defineOxTests: ${dir} does not exist: give a folder of .ox.test files, relative to the spec file`);
  const files = fs.readdirSync(dir).filter((name) => name.endsWith(OXTEST_EXTENSION)).sort();
  for (const name of files) {
    const file = path.join(dir, name);
    test(name.slice(0, -OXTEST_EXTENSION.length), async ({ oxtest }) => {
      await oxtest.run(file);
    });
  }
}
