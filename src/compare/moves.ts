import type { Region } from '../types';
import { colourDelta, type RgbaImage } from './pixels';

/** A shift that leaves at most this share of a band's differences is a move. */
const RESIDUE = 0.2;
/** Pixels sampled per candidate shift: enough for a share, few enough to stay cheap on a large band. */
const SAMPLES = 16_000;
/** Groups of more boxes than this are scattered changes, not one thing that moved. */
const MAX_GROUP = 8;

/** Modified boxes whose rows overlap, top to bottom: the candidates for one horizontal move. */
function rowGroups(boxes: Region[]): Region[][] {
  const groups: Region[][] = [];
  let bottom = -1;
  for (const box of [...boxes].sort((a, b) => a.y - b.y)) {
    if (groups.length && box.y < bottom) groups[groups.length - 1].push(box);
    else groups.push([box]);
    bottom = Math.max(bottom, box.y + box.height);
  }
  return groups;
}

export interface MoveInput {
  base: RgbaImage;
  current: RgbaImage;
  /** For each current row, the baseline row it was compared with (-1: none). */
  baseRowOf: Int32Array;
  maxDelta: number;
}

/**
 * Differences left in `box` when the baseline is shifted `dx` to the right, against those at dx = 0,
 * on a sample of the pixels whose shifted source lies inside the image.
 */
function residue(input: MoveInput, box: Region, dx: number): number {
  const { base, current, baseRowOf, maxDelta } = input;
  const step = Math.max(1, Math.round(Math.sqrt((box.width * box.height) / SAMPLES)));
  let before = 0;
  let after = 0;
  for (let y = box.y; y < box.y + box.height; y += step) {
    const baseRow = baseRowOf[y];
    if (baseRow < 0) continue;
    for (let x = box.x; x < box.x + box.width; x += step) {
      if (x - dx < 0 || x - dx >= base.width || x >= base.width) continue;
      const at = (y * current.width + x) * 4;
      if (colourDelta(base.data, (baseRow * base.width + x) * 4, current.data, at) > maxDelta) before++;
      if (colourDelta(base.data, (baseRow * base.width + x - dx) * 4, current.data, at) > maxDelta) after++;
    }
  }
  return before ? after / before : 1;
}

function bounding(boxes: Region[]): Region {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
    kind: 'modified',
  };
}

/**
 * Content that moved sideways inside a band (a card pushed to the other end of its row) leaves
 * changed pixels where it was and where it is, often as several boxes. When one horizontal shift,
 * tried from the distances between the boxes' edges, removes most differences of a group of boxes
 * sharing rows, the group is one change: one box from where the content was to where it is.
 */
export function mergeHorizontalMoves(boxes: Region[], input: MoveInput): Region[] {
  const out: Region[] = [];
  for (const group of rowGroups(boxes)) {
    if (group.length < 2 || group.length > MAX_GROUP) {
      out.push(...group);
      continue;
    }
    const union = bounding(group);
    const shifts = new Set<number>();
    for (const a of group) for (const b of group) if (a !== b) shifts.add(b.x - a.x).add(b.x + b.width - (a.x + a.width));
    shifts.delete(0);
    const moved = [...shifts].some((dx) => residue(input, union, dx) <= RESIDUE);
    out.push(...(moved ? [union] : group));
  }
  return out;
}
