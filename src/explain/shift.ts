import type { LayoutRecord, Region } from '../types';
import type { Matching } from './match';
import { OUT_OF_FLOW } from './properties';
import { regionsMet } from './regions';

/**
 * Content an added, removed or resized block moved: below a notice that went, the pictures move up
 * and are redrawn where they land (re-blended, re-snapped), so their regions changed while nothing
 * of theirs did. Such a region is the block's change, said as a shift ("what is below it moved up
 * 161 px"), not a region nobody explains. It must meet an element whose box moved the way the block
 * moves what follows it (up when it went or shrank, down when it came or grew), and lie below the
 * block's top; or, beside a block that changed width, meet an element that moved across the way
 * the block's new width moves it ("what is beside it moved right 39 px").
 */

/** What a listed change offers: its kind, its box (the base one for a removed element), its new height. */
export interface Block {
  kind: 'added' | 'removed' | 'changed';
  box: { x: number; y: number; width: number; height: number };
  properties: { property: string; before: string; after: string }[];
  /** Its path: a block moves across only what shares its parent (a row's other columns). */
  path: string;
}

/** How far a region's edge may sit above a block's top and still be below it (the diff's boxes grow by a pixel). */
const EDGE = 2;

/**
 * How far a block moves what follows it along an axis (px, + down or right): an added or removed one's size, a changed one's new
 * size less its old.
 */
function growth(block: Block, axis: Axis): number {
  if (block.kind !== 'changed') return (block.kind === 'added' ? 1 : -1) * (axis === 'y' ? block.box.height : block.box.width);
  const size = block.properties.find((p) => p.property === (axis === 'y' ? 'height' : 'width'));
  const flow = axis === 'y' ? flowChange(block) : 0;
  if (flow !== 0) return flow;
  return size ? Number(size.after) - Number(size.before) : 0;
}

/**
 * The rows a changed block gives up or takes in the flow by its `position`: made `fixed` or
 * `absolute`, what follows no longer makes room for it and moves up by its height (a nav made
 * sticky); put back in the flow, down by as much. 0 when its position kept it in or out of the flow.
 */
function flowChange(block: Block): number {
  const position = block.properties.find((p) => p.property === 'position');
  if (!position || OUT_OF_FLOW.has(position.before) === OUT_OF_FLOW.has(position.after)) return 0;
  const height = block.properties.find((p) => p.property === 'height');
  return OUT_OF_FLOW.has(position.after) ? -Number(height?.before ?? block.box.height) : Number(height?.after ?? block.box.height);
}

/** Which way a block moves what follows it along an axis: +1 down (right), -1 up (left), 0 not at all. */
const direction = (block: Block, axis: Axis): number => Math.sign(growth(block, axis));

/** Down the page, or across it. */
export type Axis = 'y' | 'x';

/**
 * Whether a block can have moved what is in a region along an axis: the region is below it, or
 * beside it (right of its left edge, in its rows).
 */
function follows(block: Block, region: Region, axis: Axis): boolean {
  if (axis === 'y') return block.box.y <= region.y + EDGE;
  return block.box.x <= region.x + EDGE && block.box.y < region.y + region.height && region.y < block.box.y + block.box.height;
}

/** A shift a block made: the regions it moved content into, how far (px, + down or right) and along which axis. */
export interface Shift {
  regions: number[];
  by: number;
  axis: Axis;
}

/**
 * For each block that moved content into some of the `open` regions (indexes), those regions and
 * how far the content moved: down or up below a block that came, went or changed height; right or
 * left beside one that changed width (a column widened by its rule moves the column beside it).
 */
export function shiftsBelow<T extends Block>(
  blocks: readonly T[],
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
  regions: readonly Region[],
  open: readonly number[],
): Map<T, Shift> {
  const shifts = new Map<T, Shift>();
  const movers = blocks.filter((block) => direction(block, 'y') !== 0 || (block.kind === 'changed' && direction(block, 'x') !== 0));
  if (movers.length === 0 || open.length === 0) return shifts;
  const moved = matching.matched.flatMap(({ base: b, current: c }) => {
    const [x, y, width, height] = current.elements[c].box;
    const [dx, dy] = [x - base.elements[b].box[0], y - base.elements[b].box[1]];
    return dx !== 0 || dy !== 0 ? [{ dx, dy, path: current.elements[c].path, met: regionsMet({ x, y, width, height }, regions) }] : [];
  });
  const add = (block: T, i: number, by: number, axis: Axis) => {
    const shift = shifts.get(block) ?? { regions: [], by, axis };
    shift.regions.push(i);
    if (Math.abs(by) > Math.abs(shift.by)) shift.by = by;
    shifts.set(block, shift);
  };
  for (const i of open) {
    const here = moved.filter((element) => element.met.includes(i));
    const down = here.find((element) => element.dy !== 0);
    const [axis, by]: [Axis, number] = down ? ['y', down.dy] : ['x', here[0]?.dx ?? 0];
    const row = (block: Block) => block.path.slice(0, block.path.lastIndexOf('>') + 1);
    const able = movers.filter(
      (block) =>
        here.length > 0 &&
        (axis === 'y' || (block.kind === 'changed' && here.some((element) => element.path.startsWith(row(block))))) &&
        follows(block, regions[i], axis) &&
        direction(block, axis) === Math.sign(by),
    );
    if (able.length) {
      const nearest = able.reduce((best, block) => ((axis === 'y' ? block.box.y > best.box.y : block.box.x > best.box.x) ? block : best));
      add(nearest, i, axis === 'y' ? ownMove(nearest, here) : by, axis);
      continue;
    }
    const slid = slidBand(movers, regions[i]);
    if (slid) add(slid.block, i, slid.by, 'y');
  }
  return shifts;
}

/**
 * How far a block alone moved the content it met down the page (px, + down): the furthest such move, but no further than the block
 * grew. Content beside it, centred in a row that grew, moved half as far; content below another block that grew too moved further.
 */
function ownMove(block: Block, here: readonly { dy: number }[]): number {
  const grown = growth(block, 'y');
  const furthest = Math.max(0, ...here.map(({ dy }) => (Math.sign(dy) === Math.sign(grown) ? Math.abs(dy) : 0)));
  return Math.sign(grown) * Math.min(Math.abs(grown), furthest);
}

/**
 * Rows the page gained or lost (an `added` or `removed` band) that no moved element meets: the diff
 * slides such a band through rows that repeat (a blank margin), so it may sit above the block whose
 * growth made it. A band as high as a block grew (or shrank) and not below the block's bottom is
 * that block's: what is below it moved by that much.
 */
function slidBand<T extends Block>(movers: readonly T[], region: Region): { block: T; by: number } | null {
  if (region.kind !== 'added' && region.kind !== 'removed') return null;
  const by = region.kind === 'added' ? region.height : -region.height;
  const block = movers.find((mover) => growth(mover, 'y') === by && region.y <= mover.box.y + mover.box.height);
  return block ? { block, by } : null;
}

/** "what is below it moved up 161 px", "what is beside it moved right 39 px". */
export const shiftWords = (by: number, axis: Axis = 'y') =>
  axis === 'y'
    ? `what is below it moved ${by < 0 ? 'up' : 'down'} ${Math.abs(by)} px`
    : `what is beside it moved ${by < 0 ? 'left' : 'right'} ${Math.abs(by)} px`;

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
