import { colourDelta, words, type RgbaImage } from './pixels';

/**
 * Row alignment: the page is a sequence of pixel rows; an inserted banner or a removed block is an
 * insertion or deletion in that sequence, after which the content below sits at another vertical
 * offset. Real rendering is not byte-stable under such a shift (Chromium dithers gradients by
 * absolute position, blurred shadows and scaled images re-blend, fractional layout re-snaps), so
 * rows are equal when every pixel is within the comparison's `threshold`, exactly as the pixel
 * comparison decides it.
 *
 * 1. Rows are hashed; the common prefix and suffix are trimmed (the exact fast path).
 * 2. Candidate offsets are voted by the rows of the middle whose hash is unique in the baseline:
 *    half the rows of a dithered page still match byte for byte, and they vote clearly.
 * 3. Each middle row is compared, within tolerance, with its counterpart at every candidate offset.
 * 4. A dynamic programme over (row, offset) finds the alignment with the fewest changed rows: a
 *    row costs 1 when it differs from its counterpart, moving to a larger offset costs the rows
 *    inserted, to a smaller one the rows removed (ties go to fewer bands). A row equal to the
 *    baseline row at its own position costs nothing whatever the offset: fixed content, such as a
 *    fixed header in a full-page capture taken after scrolling, stays put while the page moves.
 *    Time is O(rows × offsets²), linear in the height.
 * 5. One row in or out between matching runs is fractional layout re-snapping, paired as modified;
 *    a band between repeating rows is centred in the range it could slide over.
 */

export type SegmentKind = 'equal' | 'modified' | 'added' | 'removed';

/** Rows [baseStart, baseStart+baseLength) of the baseline against [currentStart, …) of the current image. */
export interface Segment {
  kind: SegmentKind;
  baseStart: number;
  baseLength: number;
  currentStart: number;
  currentLength: number;
}

/** FNV-1a over each row's first `width` pixels (as 32-bit words): one pass, no allocation per row. */
export function rowHashes(pixels: Uint32Array, stride: number, height: number, width: number): Uint32Array {
  const hashes = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    let hash = 0x811c9dc5;
    const start = y * stride;
    const end = start + width;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ pixels[i], 16777619);
    hashes[y] = hash >>> 0;
  }
  return hashes;
}

/** More offsets than this in one page is not a set of moves but a page that changed throughout. */
const MAX_OFFSETS = 16;
/** Unique rows that must agree on an offset before it is tried. */
const MIN_VOTES = 2;

/** How a current row relates to the baseline row at one candidate offset. */
const enum Match {
  Invalid = 0,
  Equal = 1,
  /**
   * Equal to the baseline row at the same position, not to its counterpart: fixed content (a fixed header drawn where the page was
   * scrolled).
   */
  InPlace = 2,
  Different = 3,
}

/** One image with what the alignment reads from it. */
interface Side {
  image: RgbaImage;
  words: Uint32Array;
  hashes: Uint32Array;
}

interface Images {
  base: Side;
  current: Side;
  /** Columns compared: the narrower image's width. */
  width: number;
  maxDelta: number;
}

/** Every pixel of the two rows within `maxDelta` of its counterpart. */
function withinTolerance(images: Images, a: Side, rowA: number, b: Side, rowB: number): boolean {
  const { width, maxDelta } = images;
  const i = rowA * a.image.width;
  const j = rowB * b.image.width;
  for (let x = 0; x < width; x++)
    if (a.words[i + x] !== b.words[j + x] && colourDelta(a.image.data, (i + x) * 4, b.image.data, (j + x) * 4) > maxDelta) return false;
  return true;
}

/** Equal hashes are taken as equal rows while aligning; the rows finally paired as equal are checked byte for byte. */
function rowsEqual(images: Images, a: Side, rowA: number, b: Side, rowB: number): boolean {
  return a.hashes[rowA] === b.hashes[rowB] || withinTolerance(images, a, rowA, b, rowB);
}

/** Byte equality of rows whose hashes matched: a hash is not proof. */
function rowsIdentical(images: Images, baseRow: number, currentRow: number): boolean {
  const { base, current, width } = images;
  const i = baseRow * base.image.width;
  const j = currentRow * current.image.width;
  for (let x = 0; x < width; x++) if (base.words[i + x] !== current.words[j + x]) return false;
  return true;
}

/** A row aligned as equal by its hash is equal byte for byte, or at least within tolerance. */
function verified(images: Images, baseRow: number, currentRow: number): boolean {
  const { base, current } = images;
  return (
    base.hashes[baseRow] !== current.hashes[currentRow] ||
    rowsIdentical(images, baseRow, currentRow) ||
    withinTolerance(images, base, baseRow, current, currentRow)
  );
}

function candidateOffsets(images: Images, start: number, baseEnd: number, currentEnd: number): number[] {
  const baseHashes = images.base.hashes;
  const currentHashes = images.current.hashes;
  const rowOfHash = new Map<number, number>();
  for (let x = start; x < baseEnd; x++) rowOfHash.set(baseHashes[x], rowOfHash.has(baseHashes[x]) ? -1 : x);
  const votes = new Map<number, number>();
  for (let y = start; y < currentEnd; y++) {
    const x = rowOfHash.get(currentHashes[y]);
    if (x !== undefined && x >= 0) votes.set(y - x, (votes.get(y - x) ?? 0) + 1);
  }
  const voted = [...votes]
    .filter(([, count]) => count >= MIN_VOTES)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_OFFSETS)
    .map(([offset]) => offset);
  // In place, and where the suffix sits: the two offsets every alignment starts and ends at.
  return [...new Set([0, currentEnd - baseEnd, ...voted])].sort((a, b) => a - b);
}

function push(
  segments: Segment[],
  kind: SegmentKind,
  baseStart: number,
  baseLength: number,
  currentStart: number,
  currentLength: number,
): void {
  if (baseLength === 0 && currentLength === 0) return;
  const last = segments[segments.length - 1];
  if (
    last &&
    last.kind === kind &&
    last.baseStart + last.baseLength === baseStart &&
    last.currentStart + last.currentLength === currentStart
  ) {
    last.baseLength += baseLength;
    last.currentLength += currentLength;
    return;
  }
  segments.push({ kind, baseStart, baseLength, currentStart, currentLength });
}

/** Rows trimmed as equal by their hashes, checked byte for byte; a collision becomes a modified row. */
function pushVerified(segments: Segment[], images: Images, baseStart: number, currentStart: number, length: number): void {
  const { width } = images;
  const base = images.base.image;
  const current = images.current.image;
  if (base.width === width && current.width === width) {
    // Whole rows back to back: one memcmp settles the common case.
    const bytes = length * width * 4;
    const a = Buffer.from(base.data.buffer, base.data.byteOffset + baseStart * width * 4, bytes);
    const b = Buffer.from(current.data.buffer, current.data.byteOffset + currentStart * width * 4, bytes);
    if (a.equals(b)) {
      push(segments, 'equal', baseStart, length, currentStart, length);
      return;
    }
  }
  for (let i = 0; i < length; i++) {
    const equal = verified(images, baseStart + i, currentStart + i);
    push(segments, equal ? 'equal' : 'modified', baseStart + i, 1, currentStart + i, 1);
  }
}

const UNREACHED = 0x3fffffff;
/**
 * A changed row costs ROW; a change of offset costs one more, so of two alignments that change as many rows the one with fewer bands wins.
 */
const ROW = 16;

/** The cheapest alignment of the middle rows [start, baseEnd) × [start, currentEnd) over the candidate offsets. */
function alignMiddle(images: Images, start: number, baseEnd: number, currentEnd: number, segments: Segment[]): void {
  const offsets = candidateOffsets(images, start, baseEnd, currentEnd);
  const k = offsets.length;
  const rows = currentEnd - start;
  const inPlace = offsets.indexOf(0);
  const match = new Uint8Array(rows * k);
  for (let r = 0; r < rows; r++) {
    const y = start + r;
    const inPlaceEqual = y < baseEnd && rowsEqual(images, images.base, y, images.current, y);
    for (let o = 0; o < k; o++) {
      const x = y - offsets[o];
      if (x < start || x >= baseEnd) continue;
      match[r * k + o] =
        offsets[o] === 0
          ? inPlaceEqual
            ? Match.Equal
            : Match.Different
          : rowsEqual(images, images.base, x, images.current, y)
            ? Match.Equal
            : inPlaceEqual
              ? Match.InPlace
              : Match.Different;
    }
  }

  // Step r is current row start + r - 1; step 0 is the row before the middle (offset 0), step rows + 1 the suffix.
  const steps = rows + 2;
  const cost = new Int32Array(steps * k).fill(UNREACHED);
  const from = new Int16Array(steps * k).fill(-1);
  cost[inPlace] = 0;
  const endOffset = currentEnd - baseEnd;
  for (let s = 1; s < steps; s++) {
    const last = s === steps - 1;
    for (let o = 0; o < k; o++) {
      let rowCost: number;
      if (last) rowCost = offsets[o] === endOffset ? 0 : UNREACHED;
      else {
        const m = match[(s - 1) * k + o];
        rowCost = m === Match.Invalid ? UNREACHED : m === Match.Different ? ROW : 0;
      }
      if (rowCost === UNREACHED) continue;
      let best = cost[(s - 1) * k + o];
      let bestFrom = o;
      for (let p = 0; p < k; p++) {
        if (p === o) continue;
        const gap = offsets[o] - offsets[p];
        // A larger offset: `gap` current rows were inserted before this one; a smaller one: baseline rows removed.
        const previous = gap > 0 ? s - gap - 1 : s - 1;
        if (previous < 0) continue;
        const candidate = cost[previous * k + p] + Math.abs(gap) * ROW + 1;
        if (candidate < best) {
          best = candidate;
          bestFrom = p;
        }
      }
      if (best >= UNREACHED) continue;
      cost[s * k + o] = best + rowCost;
      from[s * k + o] = bestFrom;
    }
  }

  // Walk back from the suffix, then emit the rows top to bottom.
  const path: { step: number; offset: number; insertedBefore: number; removedBefore: number }[] = [];
  let s = steps - 1;
  let o = offsets.indexOf(endOffset);
  while (s > 0) {
    const p = from[s * k + o];
    const gap = offsets[o] - offsets[p];
    path.push({ step: s, offset: offsets[o], insertedBefore: Math.max(0, gap), removedBefore: Math.max(0, -gap) });
    s = gap > 0 ? s - gap - 1 : s - 1;
    o = p;
  }
  path.reverse();
  for (const { step, offset, insertedBefore, removedBefore } of path) {
    const y = start + step - 1;
    const x = y - offset;
    if (insertedBefore === 1 && x > 0) {
      // One row in or out between two runs that match is fractional layout re-snapping, not an
      // insertion: the row is compared with its neighbour and counts only where it really differs.
      push(segments, 'modified', x - 1, 1, y - 1, 1);
    } else if (insertedBefore) {
      push(segments, 'added', x, 0, y - insertedBefore, insertedBefore);
    } else if (removedBefore === 1) {
      // Re-snapping too at the very top: an element captured at a half-pixel offset loses its top
      // row to rounding, so the lost row is compared with the current top row and counts only
      // where it really differs (tests/e2e/fractional.spec.ts). Unlike an insertion there, a base
      // row above exists to compare.
      push(segments, 'modified', x - 1, 1, y < images.current.image.height ? y : y - 1, 1);
    } else if (removedBefore) {
      push(segments, 'removed', x - removedBefore, removedBefore, y, 0);
    }
    if (step === steps - 1) break;
    const m = match[(step - 1) * k + offsets.indexOf(offset)];
    if (m === Match.InPlace) push(segments, verified(images, y, y) ? 'equal' : 'modified', y, 1, y, 1);
    else push(segments, m === Match.Equal && verified(images, x, y) ? 'equal' : 'modified', x, 1, y, 1);
  }
}

/**
 * A band between rows that repeat (the padding above a removed section looks like the padding above
 * the next one) can slide without changing what it explains; the alignment leaves it at one end of
 * that range. Sibling elements repeat their paddings at both ends, so the middle of the range is
 * where the element's own edges are: the band is moved there.
 */
function centreBands(segments: Segment[], images: Images): Segment[] {
  for (let i = 1; i + 1 < segments.length; i++) {
    const band = segments[i];
    const before = segments[i - 1];
    const after = segments[i + 1];
    if ((band.kind !== 'added' && band.kind !== 'removed') || before.kind !== 'equal' || after.kind !== 'equal') continue;
    if (before.baseStart + before.baseLength !== band.baseStart || after.baseStart !== band.baseStart + band.baseLength) continue;
    if (before.currentStart + before.currentLength !== band.currentStart || after.currentStart !== band.currentStart + band.currentLength)
      continue;
    const [side, start, length, room] =
      band.kind === 'added'
        ? [images.current, band.currentStart, band.currentLength, [before.currentLength, after.currentLength]]
        : [images.base, band.baseStart, band.baseLength, [before.baseLength, after.baseLength]];
    let up = 0;
    while (up < room[0] && side.hashes[start - 1 - up] === side.hashes[start + length - 1 - up]) up++;
    let down = 0;
    while (down < room[1] && side.hashes[start + down] === side.hashes[start + length + down]) down++;
    const shift = Math.round((down - up) / 2);
    if (!shift) continue;
    before.baseLength += shift;
    before.currentLength += shift;
    band.baseStart += shift;
    band.currentStart += shift;
    after.baseStart += shift;
    after.currentStart += shift;
    after.baseLength -= shift;
    after.currentLength -= shift;
  }
  return segments;
}

/**
 * Segments covering every row of both images, in current-row order. `equal` rows are equal within
 * tolerance (checked here), `modified` rows are paired for the pixel comparison, `added` and
 * `removed` rows exist on one side only.
 */
export function alignRows(base: RgbaImage, current: RgbaImage, width: number, maxDelta: number): Segment[] {
  const side = (image: RgbaImage): Side => {
    const pixels = words(image);
    return { image, words: pixels, hashes: rowHashes(pixels, image.width, image.height, width) };
  };
  const images: Images = { base: side(base), current: side(current), width, maxDelta };
  const n = base.height;
  const m = current.height;
  const baseHashes = images.base.hashes;
  const currentHashes = images.current.hashes;
  let prefix = 0;
  while (prefix < n && prefix < m && baseHashes[prefix] === currentHashes[prefix]) prefix++;
  let suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && baseHashes[n - 1 - suffix] === currentHashes[m - 1 - suffix]) suffix++;
  const segments: Segment[] = [];
  pushVerified(segments, images, 0, 0, prefix);
  alignMiddle(images, prefix, n - suffix, m - suffix, segments);
  pushVerified(segments, images, n - suffix, m - suffix, suffix);
  return centreBands(segments, images);
}
