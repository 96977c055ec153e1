import fs from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { ComparisonTolerance, DiffMetrics, Region } from '../types';

export interface CompareInput {
  baseline: string;
  current: string;
  /** Where to write the diff image when the images differ. */
  diffOutput: string;
  tolerance: Required<ComparisonTolerance>;
}

export type CompareOutcome =
  | { kind: 'identical' }
  | { kind: 'within-tolerance'; metrics: DiffMetrics }
  | { kind: 'different'; metrics: DiffMetrics; diffImage: string };

export class CompareError extends Error {}

function decode(file: string, side: string): PNG {
  try {
    return PNG.sync.read(fs.readFileSync(file));
  } catch (error) {
    throw new CompareError(`the ${side} image ${file} is not a readable PNG (${(error as Error).message}): run again with --update-baselines to capture it anew`);
  }
}

/** Both images on one canvas of the larger size: pixels outside the smaller image count as changed. */
function padTo(image: PNG, width: number, height: number): Uint8Array {
  if (image.width === width && image.height === height) return image.data;
  const padded = new Uint8Array(width * height * 4);
  for (let y = 0; y < image.height; y++)
    padded.set(image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4), y * width * 4);
  return padded;
}

const REGION_CELL = 16;
const MAX_REGIONS = 50;

/** Changed pixels grouped into boxes: a coarse grid of cells, connected cells merged. */
export function regionsFromMask(mask: Uint8Array, width: number, height: number): Region[] {
  const cols = Math.ceil(width / REGION_CELL);
  const rows = Math.ceil(height / REGION_CELL);
  const cells = new Uint8Array(cols * rows);
  for (let y = 0; y < height; y++) {
    const rowOffset = Math.floor(y / REGION_CELL) * cols;
    for (let x = 0; x < width; x++) if (mask[y * width + x]) cells[rowOffset + Math.floor(x / REGION_CELL)] = 1;
  }
  const seen = new Uint8Array(cols * rows);
  const regions: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || seen[start]) continue;
    let minC = cols, minR = rows, maxC = 0, maxR = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const cell = stack.pop()!;
      const c = cell % cols, r = (cell - c) / cols;
      minC = Math.min(minC, c); maxC = Math.max(maxC, c); minR = Math.min(minR, r); maxR = Math.max(maxR, r);
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const nr = r + dr, nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
          const next = nr * cols + nc;
          if (cells[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
    }
    const x = minC * REGION_CELL, y = minR * REGION_CELL;
    regions.push({
      x, y,
      width: Math.min(width, (maxC + 1) * REGION_CELL) - x,
      height: Math.min(height, (maxR + 1) * REGION_CELL) - y,
      kind: 'modified',
    });
  }
  return regions.sort((a, b) => b.width * b.height - a.width * a.height).slice(0, MAX_REGIONS).sort((a, b) => a.y - b.y || a.x - b.x);
}

export async function compareImages(input: CompareInput): Promise<CompareOutcome> {
  const baselineBytes = fs.readFileSync(input.baseline);
  const currentBytes = fs.readFileSync(input.current);
  if (baselineBytes.equals(currentBytes)) return { kind: 'identical' };
  const baseline = decode(input.baseline, 'baseline');
  const current = decode(input.current, 'current');
  const width = Math.max(baseline.width, current.width);
  const height = Math.max(baseline.height, current.height);
  const output = new PNG({ width, height });
  const changed = pixelmatch(padTo(baseline, width, height), padTo(current, width, height), output.data, width, height, {
    threshold: input.tolerance.threshold,
    includeAA: false,
  });
  if (changed === 0) return { kind: 'identical' };
  const mask = new Uint8Array(width * height);
  for (let i = 0, p = 0; p < mask.length; p++, i += 4)
    mask[p] = output.data[i] === 255 && output.data[i + 1] === 0 && output.data[i + 2] === 0 ? 1 : 0;
  const metrics: DiffMetrics = {
    pixelDiffPercent: Math.round((changed / (width * height)) * 10000) / 100,
    changedRegions: regionsFromMask(mask, width, height),
  };
  const { maxDiffPixels, maxDiffPixelRatio } = input.tolerance;
  if (changed <= maxDiffPixels || changed / (width * height) <= maxDiffPixelRatio) return { kind: 'within-tolerance', metrics };
  fs.mkdirSync(path.dirname(input.diffOutput), { recursive: true });
  fs.writeFileSync(input.diffOutput, PNG.sync.write(output));
  return { kind: 'different', metrics, diffImage: input.diffOutput };
}
