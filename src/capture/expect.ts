import { expect as playwrightExpect, test, type ExpectMatcherState, type Locator, type Page } from '@playwright/test';
import { screenshotDefaults } from '../config/screenshot-defaults';
import type { CheckpointOptions } from './checkpoint';
import { takeCheckpoint } from './checkpoint';
import { inVisualUatRun } from './target';
import { nextSnapshotName, type SnapshotName } from './snapshot-name';

/**
 * `expect(page | locator).toHaveScreenshot(name?, options?)` as a visual-uat checkpoint: in a run
 * of visual-uat it is captured and compared with the base branch, and no snapshot file is read or
 * written; anywhere else (a config without `withVisualUat`) it is Playwright's own matcher.
 */

/** The options of Playwright's `toHaveScreenshot` (page and locator), all honoured. */
export interface ToHaveScreenshotOptions {
  animations?: 'disabled' | 'allow';
  caret?: 'hide' | 'initial';
  clip?: { x: number; y: number; width: number; height: number };
  fullPage?: boolean;
  mask?: Locator[];
  maskColor?: string;
  maxDiffPixelRatio?: number;
  maxDiffPixels?: number;
  omitBackground?: boolean;
  scale?: 'css' | 'device';
  stylePath?: string | string[];
  threshold?: number;
  timeout?: number;
}

type NameOrOptions = SnapshotName | (ToHaveScreenshotOptions & { name?: SnapshotName });

function isPage(subject: Page | Locator): subject is Page {
  // A Locator has page(); a Page has none. Duck-typed: Playwright's classes are not exported.
  return typeof (subject as Locator).page !== 'function';
}

/** Playwright's two call shapes, `(name?, options?)` and `(options with name?)`. */
function splitArguments(
  nameOrOptions: NameOrOptions,
  options: ToHaveScreenshotOptions = {},
): { name: SnapshotName; options: ToHaveScreenshotOptions } {
  if (nameOrOptions === undefined || typeof nameOrOptions === 'string' || Array.isArray(nameOrOptions))
    return { name: nameOrOptions, options };
  const { name, ...rest } = nameOrOptions;
  return { name, options: rest };
}

/**
 * The checkpoint options of a call: the config's `expect.toHaveScreenshot` under the call's own,
 * and Playwright's defaults where they differ from a checkpoint's (the viewport, not the whole page;
 * the expect timeout).
 */
export function checkpointOptions(
  subject: Page | Locator,
  call: ToHaveScreenshotOptions,
  defaults: ToHaveScreenshotOptions,
  expectTimeout: number,
): CheckpointOptions {
  const merged = { ...defaults, ...call };
  return {
    ...merged,
    locator: isPage(subject) ? undefined : subject,
    fullPage: merged.fullPage ?? false,
    timeout: merged.timeout ?? expectTimeout,
  };
}

async function toHaveScreenshot(
  this: ExpectMatcherState,
  subject: Page | Locator,
  nameOrOptions?: NameOrOptions,
  maybeOptions?: ToHaveScreenshotOptions,
) {
  if (!inVisualUatRun()) return playwrightToHaveScreenshot(this, subject, nameOrOptions, maybeOptions);
  if (this.isNot)
    throw new Error(
      'expect(…).not.toHaveScreenshot() has no baseline branch to differ from: under visual-uat, assert what must not show with ' +
        'a DOM assertion instead',
    );
  const testInfo = test.info();
  const { name, options } = splitArguments(nameOrOptions, maybeOptions);
  const page = isPage(subject) ? subject : subject.page();
  const defaults = screenshotDefaults(testInfo.project.name) as ToHaveScreenshotOptions;
  await takeCheckpoint(page, testInfo, nextSnapshotName(testInfo, name), checkpointOptions(subject, options, defaults, this.timeout));
  return { pass: true, name: 'toHaveScreenshot', message: () => '' };
}

/** Outside a visual-uat run: Playwright's matcher itself, with this assertion's timeout and negation. */
async function playwrightToHaveScreenshot(
  state: ExpectMatcherState,
  subject: Page | Locator,
  nameOrOptions?: NameOrOptions,
  options?: ToHaveScreenshotOptions,
) {
  const assertions = playwrightExpect.configure({ timeout: state.timeout })(subject);
  try {
    // Playwright's overloads take the name and the options apart; the call passes them on as given.
    await (state.isNot ? assertions.not : assertions).toHaveScreenshot(nameOrOptions as string, options);
    return { pass: !state.isNot, name: 'toHaveScreenshot', message: () => '' };
  } catch (error) {
    return { pass: state.isNot, name: 'toHaveScreenshot', message: () => (error as Error).message };
  }
}

/**
 * Playwright's `expect` with `toHaveScreenshot` as a checkpoint. Extended twice: before 1.62,
 * `extend` also added its matchers to the expect it was called on (Playwright's "legacy
 * behaviour"), so a first, empty extend gives this one a matcher table of its own and the
 * `expect` of `@playwright/test` keeps Playwright's matcher.
 */
export const expect = playwrightExpect.extend({}).extend({ toHaveScreenshot });
