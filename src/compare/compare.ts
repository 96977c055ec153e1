import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { ComparisonTolerance, DiffMetrics } from '../types';
import { pngSize } from '../util/png';
import { diffImages, renderDiff, type RgbaImage } from './engine';
import { fingerprintRegions, type ChangePrint } from './fingerprint';

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
  /** `change`: what changed, wherever it is on the page (fingerprint.ts). */
  | { kind: 'different'; metrics: DiffMetrics; diffImage: string; change: ChangePrint };

export type ImageSide = 'baseline' | 'current';

/** A pair that cannot be compared, and which side is at fault (a bad baseline drops its suite's store entries). */
export class CompareError extends Error {
  constructor(
    message: string,
    readonly side: ImageSide | null = null,
  ) {
    super(message);
  }
}

/** Larger images are refused rather than decoded: 100 megapixels is 400 MB of RGBA per side. */
export const MAX_PIXELS = 100_000_000;

/** libvips (through sharp) decodes and encodes PNG about five times faster than pngjs: see bench/run.ts. */
async function decode(bytes: Buffer, file: string, side: ImageSide): Promise<RgbaImage> {
  const size = pngSize(bytes);
  if (size && size.width * size.height > MAX_PIXELS)
    throw new CompareError(
      `the ${side} image ${file} is ${size.width}×${size.height} px, over the ${MAX_PIXELS / 1e6} MP limit: capture a locator ` +
        `or a clip instead of the whole page`,
      side,
    );
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    throw new CompareError(
      `the ${side} image ${file} is not a readable PNG (${(error as Error).message}): run again with --update-baselines to capture it anew`,
      side,
    );
  }
}

function read(file: string, side: ImageSide): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new CompareError(
      `the ${side} image ${file} cannot be read (${(error as NodeJS.ErrnoException).code}): run again with --update-baselines`,
      side,
    );
  }
}

/** Byte-identical files, then identical pixels, settle most pairs before any diff runs. */
export async function compareInProcess(input: CompareInput): Promise<CompareOutcome> {
  const baselineBytes = read(input.baseline, 'baseline');
  const currentBytes = read(input.current, 'current');
  if (baselineBytes.equals(currentBytes)) return { kind: 'identical' };
  const [baseline, current] = await Promise.all([
    decode(baselineBytes, input.baseline, 'baseline'),
    decode(currentBytes, input.current, 'current'),
  ]);
  if (
    baseline.width === current.width &&
    baseline.height === current.height &&
    Buffer.from(baseline.data).equals(Buffer.from(current.data))
  )
    return { kind: 'identical' };
  const result = diffImages(baseline, current, input.tolerance);
  // Pixels that differ, none past the colour threshold: not identical, and not a change either.
  if (result.changedPixels === 0) return { kind: 'within-tolerance', metrics: result.metrics };
  const area = Math.max(baseline.width * baseline.height, current.width * current.height);
  const { maxDiffPixels, maxDiffPixelRatio } = input.tolerance;
  if (result.changedPixels <= maxDiffPixels || result.changedPixels / area <= maxDiffPixelRatio)
    return { kind: 'within-tolerance', metrics: result.metrics };
  fs.mkdirSync(path.dirname(input.diffOutput), { recursive: true });
  // A diff image is looked at, not archived: the fastest deflate keeps encoding off the critical path.
  await sharp(renderDiff(current, result), { raw: { width: current.width, height: current.height, channels: 4 } })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toFile(input.diffOutput);
  return {
    kind: 'different',
    metrics: result.metrics,
    diffImage: input.diffOutput,
    change: fingerprintRegions(baseline, current, result.sources, input.tolerance.threshold),
  };
}
