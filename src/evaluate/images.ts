import sharp from 'sharp';
import type { Region } from '../types';
import type { Size } from '../util/png';

/**
 * What the model sees of a pair. A viewport-sized page goes whole (the model needs context to
 * judge intent); a long page is cut to horizontal bands around the changed regions, stacked with
 * a separator line, so a 1280×8000 page costs a few tiles and not a full-page upload.
 */

/** Pages up to this tall go whole. */
const WHOLE_PAGE_MAX_HEIGHT = 1600;
/** Context kept above and below each changed region. */
const BAND_MARGIN = 160;
/** Upload size limits (after scaling): OpenAI's high-detail path scales larger images down anyway. */
const MAX_WIDTH = 1024;
const MAX_HEIGHT = 2048;
/** A band shorter than this is not worth showing once the height budget is nearly spent. */
const MIN_BAND_HEIGHT = 64;
const SEPARATOR_HEIGHT = 6;
const SEPARATOR_RGBA = [255, 0, 255, 255];
/** Pixels outside a smaller image (the other side is taller or wider). */
const OUTSIDE_RGBA = [128, 128, 128, 255];

/** Rows [y0, y1) of the canvas, in source pixels. */
interface Band {
  y0: number;
  y1: number;
}

export interface ViewPlan {
  canvas: Size;
  scale: number;
  bands: Band[];
  /** How many separate changed areas there were, before the height budget cut any off. */
  areas: number;
  /** One sentence for the prompt: what part of the page the images show. */
  note: string;
}

function mergeBands(regions: Region[], height: number): Band[] {
  const bands = regions
    .map((r) => ({ y0: Math.max(0, r.y - BAND_MARGIN), y1: Math.min(height, r.y + r.height + BAND_MARGIN) }))
    .filter((b) => b.y1 > b.y0)
    .sort((a, b) => a.y0 - b.y0);
  const merged: Band[] = [];
  for (const band of bands) {
    const last = merged[merged.length - 1];
    // Bands closer than a margin apart read better as one.
    if (last && band.y0 <= last.y1 + BAND_MARGIN) last.y1 = Math.max(last.y1, band.y1);
    else merged.push({ ...band });
  }
  return merged;
}

/** Keeps bands from the top until the scaled height budget is spent; cuts the last one short. */
function fitBands(bands: Band[], scale: number): Band[] {
  const kept: Band[] = [];
  let used = 0;
  for (const band of bands) {
    const gap = kept.length ? SEPARATOR_HEIGHT : 0;
    const room = MAX_HEIGHT - used - gap;
    if (room < MIN_BAND_HEIGHT) break;
    const full = Math.round((band.y1 - band.y0) * scale);
    if (full <= room) kept.push(band);
    else kept.push({ y0: band.y0, y1: band.y0 + Math.floor(room / scale) });
    used += gap + Math.min(full, room);
  }
  return kept;
}

function describe(plan: Omit<ViewPlan, 'note'>): string {
  const { canvas, scale, bands, areas } = plan;
  const scaled = scale < 1 ? `, scaled to ${Math.round(scale * 100)}%` : '';
  const whole = bands.length === 1 && bands[0].y0 === 0 && bands[0].y1 === canvas.height;
  if (whole) return `The images show the whole capture (${canvas.width}×${canvas.height} px${scaled}).`;
  const rows = bands.map((b) => `${b.y0}–${b.y1}`).join(', ');
  const cut = bands.length < areas ? ` (the first ${bands.length} of ${areas} changed areas; the others are not shown)` : '';
  const stacked = bands.length > 1 ? ', stacked top to bottom and separated by a magenta line' : '';
  return `The capture is ${canvas.width}×${canvas.height} px; the images show only rows ${rows} around the changes${cut}${stacked}${scaled}.`;
}

/** Plans one view for all three images (same bands, same scale), so they line up. */
export function planView(baseline: Size, current: Size, regions: Region[]): ViewPlan {
  const canvas = { width: Math.max(baseline.width, current.width), height: Math.max(baseline.height, current.height) };
  const scale = Math.min(1, MAX_WIDTH / canvas.width);
  let bands: Band[];
  let areas = 1;
  if (canvas.height <= WHOLE_PAGE_MAX_HEIGHT) {
    bands = [{ y0: 0, y1: canvas.height }];
  } else {
    const merged = mergeBands(regions, canvas.height);
    areas = Math.max(1, merged.length);
    bands = fitBands(merged.length ? merged : [{ y0: 0, y1: canvas.height }], scale);
  }
  const plan = { canvas, scale, bands, areas };
  const sameSize = baseline.width === current.width && baseline.height === current.height;
  const sizes = sameSize
    ? ''
    : ` The baseline is ${baseline.width}×${baseline.height} px and the current ${current.width}×${current.height} px; grey areas lie outside the smaller one.`;
  return { ...plan, note: describe(plan) + sizes };
}

/** WebP at this quality keeps 12 px text legible at the scale the model sees. */
const WEBP_QUALITY = 70;
/** The diff image only shows where pixels changed (the words and the regions say what): a quarter of the width does. */
const DIFF_SCALE = 0.25;
/** One image's budget: a view over it is encoded again smaller (quality, then scale) until it fits. */
export const IMAGE_BUDGET_BYTES = 120 * 1024;
const FALLBACK_QUALITIES = [60, 40];

/** One band of the source, scaled; rows or columns past the source's edge are grey. */
async function bandOf(file: string, source: Size, band: Band, width: number, height: number, canvasWidth: number): Promise<Buffer> {
  const inside = { left: 0, top: Math.min(band.y0, source.height), width: source.width, height: Math.max(0, Math.min(band.y1, source.height) - band.y0) };
  const [r, g, b] = OUTSIDE_RGBA;
  const grey = { r, g, b, alpha: 1 };
  const full = inside.height > 0
    ? sharp(await sharp(file).extract(inside).extend({ right: canvasWidth - source.width, bottom: band.y1 - band.y0 - inside.height, background: grey }).png().toBuffer())
    : sharp({ create: { width: canvasWidth, height: band.y1 - band.y0, channels: 4, background: grey } });
  return full.resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
}

/**
 * The planned bands of one image, scaled and stacked (a magenta line between two), as WebP: the
 * model reads screenshots as well in WebP as in PNG at a fraction of the bytes; the diff image
 * at a quarter of the width. Over its budget
 * (IMAGE_BUDGET_BYTES), encoded again at a lower quality.
 */
export async function renderView(file: string, plan: ViewPlan, role: 'side' | 'diff' = 'side'): Promise<Buffer> {
  const source = await sharp(file).metadata();
  const size = { width: source.width ?? 0, height: source.height ?? 0 };
  const { scale, bands } = plan;
  const width = Math.max(1, Math.round(plan.canvas.width * scale));
  const heights = bands.map((b) => Math.max(1, Math.round((b.y1 - b.y0) * scale)));
  const height = heights.reduce((sum, h) => sum + h, 0) + SEPARATOR_HEIGHT * (bands.length - 1);
  const tops = heights.map((_, i) => heights.slice(0, i).reduce((sum, h) => sum + h + SEPARATOR_HEIGHT, 0));
  const parts = await Promise.all(bands.map((band, i) => bandOf(file, size, band, width, heights[i], plan.canvas.width)));
  const [r, g, b] = SEPARATOR_RGBA;
  const canvas = sharp({ create: { width, height, channels: 3, background: { r, g, b } } }).composite(parts.map((input, i) => ({ input, left: 0, top: tops[i] })));
  const png = await canvas.png().toBuffer();
  const stacked = role === 'diff' ? await sharp(png).resize(Math.max(1, Math.round(width * DIFF_SCALE))).png().toBuffer() : png;
  let encoded = await sharp(stacked).webp({ quality: WEBP_QUALITY }).toBuffer();
  for (const quality of FALLBACK_QUALITIES) {
    if (encoded.length <= IMAGE_BUDGET_BYTES) break;
    encoded = await sharp(stacked).webp({ quality }).toBuffer();
  }
  return encoded;
}

export function dataUrl(webp: Buffer): string {
  return `data:image/webp;base64,${webp.toString('base64')}`;
}
