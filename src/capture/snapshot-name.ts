import crypto from 'node:crypto';
import type { TestInfo } from '@playwright/test';

/**
 * The checkpoint name of a `toHaveScreenshot` call: the name Playwright gives the snapshot file,
 * without its extension, so results, approvals and the report read as the suite did. Playwright's
 * rules (packages/playwright/src/worker/testInfo.ts `_resolveSnapshotPaths`, 1.49–1.65):
 *
 * - unnamed: the test's title path without the file, then a counter of the test's unnamed
 *   snapshots (`<describe> <title> 1`), shortened to 100 characters and made file-safe;
 * - named: the name made file-safe before its extension. The same name again in one test
 *   compares with the same file, but its output files get `-1`, `-2`, … after the name: a
 *   checkpoint name is unique in a test, so it takes that form.
 */

export type SnapshotName = string | string[] | undefined;

/** Playwright's file-safe form of a name (utils/fileUtils.ts `sanitizeForFilePath`). */
export function fileSafe(text: string): string {
  return text.replace(/[\x00-\x2C\x2E-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F]+/g, '-');
}

/** Playwright's shortening of a long name: its two ends around a piece of its SHA-1 (utils/fileUtils.ts `trimLongString`). */
export function shortened(text: string, length = 100): string {
  if (text.length <= length) return text;
  const middle = `-${crypto.createHash('sha1').update(text).digest('hex').slice(0, 5)}-`;
  const start = Math.floor((length - middle.length) / 2);
  return text.slice(0, start) + middle + text.slice(-(length - middle.length - start));
}

const IMAGE_EXTENSION = /\.(png|webp)$/i;

interface Counters {
  unnamed: number;
  named: Map<string, number>;
}

const countersByTest = new WeakMap<TestInfo, Counters>();

function countersOf(testInfo: TestInfo): Counters {
  let counters = countersByTest.get(testInfo);
  if (!counters) {
    counters = { unnamed: 0, named: new Map() };
    countersByTest.set(testInfo, counters);
  }
  return counters;
}

/** The next checkpoint name of a `toHaveScreenshot(name?)` call in this test, counting as Playwright counts. */
export function nextSnapshotName(testInfo: TestInfo, name: SnapshotName): string {
  const counters = countersOf(testInfo);
  if (!name || (Array.isArray(name) && name.length === 0)) {
    counters.unnamed += 1;
    return fileSafe(shortened([...testInfo.titlePath.slice(1), counters.unnamed].join(' ')));
  }
  // Segments are folders to Playwright; a checkpoint name has no folders, so they join with "-".
  const joined = Array.isArray(name) ? name.join('-') : name;
  if (!IMAGE_EXTENSION.test(joined))
    throw new Error(`toHaveScreenshot: the name "${joined}" must end in .png (Playwright's rule): e.g. toHaveScreenshot("${joined}.png")`);
  const base = fileSafe(joined.replace(IMAGE_EXTENSION, ''));
  const seen = counters.named.get(base) ?? 0;
  counters.named.set(base, seen + 1);
  return seen === 0 ? base : `${base}-${seen}`;
}
