import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePair, compareImages, recordComparison, type ChangePrint, type CompareOutcome } from '../../../src/compare';
import { reuseComparison } from '../../../src/compare/recorded';
import type { RecordedComparison } from '../../../src/types';

/**
 * The comparison a test's worker made while the page was alive stands for the report's own only
 * when it is provably of the same thing: the same baseline and current bytes, the same tolerance,
 * the same version, and (for a difference) its diff image at hand. Anything else compares again.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-recorded-'));
const tolerance = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

/** A 40×30 PNG of one colour with a square of another at `square` (none when null). */
async function png(file: string, square: [number, number] | null): Promise<string> {
  const width = 40;
  const height = 30;
  const pixels = Buffer.alloc(width * height * 3, 230);
  if (square)
    for (let y = square[1]; y < square[1] + 8; y++)
      for (let x = square[0]; x < square[0] + 8; x++) pixels.set([200, 30, 30], (y * width + x) * 3);
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(path.join(dir, file));
  return path.join(dir, file);
}

let baseline: string;
let current: string;
/** What the worker's live look found of the pair, and its diff image, made by the real comparison. */
let outcome: CompareOutcome & { kind: 'different' };
let recorded: RecordedComparison;

beforeAll(async () => {
  baseline = await png('base.png', null);
  current = await png('current.png', [10, 10]);
  const compared = await compareImages({ baseline, current, diffOutput: path.join(dir, 'live-diff.png'), tolerance });
  if (compared.kind !== 'different') throw new Error(`the fixture pair should differ, not be ${compared.kind}`);
  outcome = compared;
  recorded = recordComparison(fs.readFileSync(baseline), fs.readFileSync(current), tolerance, outcome);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const sides = () => ({ baseline: fs.readFileSync(baseline), current: fs.readFileSync(current), tolerance });
const diff = (name: string) => ({ recorded: path.join(dir, 'live-diff.png'), output: path.join(dir, 'report', `${name}.png`) });

describe('reuseComparison', () => {
  it("takes the worker's difference for the same bytes and tolerance, with its change print and a copy of its diff image", () => {
    const reused = reuseComparison(recorded, sides(), diff('same'));
    expect(reused).toEqual({ ...outcome, diffImage: path.join(dir, 'report', 'same.png') });
    expect((reused as { change: ChangePrint }).change).toEqual(outcome.change);
    expect(fs.readFileSync(path.join(dir, 'report', 'same.png')).equals(fs.readFileSync(outcome.diffImage))).toBe(true);
  });

  it('compares again when the current image is other bytes than the ones the worker compared', async () => {
    const other = fs.readFileSync(await png('other.png', [20, 12]));
    expect(reuseComparison(recorded, { ...sides(), current: other }, diff('other-current'))).toBeNull();
  });

  it('compares again when the baseline is other bytes (a store entry replaced since the capture)', async () => {
    const other = fs.readFileSync(await png('other-base.png', [2, 2]));
    expect(reuseComparison(recorded, { ...sides(), baseline: other }, diff('other-base'))).toBeNull();
  });

  it('compares again at another tolerance, or for another version', () => {
    expect(reuseComparison(recorded, { ...sides(), tolerance: { ...tolerance, maxDiffPixels: 100 } }, diff('tolerance'))).toBeNull();
    expect(reuseComparison(recorded, { ...sides(), tolerance: { ...tolerance, threshold: 0.2 } }, diff('threshold'))).toBeNull();
    expect(reuseComparison({ ...recorded, version: '0.0.1' }, sides(), diff('version'))).toBeNull();
  });

  it('compares again when the diff image is gone or the change print does not read', () => {
    expect(reuseComparison(recorded, sides(), { recorded: path.join(dir, 'gone.png'), output: path.join(dir, 'gone-out.png') })).toBeNull();
    expect(reuseComparison(recorded, sides(), { recorded: null, output: path.join(dir, 'none-out.png') })).toBeNull();
    const unreadable: RecordedComparison = {
      ...recorded,
      outcome: { ...recorded.outcome, change: 'v0 t0.1' } as RecordedComparison['outcome'],
    };
    expect(reuseComparison(unreadable, sides(), diff('unreadable'))).toBeNull();
  });

  it('takes a match within tolerance without a diff image', () => {
    const within = recordComparison(sides().baseline, sides().current, tolerance, {
      kind: 'within-tolerance',
      metrics: { pixelDiffPercent: 0.01, changedRegions: [] },
    });
    expect(reuseComparison(within, sides(), { recorded: null, output: path.join(dir, 'within.png') })).toEqual({
      kind: 'within-tolerance',
      metrics: { pixelDiffPercent: 0.01, changedRegions: [] },
    });
    expect(fs.existsSync(path.join(dir, 'within.png'))).toBe(false);
  });
});

describe('comparePair with a recorded comparison', () => {
  const input = (recordedComparison: RecordedComparison, name: string) => ({
    baseline,
    current,
    sameCode: false,
    diffOutput: path.join(dir, 'pairs', `${name}.png`),
    tolerance,
    recorded: { comparison: recordedComparison, diffImage: path.join(dir, 'live-diff.png') },
  });

  it("answers with the worker's comparison when it holds (here one that says 'within tolerance', which the engine would not)", async () => {
    const claim = { ...recorded, outcome: { kind: 'within-tolerance' as const, metrics: { pixelDiffPercent: 0.5, changedRegions: [] } } };
    expect(await comparePair(input(claim, 'claim'))).toEqual(claim.outcome);
  });

  it('compares the files itself when the recorded bytes are not these', async () => {
    const claim = {
      ...recorded,
      current: recorded.baseline,
      outcome: { kind: 'within-tolerance' as const, metrics: { pixelDiffPercent: 0.5, changedRegions: [] } },
    };
    const compared = await comparePair(input(claim, 'mismatch'));
    expect(compared.kind).toBe('different');
    expect(fs.existsSync(path.join(dir, 'pairs', 'mismatch.png'))).toBe(true);
  });
});
