import type { Region } from '../types';

const REGION_CELL = 16;
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
  return regions;
}

