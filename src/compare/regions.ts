import type { Region } from '../types';

const REGION_CELL = 16;

/**
 * Changed pixels grouped into boxes: pixels in touching cells of a 16 px grid (8-connected) are one
 * change, and its box is the tight box of those pixels, not of the cells. Only `rows` (the rows that
 * have changed pixels) are scanned.
 */
export function regionsFromMask(mask: Uint8Array, width: number, height: number, rows?: Iterable<number>): Region[] {
  const cols = Math.ceil(width / REGION_CELL);
  const cellRows = Math.ceil(height / REGION_CELL);
  const cellCount = cols * cellRows;
  // Tight extents of the changed pixels in each cell; minX > maxX marks an empty cell.
  const minX = new Int32Array(cellCount).fill(width);
  const maxX = new Int32Array(cellCount).fill(-1);
  const minY = new Int32Array(cellCount).fill(height);
  const maxY = new Int32Array(cellCount).fill(-1);
  const scan = (y: number) => {
    const rowOffset = ((y / REGION_CELL) | 0) * cols;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (!mask[i]) continue;
      const cell = rowOffset + ((x / REGION_CELL) | 0);
      if (x < minX[cell]) minX[cell] = x;
      if (x > maxX[cell]) maxX[cell] = x;
      if (y < minY[cell]) minY[cell] = y;
      if (y > maxY[cell]) maxY[cell] = y;
    }
  };
  if (rows) for (const y of rows) scan(y);
  else for (let y = 0; y < height; y++) scan(y);

  const seen = new Uint8Array(cellCount);
  const regions: Region[] = [];
  const stack: number[] = [];
  for (let start = 0; start < cellCount; start++) {
    if (maxX[start] < 0 || seen[start]) continue;
    let left = width,
      top = height,
      right = -1,
      bottom = -1;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const cell = stack.pop()!;
      left = Math.min(left, minX[cell]);
      right = Math.max(right, maxX[cell]);
      top = Math.min(top, minY[cell]);
      bottom = Math.max(bottom, maxY[cell]);
      const c = cell % cols,
        r = (cell - c) / cols;
      for (let dr = -1; dr <= 1; dr++)
        for (let dc = -1; dc <= 1; dc++) {
          const nr = r + dr,
            nc = c + dc;
          if (nr < 0 || nc < 0 || nr >= cellRows || nc >= cols) continue;
          const next = nr * cols + nc;
          if (maxX[next] >= 0 && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
    }
    regions.push({ x: left, y: top, width: right - left + 1, height: bottom - top + 1, kind: 'modified' });
  }
  return regions;
}

/** Boxes closer than this are parts of one change (the words of an edited line, the glyphs of a word). */
const MERGE_GAP = 24;

function near(a: Region, b: Region): boolean {
  return (
    a.x < b.x + b.width + MERGE_GAP &&
    b.x < a.x + a.width + MERGE_GAP &&
    a.y < b.y + b.height + MERGE_GAP &&
    b.y < a.y + a.height + MERGE_GAP
  );
}

function contains(outer: Region, inner: Region): boolean {
  return (
    outer.x <= inner.x &&
    outer.y <= inner.y &&
    outer.x + outer.width >= inner.x + inner.width &&
    outer.y + outer.height >= inner.y + inner.height
  );
}

function bounding(a: Region, b: Region): Region {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
    kind: 'modified',
  };
}

/** Modified boxes that overlap or nearly touch are one change: merged, pass after pass, until no two are near. */
export function mergeNear(boxes: Region[]): Region[] {
  let current = boxes;
  for (;;) {
    const out: Region[] = [];
    let merged = false;
    for (const box of current) {
      let grown = box;
      for (let i = out.length - 1; i >= 0; i--)
        if (near(out[i], grown)) {
          grown = bounding(out[i], grown);
          out.splice(i, 1);
          merged = true;
        }
      out.push(grown);
    }
    if (!merged) return out;
    current = out;
  }
}

const MAX_REGIONS = 50;

/**
 * The regions a reader sees: the added and removed bands as they are, modified boxes merged where
 * they overlap or lie within 24 px of each other, boxes inside another box dropped (they say nothing the outer one does not), and at
 * most the 50 largest, top to bottom.
 */
export function describeRegions(bands: Region[], modified: Region[]): Region[] {
  const all = [...bands, ...mergeNear(modified)];
  return all
    .filter((region, i) => !all.some((other, j) => j !== i && contains(other, region) && (!contains(region, other) || j < i)))
    .sort((a, b) => b.width * b.height - a.width * a.height)
    .slice(0, MAX_REGIONS)
    .sort((a, b) => a.y - b.y || a.x - b.x);
}
