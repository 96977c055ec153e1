import zlib from 'node:zlib';
import type { Region, RegionKind } from '../types';
import { maxColourDelta, overWhite, yiqDistance, type RgbaImage } from './pixels';

/**
 * What changed in a pair, independent of where it is on the page: for each changed region, its
 * size and a small picture of both sides (the base pixels and the current pixels of the region,
 * averaged over square cells), and the lines of the ARIA diff (the text that changed). The same
 * footer change at y=700 on one page and at y=3000 on another has the same fingerprint; so does
 * the same change on a page whose rendering jitters below the threshold from one load to the next.
 *
 * Two regions are the same change when they have the same kind and size (within SLACK pixels)
 * and every cell of both sides is within the comparison's threshold of its counterpart, by the
 * very colour distance the pixel comparison uses: noise that never makes a pixel differ never
 * makes a cell differ (a cell is a mean, and the distance of two means is at most the largest
 * distance of their pixels), while a colour that moved past the threshold moves every cell it
 * covers. A cell is a few pixels wide on a large region, so a small edit inside a large changed
 * region can stay below it; the ARIA lines catch a text edit there: they must be equal.
 *
 * The smallest edit guaranteed to be caught: a cell is at most MAX_CELL_EDGE (10) pixels on a
 * side, so any square of 2 × 10 − 1 = 19 pixels lies over one whole cell wherever it is; an edit
 * that moves every pixel of a 19×19 square past the threshold by the same colour (an icon
 * recoloured, a 20 px element restyled) moves that cell's mean as far, and the region no longer
 * matches: an approval of it is stale. A smaller edit is caught when it moves a cell's mean past
 * the threshold, which noise (never making a pixel differ) cannot do.
 */

export interface RegionPrint {
  kind: RegionKind;
  width: number;
  height: number;
  /** Edge of a cell, in pixels: 1 for small regions, more as a region grows (at most MAX_CELLS cells), never more than MAX_CELL_EDGE. */
  cell: number;
  /** Mean RGB (composited over white) of each cell, row by row; null for the side the region is not on. */
  base: Uint8Array | null;
  current: Uint8Array | null;
}

export interface ChangePrint {
  /** The threshold the pair was compared with: a match uses the stricter of two. */
  threshold: number;
  /** Largest first. */
  regions: RegionPrint[];
  /** The ARIA diff's removed and added lines (`-…`, `+…`, indentation dropped), sorted, each once. */
  lines: string[];
}

/** Cells per region below the edge cap: a 1280×80 footer gets 10 px cells; a button stays at pixel resolution. */
const MAX_CELLS = 1024;
/** No cell is larger, however large the region: the guaranteed-caught edit stays a 19 px square on a full page. */
const MAX_CELL_EDGE = 10;
/** Region sizes may differ this much: a glyph edge near the threshold can add a pixel on a side. */
const SLACK = 2;
const VERSION = 'v1';

function cellSize(width: number, height: number): number {
  return Math.min(MAX_CELL_EDGE, Math.max(1, Math.ceil(Math.sqrt((width * height) / MAX_CELLS))));
}

/** Where a region's pixels are on each side: current rows are the region's; base rows come from the row alignment. */
export interface RegionSource {
  region: Region;
  /** For each row of the region, the base row it was compared with (-1: none), or null when the region has no base side. */
  baseRows: Int32Array | null;
  /** Whether the current image has the region's pixels (false for a removed band). */
  onCurrent: boolean;
}

/**
 * Mean colour per cell of `width`×`height` pixels read from `image` at column `x` and the given
 * rows (a row of -1 is skipped). One pass over the pixels, sums in typed arrays.
 */
function thumbnail(image: RgbaImage, x: number, rows: ArrayLike<number>, width: number, cell: number): Uint8Array {
  const cols = Math.ceil(width / cell);
  const cellRows = Math.ceil(rows.length / cell);
  const sums = new Float64Array(cols * cellRows * 3);
  const counts = new Uint32Array(cols * cellRows);
  const data = image.data;
  const right = Math.min(width, image.width - x);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row < 0 || row >= image.height) continue;
    const cellRow = ((r / cell) | 0) * cols;
    for (let c = 0, i = (row * image.width + x) * 4; c < right; c++, i += 4) {
      const index = cellRow + ((c / cell) | 0);
      const alpha = data[i + 3] / 255;
      sums[index * 3] += overWhite(data[i], alpha);
      sums[index * 3 + 1] += overWhite(data[i + 1], alpha);
      sums[index * 3 + 2] += overWhite(data[i + 2], alpha);
      counts[index]++;
    }
  }
  const out = new Uint8Array(cols * cellRows * 3).fill(255);
  for (let index = 0; index < counts.length; index++) {
    if (!counts[index]) continue;
    for (let channel = 0; channel < 3; channel++) out[index * 3 + channel] = Math.round(sums[index * 3 + channel] / counts[index]);
  }
  return out;
}

function rowRange(start: number, length: number): Int32Array {
  return Int32Array.from({ length }, (_, i) => start + i);
}

/** The fingerprint of each region, computed from the decoded images the comparison already holds. */
export function fingerprintRegions(base: RgbaImage, current: RgbaImage, sources: RegionSource[], threshold: number): ChangePrint {
  const regions = sources.map(({ region, baseRows, onCurrent }): RegionPrint => {
    const cell = cellSize(region.width, region.height);
    return {
      kind: region.kind ?? 'modified',
      width: region.width,
      height: region.height,
      cell,
      base: baseRows ? thumbnail(base, region.x, baseRows, region.width, cell) : null,
      current: onCurrent ? thumbnail(current, region.x, rowRange(region.y, region.height), region.width, cell) : null,
    };
  });
  return { threshold, regions: sortRegions(regions), lines: [] };
}

type Sized = Pick<Region, 'kind' | 'width' | 'height'>;

/** Largest first, so a change's first region is its main one and encodings compare as text. */
function bySize(a: Sized, b: Sized): number {
  return b.width * b.height - a.width * a.height || (a.kind ?? 'modified').localeCompare(b.kind ?? 'modified') || a.width - b.width;
}

function sortRegions(regions: RegionPrint[]): RegionPrint[] {
  return [...regions].sort(bySize);
}

/**
 * A pair's changed regions (the diff metrics', with their places) in the order of its
 * fingerprint's regions: index i of one is index i of the other, as `findChange` names them.
 */
export function inPrintOrder<T extends Sized>(regions: T[]): T[] {
  return [...regions].sort(bySize);
}

/** The changed lines of an ARIA snapshot diff, without positions or indentation: what text changed, wherever it is. */
function ariaLines(ariaDiff: string | null): string[] {
  if (!ariaDiff) return [];
  const lines = ariaDiff.split('\n').filter((line) => (line.startsWith('-') || line.startsWith('+')) && line.slice(1).trim());
  return [...new Set(lines.map((line) => `${line[0]}${line.slice(1).trim()}`))].sort();
}

const KIND_LETTER: Record<RegionKind, string> = { modified: 'm', added: 'a', removed: 'r' };
const LETTER_KIND: Record<string, RegionKind> = { m: 'modified', a: 'added', r: 'removed' };

/**
 * `v1 t0.1 m1280x80c10:<data> a1280x200c16:<data> l<line>`: the threshold; per region its kind,
 * size, cell edge and both sides' cells (deflated, base64url); per ARIA line `l` and the line
 * (base64url). One line of text: it goes into the results file and the approvals file as it is.
 */
export function encodeChange(change: ChangePrint): string {
  const regions = change.regions.map((region) => {
    const sides = [region.base, region.current].filter((side): side is Uint8Array => side !== null);
    const data = zlib.deflateRawSync(Buffer.concat(sides), { level: 9 }).toString('base64url');
    return `${KIND_LETTER[region.kind]}${region.width}x${region.height}c${region.cell}:${data}`;
  });
  const lines = change.lines.map((line) => `l${Buffer.from(line).toString('base64url')}`);
  return [VERSION, `t${change.threshold}`, ...regions, ...lines].join(' ');
}

const REGION = /^([mar])(\d+)x(\d+)c(\d+):([A-Za-z0-9_-]*)$/;
const LINE = /^l([A-Za-z0-9_-]+)$/;

function decodeRegion(match: RegExpExecArray): RegionPrint | null {
  const kind = LETTER_KIND[match[1]];
  const [width, height, cell] = [match[2], match[3], match[4]].map(Number);
  if (cell < 1 || width < 1 || height < 1) return null;
  const side = Math.ceil(width / cell) * Math.ceil(height / cell) * 3;
  let bytes: Buffer;
  try {
    bytes = zlib.inflateRawSync(Buffer.from(match[5], 'base64url'));
  } catch {
    return null;
  }
  if (bytes.length !== side * (kind === 'modified' ? 2 : 1)) return null;
  const first = new Uint8Array(bytes.subarray(0, side));
  const second = kind === 'modified' ? new Uint8Array(bytes.subarray(side)) : first;
  return { kind, width, height, cell, base: kind === 'added' ? null : first, current: kind === 'removed' ? null : second };
}

/** The change a fingerprint describes; null for text that is not one (or from another version). */
export function decodeChange(text: string): ChangePrint | null {
  const [version, threshold, ...parts] = text.trim().split(/\s+/);
  if (version !== VERSION || !threshold?.startsWith('t')) return null;
  const value = Number(threshold.slice(1));
  if (!Number.isFinite(value)) return null;
  const change: ChangePrint = { threshold: value, regions: [], lines: [] };
  for (const part of parts) {
    const region = REGION.exec(part);
    const line = LINE.exec(part);
    if (region) {
      const decoded = decodeRegion(region);
      if (!decoded) return null;
      change.regions.push(decoded);
    } else if (line) change.lines.push(Buffer.from(line[1], 'base64url').toString());
    else return null;
  }
  return change;
}

/** Every compared cell of two sides within `maxDelta`; where sizes differ, only the cells both regions cover whole. */
function sidesMatch(a: Uint8Array | null, b: Uint8Array | null, ra: RegionPrint, rb: RegionPrint, maxDelta: number): boolean {
  if (!a || !b) return a === b;
  const cell = ra.cell;
  const colsA = Math.ceil(ra.width / cell);
  const colsB = Math.ceil(rb.width / cell);
  const cols = ra.width === rb.width ? colsA : Math.floor(Math.min(ra.width, rb.width) / cell);
  const rows = ra.height === rb.height ? Math.ceil(ra.height / cell) : Math.floor(Math.min(ra.height, rb.height) / cell);
  // A thin region whose size moved has no whole cell in common: nothing to compare is not a match.
  if (cols === 0 || rows === 0) return false;
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < cols; x++) {
      const i = (y * colsA + x) * 3;
      const j = (y * colsB + x) * 3;
      if (yiqDistance(a[i], a[i + 1], a[i + 2], b[j], b[j + 1], b[j + 2]) > maxDelta) return false;
    }
  return true;
}

/** Two regions are one change: same kind, size within SLACK, same cells, both sides within the threshold. */
export function sameRegion(a: RegionPrint, b: RegionPrint, threshold: number): boolean {
  if (a.kind !== b.kind || a.cell !== b.cell) return false;
  if (Math.abs(a.width - b.width) > SLACK || Math.abs(a.height - b.height) > SLACK) return false;
  const maxDelta = maxColourDelta(threshold);
  return sidesMatch(a.base, b.base, a, b, maxDelta) && sidesMatch(a.current, b.current, a, b, maxDelta);
}

/** Where a change's parts are found in another: the indexes of its regions and lines there. */
export interface Found {
  regions: number[];
  lines: number[];
}

/**
 * The regions and lines of `part` that `whole` shows, each used once, under the stricter of the
 * two thresholds: a group's change on one of its checkpoints, which may show only some of it (a
 * full page shows a footer's text boxes, and its strip inside a band of its own).
 */
export function findShown(part: ChangePrint, whole: ChangePrint): Found {
  const threshold = Math.min(part.threshold, whole.threshold);
  const used = new Set<number>();
  const regions: number[] = [];
  for (const region of part.regions) {
    const index = whole.regions.findIndex((candidate, i) => !used.has(i) && sameRegion(region, candidate, threshold));
    if (index === -1) continue;
    used.add(index);
    regions.push(index);
  }
  const lines = part.lines.map((line) => whole.lines.indexOf(line)).filter((index) => index !== -1);
  return { regions, lines };
}

/** Finds each region and line of `part` in `whole` (as `findShown`); null when one is not there. */
export function findChange(part: ChangePrint, whole: ChangePrint): Found | null {
  const shown = findShown(part, whole);
  return shown.regions.length === part.regions.length && shown.lines.length === part.lines.length ? shown : null;
}

/** The part of `whole` that `found` names, its own region objects and lines. */
export function partOf(whole: ChangePrint, found: Found): ChangePrint {
  return { threshold: whole.threshold, regions: found.regions.map((i) => whole.regions[i]), lines: found.lines.map((i) => whole.lines[i]) };
}

/** The same change: every region and line of each found in the other. */
export function sameChange(a: ChangePrint, b: ChangePrint): boolean {
  return a.regions.length === b.regions.length && a.lines.length === b.lines.length && findChange(a, b) !== null;
}

/** A change with the ARIA diff's lines added. */
export function withAriaLines(change: ChangePrint, ariaDiff: string | null): ChangePrint {
  return { ...change, lines: ariaLines(ariaDiff) };
}
