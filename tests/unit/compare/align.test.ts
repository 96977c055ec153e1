import { describe, expect, it } from 'vitest';
import { alignRows, type Segment } from '../../../src/compare/align';
import type { RgbaImage } from '../../../src/compare/pixels';

const WIDTH = 4;

/** An image whose row i is filled with the grey level rows[i]: rows of equal levels are equal rows. */
function image(rows: number[]): RgbaImage {
  const data = new Uint8Array(rows.length * WIDTH * 4);
  rows.forEach((level, y) => {
    for (let x = 0; x < WIDTH; x++) data.set([level, level, level, 255], (y * WIDTH + x) * 4);
  });
  return { data, width: WIDTH, height: rows.length };
}

function align(base: number[], current: number[]): Segment[] {
  return alignRows(image(base), image(current), WIDTH, 0);
}

/** How many segments cover each current row: every row once, and no row twice. */
function currentCoverage(segments: Segment[], height: number): number[] {
  const times = new Array<number>(height).fill(0);
  for (const segment of segments) for (let y = segment.currentStart; y < segment.currentStart + segment.currentLength; y++) times[y]++;
  return times;
}

function baseCoverage(segments: Segment[], height: number): number[] {
  const times = new Array<number>(height).fill(0);
  for (const segment of segments) for (let x = segment.baseStart; x < segment.baseStart + segment.baseLength; x++) times[x]++;
  return times;
}

const PAGE = [10, 20, 30, 40, 50, 60, 70, 80];

describe('alignRows', () => {
  it('pairs identical images row for row as one equal segment', () => {
    expect(align(PAGE, PAGE)).toEqual([{ kind: 'equal', baseStart: 0, baseLength: 8, currentStart: 0, currentLength: 8 }]);
  });

  it('finds a band inserted in the middle and pairs the content below at its new offset', () => {
    const current = [10, 20, 30, 200, 201, 202, 40, 50, 60, 70, 80];
    expect(align(PAGE, current)).toEqual([
      { kind: 'equal', baseStart: 0, baseLength: 3, currentStart: 0, currentLength: 3 },
      { kind: 'added', baseStart: 3, baseLength: 0, currentStart: 3, currentLength: 3 },
      { kind: 'equal', baseStart: 3, baseLength: 5, currentStart: 6, currentLength: 5 },
    ]);
  });

  it('finds a band removed from the middle', () => {
    const current = [10, 20, 60, 70, 80];
    expect(align(PAGE, current)).toEqual([
      { kind: 'equal', baseStart: 0, baseLength: 2, currentStart: 0, currentLength: 2 },
      { kind: 'removed', baseStart: 2, baseLength: 3, currentStart: 2, currentLength: 0 },
      { kind: 'equal', baseStart: 5, baseLength: 3, currentStart: 2, currentLength: 3 },
    ]);
  });

  it('pairs a changed row with its counterpart as modified', () => {
    const current = [10, 20, 30, 99, 50, 60, 70, 80];
    expect(align(PAGE, current)).toEqual([
      { kind: 'equal', baseStart: 0, baseLength: 3, currentStart: 0, currentLength: 3 },
      { kind: 'modified', baseStart: 3, baseLength: 1, currentStart: 3, currentLength: 1 },
      { kind: 'equal', baseStart: 4, baseLength: 4, currentStart: 4, currentLength: 4 },
    ]);
  });

  it('takes rows within the threshold as equal', () => {
    const current = PAGE.map((level) => level + 1);
    expect(
      alignRows(image(PAGE), image(current), WIDTH, 0).every((segment) => segment.kind === 'modified' || segment.kind === 'equal'),
    ).toBe(true);
    expect(alignRows(image(PAGE), image(current), WIDTH, 10_000)).toEqual([
      { kind: 'equal', baseStart: 0, baseLength: 8, currentStart: 0, currentLength: 8 },
    ]);
  });

  // A single row in or out between matching runs is layout re-snapping and is paired as modified.
  // At the very top an inserted row has no base row above it to compare with: it is an addition.
  it('reports one row inserted at the very top as added, each row covered once', () => {
    const current = [5, ...PAGE];
    const segments = align(PAGE, current);
    expect(segments[0]).toEqual({ kind: 'added', baseStart: 0, baseLength: 0, currentStart: 0, currentLength: 1 });
    expect(currentCoverage(segments, current.length)).toEqual(current.map(() => 1));
    expect(baseCoverage(segments, PAGE.length)).toEqual(PAGE.map(() => 1));
  });

  // A row lost at the very top is how an element captured at a half-pixel offset rounds: it is
  // compared with the current top row, and counts only where it differs from it.
  it('pairs one row removed at the very top with the current top row, as modified, and every base row once', () => {
    const current = PAGE.slice(1);
    const segments = align(PAGE, current);
    expect(segments[0]).toEqual({ kind: 'modified', baseStart: 0, baseLength: 1, currentStart: 0, currentLength: 1 });
    expect(segments.some((segment) => segment.kind === 'removed')).toBe(false);
    expect(baseCoverage(segments, PAGE.length)).toEqual(PAGE.map(() => 1));
  });

  it('pairs one row removed between matching runs as modified (re-snapping), not as a removal', () => {
    const current = [10, 20, 30, 50, 60, 70, 80];
    const segments = align(PAGE, current);
    expect(segments.some((segment) => segment.kind === 'removed')).toBe(false);
    expect(segments.filter((segment) => segment.kind === 'modified')).toHaveLength(1);
  });
});
