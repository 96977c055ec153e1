import pixelmatch from 'pixelmatch';
import type { ComparisonTolerance, DiffMetrics, Region } from '../types';
import { alignRows, type Segment } from './align';
import type { RegionSource } from './fingerprint';
import { colourDelta, maxColourDelta, type RgbaImage } from './pixels';
import { mergeHorizontalMoves } from './moves';
import { describeRegions, regionsFromMask } from './regions';

export type { RgbaImage } from './pixels';

export interface EngineResult {
  /** Pixels that differ beyond tolerance, plus every pixel of an added or removed band. */
  changedPixels: number;
  metrics: DiffMetrics;
  segments: Segment[];
  /** Changed pixels of modified rows, in current-image coordinates. */
  mask: Uint8Array;
  /** Where each changed region's pixels are on both sides, for its fingerprint. */
  sources: RegionSource[];
}

/** A changed pixel of a moved row that matches the other image one row up or down moved by less than a pixel. */
function subPixelMatch(base: RgbaImage, baseRow: number, current: RgbaImage, currentRow: number, x: number, maxDelta: number): boolean {
  const b = (baseRow * base.width + x) * 4;
  const c = (currentRow * current.width + x) * 4;
  return (
    (baseRow > 0 && colourDelta(base.data, b - base.width * 4, current.data, c) <= maxDelta) ||
    (baseRow + 1 < base.height && colourDelta(base.data, b + base.width * 4, current.data, c) <= maxDelta) ||
    (currentRow > 0 && colourDelta(base.data, b, current.data, c - current.width * 4) <= maxDelta) ||
    (currentRow + 1 < current.height && colourDelta(base.data, b, current.data, c + current.width * 4) <= maxDelta)
  );
}

/**
 * Modified rows are compared pixel by pixel with pixelmatch (YIQ colour distance, anti-aliasing
 * detection) on compact copies of just those rows, so moved content never reaches it. In rows that
 * moved (`pairs` holds baseRow, currentRow, moved), a changed pixel that matches the baseline one
 * row up or down (or the other way round) is fractional layout re-snapping, not a change. Returns the changed pixel count;
 * marks the mask and collects the current rows that have changed pixels.
 */
function compareModified(
  base: RgbaImage,
  current: RgbaImage,
  pairs: number[],
  width: number,
  threshold: number,
  mask: Uint8Array,
  changedRows: Set<number>,
): number {
  const count = pairs.length / 3;
  if (count === 0) return 0;
  const rowBytes = width * 4;
  const a = new Uint8Array(rowBytes * count);
  const b = new Uint8Array(rowBytes * count);
  for (let i = 0; i < count; i++) {
    const baseRow = pairs[3 * i];
    const currentRow = pairs[3 * i + 1];
    a.set(base.data.subarray(baseRow * base.width * 4, baseRow * base.width * 4 + rowBytes), i * rowBytes);
    b.set(current.data.subarray(currentRow * current.width * 4, currentRow * current.width * 4 + rowBytes), i * rowBytes);
  }
  const out = new Uint8Array(rowBytes * count);
  if (pixelmatch(a, b, out, width, count, { threshold, includeAA: false, diffMask: true }) === 0) return 0;
  const maxDelta = maxColourDelta(threshold);
  let changed = 0;
  for (let i = 0; i < count; i++) {
    const baseRow = pairs[3 * i];
    const currentRow = pairs[3 * i + 1];
    const moved = pairs[3 * i + 2];
    const maskRow = currentRow * current.width;
    const outRow = i * rowBytes;
    let rowChanged = 0;
    for (let x = 0; x < width; x++) {
      if (!out[outRow + x * 4 + 3]) continue;
      if (moved && subPixelMatch(base, baseRow, current, currentRow, x, maxDelta)) continue;
      mask[maskRow + x] = 1;
      rowChanged = 1;
      changed++;
    }
    if (rowChanged) changedRows.add(currentRow);
  }
  return changed;
}

/** Aligns the two images by rows, then compares what did not merely move. */
export function diffImages(base: RgbaImage, current: RgbaImage, tolerance: Required<ComparisonTolerance>): EngineResult {
  const width = Math.min(base.width, current.width);
  const segments = alignRows(base, current, width, maxColourDelta(tolerance.threshold));
  const mask = new Uint8Array(current.width * current.height);
  const pairs: number[] = [];
  const bands: Region[] = [];
  /** The first base row of each removed band. */
  const removedFrom = new Map<Region, number>();
  /** For each current row, the base row it is aligned with (equal or modified), else -1. */
  const alignedBaseRow = new Int32Array(current.height).fill(-1);
  let bandPixels = 0;
  for (const segment of segments) {
    if (segment.kind === 'modified') {
      for (let i = 0; i < segment.baseLength; i++)
        pairs.push(segment.baseStart + i, segment.currentStart + i, segment.baseStart === segment.currentStart ? 0 : 1);
    } else if (segment.kind === 'added') {
      bands.push({ x: 0, y: segment.currentStart, width: current.width, height: segment.currentLength, kind: 'added' });
      bandPixels += segment.currentLength * current.width;
    } else if (segment.kind === 'removed') {
      const band: Region = { x: 0, y: segment.currentStart, width: base.width, height: segment.baseLength, kind: 'removed' };
      bands.push(band);
      removedFrom.set(band, segment.baseStart);
      bandPixels += segment.baseLength * base.width;
    }
    if (segment.kind === 'equal' || segment.kind === 'modified')
      for (let i = 0; i < segment.currentLength; i++) alignedBaseRow[segment.currentStart + i] = segment.baseStart + i;
  }
  const changedRows = new Set<number>();
  let changedPixels = compareModified(base, current, pairs, width, tolerance.threshold, mask, changedRows) + bandPixels;
  const extraColumns = Math.abs(base.width - current.width);
  if (extraColumns) {
    const rows = Math.min(base.height, current.height);
    changedPixels += extraColumns * rows;
    const band: Region = { x: width, y: 0, width: extraColumns, height: rows, kind: current.width > base.width ? 'added' : 'removed' };
    bands.push(band);
    if (band.kind === 'removed') removedFrom.set(band, 0);
  }
  const area = Math.max(base.width * base.height, current.width * current.height);
  const baseRowOf = new Int32Array(current.height).fill(-1);
  for (let i = 0; i < pairs.length; i += 3) baseRowOf[pairs[i + 1]] = pairs[i];
  const boxes = mergeHorizontalMoves(regionsFromMask(mask, current.width, current.height, changedRows), {
    base,
    current,
    baseRowOf,
    maxDelta: maxColourDelta(tolerance.threshold),
  });
  const regions = describeRegions(bands, boxes);
  return {
    changedPixels,
    metrics: { pixelDiffPercent: Math.round((changedPixels / area) * 10000) / 100, changedRegions: regions },
    segments,
    mask,
    sources: regions.map((region) => regionSource(region, removedFrom.get(region), alignedBaseRow)),
  };
}

function regionSource(region: Region, removedFrom: number | undefined, alignedBaseRow: Int32Array): RegionSource {
  if (region.kind === 'added') return { region, baseRows: null, onCurrent: true };
  const rows = (start: number) => Int32Array.from({ length: region.height }, (_, i) => start + i);
  if (region.kind === 'removed') return { region, baseRows: rows(removedFrom ?? region.y), onCurrent: false };
  return { region, baseRows: alignedBaseRow.slice(region.y, region.y + region.height), onCurrent: true };
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
