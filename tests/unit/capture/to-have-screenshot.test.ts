import type { Locator, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { checkpointOptions } from '../../../src/capture/expect';

const page = { screenshot: () => undefined } as unknown as Page;
const locator = { page: () => page } as unknown as Locator;

describe('checkpointOptions (toHaveScreenshot → checkpoint)', () => {
  it("keeps Playwright's defaults: the viewport, the expect timeout", () => {
    expect(checkpointOptions(page, {}, {}, 7000)).toEqual({ locator: undefined, fullPage: false, timeout: 7000 });
  });

  it("puts the call's options over the config's expect.toHaveScreenshot", () => {
    const options = checkpointOptions(
      page,
      { maxDiffPixels: 20, fullPage: true },
      { maxDiffPixels: 100, threshold: 0.3, stylePath: '/abs/screenshot.css', timeout: 9000 },
      5000,
    );
    expect(options).toEqual({
      locator: undefined,
      fullPage: true,
      maxDiffPixels: 20,
      threshold: 0.3,
      stylePath: '/abs/screenshot.css',
      timeout: 9000,
    });
  });

  it("captures a locator's element", () => {
    expect(checkpointOptions(locator, { omitBackground: true }, {}, 5000)).toMatchObject({ locator, omitBackground: true });
  });
});
