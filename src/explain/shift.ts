import type { LayoutRecord, Region } from '../types';
import type { Matching } from './match';
import { regionsMet } from './regions';

/**
 * Content an added, removed or resized block moved: below a notice that went, the pictures move up
 * and are redrawn where they land (re-blended, re-snapped), so their regions changed while nothing
 * of theirs did. Such a region is the block's change, said as a shift ("what is below it moved up
 * 161 px"), not a region nobody explains. It must meet an element whose box moved the way the block
 * moves what follows it (up when it went or shrank, down when it came or grew), and lie below the
 * block's top.
 */

/** What a listed change offers: its kind, its box (the base one for a removed element), its new height. */
export interface Block {
  kind: 'added' | 'removed' | 'changed';
  box: { x: number; y: number; width: number; height: number };
  properties: { property: string; before: string; after: string }[];
}

/** How far a region's edge may sit above a block's top and still be below it (the diff's boxes grow by a pixel). */
const EDGE = 2;

/** Which way a block moves what follows it: +1 down, -1 up, 0 not at all. */
function direction(block: Block): number {
  if (block.kind === 'added') return block.box.height > 0 ? 1 : 0;
  if (block.kind === 'removed') return block.box.height > 0 ? -1 : 0;
  const height = block.properties.find((p) => p.property === 'height');
  return height ? Math.sign(Number(height.after) - Number(height.before)) : 0;
}

/**
 * For each block that moved content into some of the `open` regions (indexes), those regions and how far the content moved (px, + down).
 */
export function shiftsBelow<T extends Block>(
  blocks: readonly T[],
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
  regions: readonly Region[],
  open: readonly number[],
): Map<T, { regions: number[]; by: number }> {
  const shifts = new Map<T, { regions: number[]; by: number }>();
  const movers = blocks.filter((block) => direction(block) !== 0);
  if (movers.length === 0 || open.length === 0) return shifts;
  const moved = matching.matched.flatMap(({ base: b, current: c }) => {
    const by = current.elements[c].box[1] - base.elements[b].box[1];
    const [x, y, width, height] = current.elements[c].box;
    return by !== 0 ? [{ by, met: regionsMet({ x, y, width, height }, regions) }] : [];
  });
  for (const i of open) {
    const here = moved.filter((element) => element.met.includes(i));
    if (here.length === 0) continue;
    const by = here[0].by;
    const above = movers.filter((block) => block.box.y <= regions[i].y + EDGE && direction(block) === Math.sign(by));
    if (above.length === 0) continue;
    const nearest = above.reduce((best, block) => (block.box.y > best.box.y ? block : best));
    const shift = shifts.get(nearest) ?? { regions: [], by };
    shift.regions.push(i);
    shifts.set(nearest, shift);
  }
  return shifts;
}

/** "what is below it moved up 161 px". */
export const shiftWords = (by: number) => `what is below it moved ${by < 0 ? 'up' : 'down'} ${Math.abs(by)} px`;

/**
 * An element capture that moved by a fraction of a pixel on the page and changed in nothing else
 * (every element's box the same, relative to it): its text and edges are drawn again at another
 * sub-pixel place. The words for it ("moved 0.5 px down on the page (a sub-pixel move) …"), or null.
 */
export function subpixelMove(base: LayoutRecord, current: LayoutRecord): string | null {
  if (!base.at || !current.at || base.elements.length !== current.elements.length) return null;
  const [dx, dy] = [current.at[0] - base.at[0], current.at[1] - base.at[1]].map((d) => Math.round(d * 100) / 100);
  if ((dx === 0 && dy === 0) || Math.abs(dx) >= 1 || Math.abs(dy) >= 1) return null;
  if (base.elements.some((element, i) => element.box.some((edge, j) => edge !== current.elements[i].box[j]))) return null;
  const moves = [dy ? `${Math.abs(dy)} px ${dy > 0 ? 'down' : 'up'}` : '', dx ? `${Math.abs(dx)} px ${dx > 0 ? 'right' : 'left'}` : '']
    .filter(Boolean)
    .join(' and ');
  return `the captured element moved ${moves} on the page (a sub-pixel move): its text and edges are drawn again, nothing in it changed`;
}
