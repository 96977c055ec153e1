import pixelmatch from 'pixelmatch';
import type { ComparisonTolerance, DiffMetrics, Region } from '../types';
import { alignRows, rowHashes, type Segment } from './align';
import { regionsFromMask } from './regions';

export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface EngineResult {
  /** Pixels that differ beyond tolerance, plus every pixel of an added or removed band. */
  changedPixels: number;
  metrics: DiffMetrics;
  segments: Segment[];
  /** Changed pixels of modified rows, in current-image coordinates. */
  mask: Uint8Array;
}

function words(image: RgbaImage): Uint32Array {
  return new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
}

function sameRow(base: RgbaImage, baseRow: number, current: RgbaImage, currentRow: number, width: number): boolean {
  const a = Buffer.from(base.data.buffer, base.data.byteOffset + baseRow * base.width * 4, width * 4);
  const b = Buffer.from(current.data.buffer, current.data.byteOffset + currentRow * current.width * 4, width * 4);
  return a.equals(b);
}

/**
 * Modified rows are compared pixel by pixel with pixelmatch (YIQ colour distance, anti-aliasing
 * detection) on compact copies of just those rows, so moved content never reaches it.
 */
function compareModified(base: RgbaImage, current: RgbaImage, pairs: [number, number][], width: number, threshold: number, mask: Uint8Array): number {
  if (pairs.length === 0) return 0;
  const rowBytes = width * 4;
  const a = new Uint8Array(rowBytes * pairs.length);
  const b = new Uint8Array(rowBytes * pairs.length);
  pairs.forEach(([baseRow, currentRow], i) => {
    a.set(base.data.subarray(baseRow * base.width * 4, baseRow * base.width * 4 + rowBytes), i * rowBytes);
    b.set(current.data.subarray(currentRow * current.width * 4, currentRow * current.width * 4 + rowBytes), i * rowBytes);
  });
  const out = new Uint8Array(rowBytes * pairs.length);
  const changed = pixelmatch(a, b, out, width, pairs.length, { threshold, includeAA: false, diffMask: true });
  if (changed === 0) return 0;
  for (let i = 0; i < pairs.length; i++) {
    const maskRow = pairs[i][1] * current.width;
    const outRow = i * rowBytes;
    for (let x = 0; x < width; x++) if (out[outRow + x * 4 + 3]) mask[maskRow + x] = 1;
  }
  return changed;
}

const MAX_REGIONS = 50;

function contains(outer: Region, inner: Region): boolean {
  return outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.width >= inner.x + inner.width && outer.y + outer.height >= inner.y + inner.height;
}

/** A box inside another box says nothing a reviewer does not already see. */
function withoutContained(regions: Region[]): Region[] {
  return regions.filter((region, i) => !regions.some((other, j) => j !== i && contains(other, region) && (!contains(region, other) || j < i)));
}

/** Aligns the two images by rows, then compares what did not merely move. */
export function diffImages(base: RgbaImage, current: RgbaImage, tolerance: Required<ComparisonTolerance>): EngineResult {
  const width = Math.min(base.width, current.width);
  const segments = alignRows(rowHashes(words(base), base.width, base.height, width), rowHashes(words(current), current.width, current.height, width));
  const mask = new Uint8Array(current.width * current.height);
  const pairs: [number, number][] = [];
  const bands: Region[] = [];
  let bandPixels = 0;
  for (const segment of segments) {
    if (segment.kind === 'equal') {
      // A hash is not proof: rows whose bytes differ after all are compared like modified ones.
      for (let i = 0; i < segment.baseLength; i++)
        if (!sameRow(base, segment.baseStart + i, current, segment.currentStart + i, width)) pairs.push([segment.baseStart + i, segment.currentStart + i]);
    } else if (segment.kind === 'modified') {
      for (let i = 0; i < segment.baseLength; i++) pairs.push([segment.baseStart + i, segment.currentStart + i]);
    } else if (segment.kind === 'added') {
      bands.push({ x: 0, y: segment.currentStart, width: current.width, height: segment.currentLength, kind: 'added' });
      bandPixels += segment.currentLength * current.width;
    } else {
      bands.push({ x: 0, y: segment.currentStart, width: base.width, height: segment.baseLength, kind: 'removed' });
      bandPixels += segment.baseLength * base.width;
    }
  }
  let changedPixels = compareModified(base, current, pairs, width, tolerance.threshold, mask) + bandPixels;
  const extraColumns = Math.abs(base.width - current.width);
  if (extraColumns) {
    const rows = Math.min(base.height, current.height);
    changedPixels += extraColumns * rows;
    bands.push({ x: width, y: 0, width: extraColumns, height: rows, kind: current.width > base.width ? 'added' : 'removed' });
  }
  const area = Math.max(base.width * base.height, current.width * current.height);
  const regions = withoutContained([...bands, ...regionsFromMask(mask, current.width, current.height)])
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, MAX_REGIONS)
    .sort((a, b) => a.y - b.y || a.x - b.x);
  return {
    changedPixels,
    metrics: { pixelDiffPercent: Math.round((changedPixels / area) * 10000) / 100, changedRegions: regions },
    segments,
    mask,
  };
}

const MODIFIED = [255, 0, 64];
const ADDED = [0, 170, 80];
const REMOVED = [170, 0, 255];

/** An opaque RGB pixel as one 32-bit word, in the platform's byte order. */
function packPixel(r: number, g: number, b: number): number {
  return new Uint32Array(new Uint8Array([r, g, b, 255]).buffer)[0];
}

const GREY_PIXELS = Uint32Array.from({ length: 256 }, (_, level) => packPixel(level, level, level));
const MODIFIED_PIXEL = packPixel(MODIFIED[0], MODIFIED[1], MODIFIED[2]);

/**
 * The current image dimmed to a light grey, modified pixels in red, added bands tinted green,
 * and a violet rule where rows of the baseline were removed.
 */
export function renderDiff(current: RgbaImage, result: EngineResult): Uint8Array {
  const { data, width, height } = current;
  const out = new Uint8Array(width * height * 4);
  const pixels = new Uint32Array(out.buffer);
  // Integer luminance (BT.601 weights × 256) and 15% of its distance from white, scaled by alpha.
  for (let p = 0, i = 0; p < width * height; p++, i += 4) {
    if (result.mask[p]) {
      pixels[p] = MODIFIED_PIXEL;
      continue;
    }
    const luminance = (77 * data[i] + 150 * data[i + 1] + 29 * data[i + 2]) >> 8;
    pixels[p] = GREY_PIXELS[255 - (((255 - luminance) * 38 * data[i + 3]) >> 16)];
  }
  for (const segment of result.segments) {
    if (segment.kind === 'added') {
      for (let y = segment.currentStart; y < segment.currentStart + segment.currentLength; y++)
        for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
          out[i] = (out[i] + ADDED[0] * 2) / 3;
          out[i + 1] = (out[i + 1] + ADDED[1] * 2) / 3;
          out[i + 2] = (out[i + 2] + ADDED[2] * 2) / 3;
        }
    } else if (segment.kind === 'removed') {
      const from = Math.max(0, Math.min(height - 3, segment.currentStart - 1));
      for (let y = from; y < Math.min(height, from + 3); y++)
        for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
          out[i] = REMOVED[0];
          out[i + 1] = REMOVED[1];
          out[i + 2] = REMOVED[2];
        }
    }
  }
  return out;
}
