import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareImages, CompareError, type CompareOutcome } from '../../../src/compare';
import { systemChromium } from '../../../src/config/browser';

/** Real browser screenshots of a long page, and of the same page with small edits. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-compare-'));
const tolerance = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };
let browser: Browser;

function page(options: { banner?: boolean; dropSection?: number; buttonColour?: string; nudge?: string } = {}): string {
  const sections = Array.from({ length: 12 }, (_, i) => i)
    .filter((i) => i !== options.dropSection)
    .map(
      (i) =>
        `<section style="height:220px;padding:16px;border-bottom:1px solid #ccd"><h2>Section ${i}</h2><p>Paragraph ${i}: the quick brown fox jumps over the lazy dog.</p></section>`,
    )
    .join('');
  const banner = options.banner ? '<div style="height:200px;background:#ffd34d;font-size:40px">Spring sale: 20% off</div>' : '';
  return `<html><body style="margin:0;font-family:DejaVu Sans,sans-serif">
    <header style="height:80px;background:#14213d;color:white;font-size:28px;padding:20px">Acme</header>${banner}
    <button style="margin:20px;padding:12px 24px;background:${options.buttonColour ?? '#2a6df4'};color:white;border:0;border-radius:6px;${options.nudge ?? ''}">Buy now</button>
    ${sections}</body></html>`;
}

async function shot(name: string, html: string, width = 1280): Promise<string> {
  const context = await browser.newContext({ viewport: { width, height: 720 } });
  const tab = await context.newPage();
  await tab.setContent(html);
  const file = path.join(dir, `${name}.png`);
  await tab.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
  await context.close();
  return file;
}

function compare(name: string, baseline: string, current: string): Promise<CompareOutcome> {
  return compareImages({ baseline, current, diffOutput: path.join(dir, `${name}-diff.png`), tolerance });
}

let base: string;
let baseHeight: number;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
  base = await shot('base', page());
  baseHeight = fs.readFileSync(base).readUInt32BE(20);
});

afterAll(async () => {
  await browser?.close();
});

describe('compareImages on real screenshots', () => {
  it('finds two captures of the same page identical', async () => {
    expect(baseHeight).toBeGreaterThan(2800);
    expect(await compare('identical', base, await shot('again', page()))).toEqual({ kind: 'identical' });
  });

  it('does not count anti-aliasing of a sub-pixel shift as a change', async () => {
    const nudged = await shot('nudged', page({ nudge: 'transform:translateX(0.4px)' }));
    const outcome = await compare('aa', base, nudged);
    if (outcome.kind !== 'identical') expect(outcome.metrics.pixelDiffPercent).toBeLessThan(0.05);
  });

  it('reports a colour change as a modified region around the button', async () => {
    const outcome = await compare('colour', base, await shot('colour', page({ buttonColour: '#e0352b' })));
    expect(outcome.kind).toBe('different');
    if (outcome.kind !== 'different') return;
    expect(outcome.metrics.pixelDiffPercent).toBeGreaterThan(0);
    expect(outcome.metrics.pixelDiffPercent).toBeLessThan(0.5);
    const [region] = outcome.metrics.changedRegions;
    expect(outcome.metrics.changedRegions).toHaveLength(1);
    expect(region).toMatchObject({ kind: 'modified' });
    expect(region.y).toBeGreaterThanOrEqual(80);
    expect(region.y + region.height).toBeLessThanOrEqual(200);
    expect(fs.existsSync(outcome.diffImage)).toBe(true);
  });

  it('sees a 200 px band inserted near the top as added, not the page below it as changed', async () => {
    const outcome = await compare('insertion', base, await shot('insertion', page({ banner: true })));
    expect(outcome.kind).toBe('different');
    if (outcome.kind !== 'different') return;
    const bandShare = (200 / (baseHeight + 200)) * 100;
    expect(outcome.metrics.pixelDiffPercent).toBeLessThanOrEqual(2 * bandShare);
    const added = outcome.metrics.changedRegions.filter((r) => r.kind === 'added');
    // The header is 120 px tall (80 px + padding): the banner follows it.
    expect(added).toEqual([{ x: 0, y: 120, width: 1280, height: 200, kind: 'added' }]);
  });

  it('sees a removed section as removed', async () => {
    const outcome = await compare('deletion', base, await shot('deletion', page({ dropSection: 5 })));
    expect(outcome.kind).toBe('different');
    if (outcome.kind !== 'different') return;
    const removed = outcome.metrics.changedRegions.filter((r) => r.kind === 'removed');
    expect(removed).toHaveLength(1);
    expect(removed[0].height).toBeGreaterThanOrEqual(240);
    expect(removed[0].height).toBeLessThanOrEqual(280);
    expect(outcome.metrics.pixelDiffPercent).toBeLessThan(12);
  });

  it('compares images of different widths without error', async () => {
    const narrow = await shot('narrow', page(), 1000);
    const outcome = await compare('widths', base, narrow);
    expect(outcome.kind).toBe('different');
    if (outcome.kind !== 'different') return;
    expect(outcome.metrics.changedRegions.some((r) => r.kind === 'removed' && r.x === 1000 && r.width === 280)).toBe(true);
  });

  it('turns a corrupt PNG into a CompareError naming the file and the fix', async () => {
    const corrupt = path.join(dir, 'corrupt.png');
    fs.writeFileSync(corrupt, fs.readFileSync(base).subarray(0, 200));
    await expect(compare('corrupt', corrupt, base)).rejects.toThrow(CompareError);
    await expect(compare('corrupt', corrupt, base)).rejects.toThrow(
      /the baseline image .*corrupt\.png is not a readable PNG .*--update-baselines/,
    );
  });
});
