/**
 * Row alignment: the page is a sequence of pixel rows, hashed; an inserted banner or a removed
 * block is an insertion or deletion in that sequence. Common prefix and suffix are trimmed in
 * linear time; what remains goes through Myers' O((N+M)·D) diff, capped so a page that changed
 * everywhere falls back to comparing rows by position.
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

/** Edit steps past which a diff is no longer an insertion or a deletion but a page that changed throughout. */
const MAX_EDITS = 1024;

type Step = 0 | 1 | 2; // equal, removed (baseline only), added (current only)

function myers(a: Uint32Array, aStart: number, n: number, b: Uint32Array, bStart: number, m: number): Step[] | null {
  const limit = Math.min(n + m, MAX_EDITS);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[aStart + x] === b[bStart + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], offset: number, n: number, m: number): Step[] {
  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const previousK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const previousX = v[offset + previousK];
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      steps.push(0);
      x--;
      y--;
    }
    steps.push(x === previousX ? 2 : 1);
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    steps.push(0);
    x--;
    y--;
  }
  return steps.reverse();
}

function push(segments: Segment[], kind: SegmentKind, baseStart: number, baseLength: number, currentStart: number, currentLength: number): void {
  if (baseLength === 0 && currentLength === 0) return;
  const last = segments[segments.length - 1];
  if (last && last.kind === kind && last.baseStart + last.baseLength === baseStart && last.currentStart + last.currentLength === currentStart) {
    last.baseLength += baseLength;
    last.currentLength += currentLength;
    return;
  }
  segments.push({ kind, baseStart, baseLength, currentStart, currentLength });
}

/** A run of removed and added rows side by side is a modification of the rows they share. */
function pushChange(segments: Segment[], baseStart: number, removed: number, currentStart: number, added: number): void {
  const paired = Math.min(removed, added);
  push(segments, 'modified', baseStart, paired, currentStart, paired);
  push(segments, 'removed', baseStart + paired, removed - paired, currentStart + paired, 0);
  push(segments, 'added', baseStart + paired, 0, currentStart + paired, added - paired);
}

/** Equal runs shorter than this between two changes are coincidences (blank rows), not anchors. */
const MIN_ANCHOR_ROWS = 8;

/** Folds changes separated by short equal runs into one change: alignment by blank rows is noise. */
function consolidate(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  while (i < segments.length) {
    if (segments[i].kind === 'equal') {
      push(out, 'equal', segments[i].baseStart, segments[i].baseLength, segments[i].currentStart, segments[i].currentLength);
      i++;
      continue;
    }
    let end = i + 1;
    while (end < segments.length) {
      const next = segments[end];
      if (next.kind !== 'equal') end++;
      else if (next.baseLength < MIN_ANCHOR_ROWS && end + 1 < segments.length) end += 2;
      else break;
    }
    const first = segments[i];
    const last = segments[end - 1];
    pushChange(out, first.baseStart, last.baseStart + last.baseLength - first.baseStart, first.currentStart, last.currentStart + last.currentLength - first.currentStart);
    i = end;
  }
  return out;
}

function changedRows(segments: Segment[]): number {
  return segments.reduce((sum, s) => (s.kind === 'equal' ? sum : sum + Math.max(s.baseLength, s.currentLength)), 0);
}

/** Rows compared at the same position, as a plain pixel diff would. */
function positional(base: Uint32Array, current: Uint32Array): Segment[] {
  const segments: Segment[] = [];
  const shared = Math.min(base.length, current.length);
  for (let y = 0; y < shared; y++) push(segments, base[y] === current[y] ? 'equal' : 'modified', y, 1, y, 1);
  push(segments, 'removed', shared, base.length - shared, shared, 0);
  push(segments, 'added', shared, 0, shared, current.length - shared);
  return segments;
}

function aligned(base: Uint32Array, current: Uint32Array): Segment[] {
  const n = base.length;
  const m = current.length;
  let prefix = 0;
  while (prefix < n && prefix < m && base[prefix] === current[prefix]) prefix++;
  let suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && base[n - 1 - suffix] === current[m - 1 - suffix]) suffix++;
  const segments: Segment[] = [];
  push(segments, 'equal', 0, prefix, 0, prefix);
  const middleBase = n - prefix - suffix;
  const middleCurrent = m - prefix - suffix;
  const steps = middleBase && middleCurrent ? myers(base, prefix, middleBase, current, prefix, middleCurrent) : null;
  if (steps) {
    let x = prefix;
    let y = prefix;
    let removed = 0;
    let added = 0;
    for (const step of steps) {
      if (step === 0) {
        pushChange(segments, x - removed, removed, y - added, added);
        removed = added = 0;
        push(segments, 'equal', x, 1, y, 1);
        x++;
        y++;
      } else if (step === 1) {
        removed++;
        x++;
      } else {
        added++;
        y++;
      }
    }
    pushChange(segments, x - removed, removed, y - added, added);
  } else {
    pushChange(segments, prefix, middleBase, prefix, middleCurrent);
  }
  push(segments, 'equal', n - suffix, suffix, m - suffix, suffix);
  return consolidate(segments);
}

/**
 * The row mapping with the fewest changed rows: aligned (content that moved is matched where it
 * went) or positional (a change that grows an element in place is compared where it stands).
 */
export function alignRows(base: Uint32Array, current: Uint32Array): Segment[] {
  const byAlignment = aligned(base, current);
  const byPosition = positional(base, current);
  return changedRows(byAlignment) <= changedRows(byPosition) ? byAlignment : byPosition;
}
