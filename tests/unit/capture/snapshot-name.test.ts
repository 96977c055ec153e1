import type { TestInfo } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { nextSnapshotName, shortened } from '../../../src/capture/snapshot-name';

const testInfo = (titlePath: string[]) => ({ titlePath }) as unknown as TestInfo;

describe("nextSnapshotName (Playwright's snapshot names, without the extension)", () => {
  it('numbers unnamed snapshots after the title path without the file', () => {
    const info = testInfo(['pricing.spec.ts', 'pricing', 'shows three plans']);
    expect(nextSnapshotName(info, undefined)).toBe('pricing-shows-three-plans-1');
    expect(nextSnapshotName(info, [])).toBe('pricing-shows-three-plans-2');
    expect(nextSnapshotName(info, 'hero.png')).toBe('hero');
    expect(nextSnapshotName(info, undefined)).toBe('pricing-shows-three-plans-3');
  });

  it('makes a name file-safe before its extension and numbers a repeated one as Playwright numbers its output files', () => {
    const info = testInfo(['home.spec.ts', 'home']);
    expect(nextSnapshotName(info, 'Landing page (dark).png')).toBe('Landing-page-dark-');
    expect(nextSnapshotName(info, 'hero.png')).toBe('hero');
    expect(nextSnapshotName(info, 'hero.png')).toBe('hero-1');
    expect(nextSnapshotName(info, 'card.webp')).toBe('card');
    expect(nextSnapshotName(info, ['cards', 'first.png'])).toBe('cards-first');
  });

  it('refuses a name without an image extension, as Playwright does', () => {
    expect(() => nextSnapshotName(testInfo(['a.spec.ts', 'a']), 'hero')).toThrow('toHaveScreenshot: the name "hero" must end in .png');
  });

  it('shortens a long title to 100 characters around a piece of its hash', () => {
    const long = 'x'.repeat(150);
    const short = shortened(long);
    expect(short).toHaveLength(100);
    expect(short).toMatch(/^x{46}-[0-9a-f]{5}-x{47}$/);
  });
});
