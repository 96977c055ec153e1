import { describe, expect, it } from 'vitest';
import { baseAppUnreachable } from '../../../src/baseline/pass-failure';
import type { BaselineManifest } from '../../../src/types';

const record = (status: string, error: string | null, checkpoints: string[] = []) => ({
  folder: 'f',
  status,
  error,
  checkpoints,
  layouts: [],
});

describe('baseAppUnreachable', () => {
  it('stops a pass whose tests could not reach the base app', () => {
    const manifest: BaselineManifest = {
      complete: true,
      tests: {
        'chromium › home.spec.ts › home': record(
          'failed',
          'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:41203/\nCall log:\n  - navigating to "http://127.0.0.1:41203/"',
        ),
        'chromium › about.spec.ts › about': record('failed', 'Error: page.goto: net::ERR_EMPTY_RESPONSE at http://127.0.0.1:41203/about'),
      },
    };
    expect(baseAppUnreachable(manifest)).toBe(
      'the base app could not be reached: 2 of 2 tests failed there, e.g. chromium › home.spec.ts › home: Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:41203/',
    );
  });

  it('lets tests that assert what only the feature has fail on the base: their checkpoints are new', () => {
    const manifest: BaselineManifest = {
      complete: true,
      tests: {
        'chromium › promo.spec.ts › promo banner': record(
          'failed',
          "Error: expect(locator).toBeVisible() failed\n\nLocator: locator('.promo')\nExpected: visible",
        ),
      },
    };
    expect(baseAppUnreachable(manifest)).toBeNull();
  });

  it('never stops a pass in which some test captured', () => {
    const manifest: BaselineManifest = {
      complete: true,
      tests: {
        'chromium › a.spec.ts › a': record('passed', null, ['home']),
        'chromium › b.spec.ts › b': record('failed', 'Error: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:41203/'),
      },
    };
    expect(baseAppUnreachable(manifest)).toBeNull();
  });
});
