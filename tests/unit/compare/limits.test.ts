import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compareImages, CompareError } from '../../../src/compare';

/** Image sizes at and past the limits: tall pages compare, oversized ones are refused before decoding. */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-limits-'));
const tolerance = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

/** A page-like image: horizontal stripes, with an optional band inserted at `bandAt`. */
async function stripes(file: string, width: number, height: number, bandAt?: number): Promise<string> {
  const bandHeight = 300;
  const rows = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const inBand = bandAt !== undefined && y >= bandAt && y < bandAt + bandHeight;
    const source = bandAt !== undefined && y >= bandAt + bandHeight ? y - bandHeight : y;
    const shade = inBand ? 40 : 120 + ((source >> 5) % 8) * 15;
    rows.fill(shade, y * width * 3, (y + 1) * width * 3);
  }
  await sharp(rows, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(file);
  return file;
}

describe('image limits', () => {
  it('compares pages taller than 16,384 px, finding an inserted band', async () => {
    const baseline = await stripes(path.join(dir, 'tall-base.png'), 400, 20_000);
    const current = await stripes(path.join(dir, 'tall-current.png'), 400, 20_300, 10_000);
    const outcome = await compareImages({ baseline, current, diffOutput: path.join(dir, 'tall-diff.png'), tolerance });
    expect(outcome.kind).toBe('different');
    if (outcome.kind !== 'different') return;
    expect(outcome.metrics.changedRegions).toContainEqual({ x: 0, y: 10_000, width: 400, height: 300, kind: 'added' });
    expect(outcome.metrics.pixelDiffPercent).toBeLessThan(3);
  });

  it('calls a colour shift below the threshold within tolerance, not identical: the pixels differ', async () => {
    const flat = (file: string, shade: number) =>
      sharp({ create: { width: 64, height: 32, channels: 3, background: { r: shade, g: shade, b: 200 } } })
        .png()
        .toFile(path.join(dir, file));
    await Promise.all([flat('shade-base.png', 120), flat('shade-current.png', 123)]);
    const outcome = await compareImages({
      baseline: path.join(dir, 'shade-base.png'),
      current: path.join(dir, 'shade-current.png'),
      diffOutput: path.join(dir, 'shade-diff.png'),
      tolerance,
    });
    expect(outcome).toEqual({ kind: 'within-tolerance', metrics: { pixelDiffPercent: 0, changedRegions: [] } });
  });

  it('refuses an image over 100 megapixels by its header, without decoding it', async () => {
    const small = await stripes(path.join(dir, 'small.png'), 10, 10);
    const huge = fs.readFileSync(small);
    huge.writeUInt32BE(20_000, 16);
    huge.writeUInt32BE(6_000, 20);
    const hugeFile = path.join(dir, 'huge.png');
    fs.writeFileSync(hugeFile, huge);
    const refusal = compareImages({ baseline: small, current: hugeFile, diffOutput: path.join(dir, 'huge-diff.png'), tolerance });
    await expect(refusal).rejects.toThrow(CompareError);
    await expect(refusal).rejects.toThrow(
      /the current image .*huge\.png is 20000×6000 px, over the 100 MP limit: capture a locator or a clip instead of the whole page/,
    );
  });
});
