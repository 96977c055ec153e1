import fs from 'node:fs';
import { PNG } from 'pngjs';
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

function fill(data: Buffer, offset: number, rgba: number[]): void {
  data[offset] = rgba[0];
  data[offset + 1] = rgba[1];
  data[offset + 2] = rgba[2];
  data[offset + 3] = rgba[3];
}

/** Area-averaged downscale of the planned bands of one image, as PNG bytes. */
export function renderView(file: string, plan: ViewPlan): Buffer {
  const source = PNG.sync.read(fs.readFileSync(file));
  const { scale, bands } = plan;
  const width = Math.max(1, Math.round(plan.canvas.width * scale));
  const heights = bands.map((b) => Math.max(1, Math.round((b.y1 - b.y0) * scale)));
  const height = heights.reduce((sum, h) => sum + h, 0) + SEPARATOR_HEIGHT * (bands.length - 1);
  const out = new PNG({ width, height });
  let top = 0;
  bands.forEach((band, index) => {
    if (index > 0) {
      for (let y = top; y < top + SEPARATOR_HEIGHT; y++) for (let x = 0; x < width; x++) fill(out.data, (y * width + x) * 4, SEPARATOR_RGBA);
      top += SEPARATOR_HEIGHT;
    }
    for (let dy = 0; dy < heights[index]; dy++) {
      const sy0 = Math.min(band.y1 - 1, band.y0 + Math.floor(dy / scale));
      const sy1 = Math.min(band.y1, Math.max(sy0 + 1, band.y0 + Math.floor((dy + 1) / scale)));
      for (let dx = 0; dx < width; dx++) {
        const sx0 = Math.min(plan.canvas.width - 1, Math.floor(dx / scale));
        const sx1 = Math.min(plan.canvas.width, Math.max(sx0 + 1, Math.floor((dx + 1) / scale)));
        const target = ((top + dy) * width + dx) * 4;
        if (sy0 >= source.height || sx0 >= source.width) {
          fill(out.data, target, OUTSIDE_RGBA);
          continue;
        }
        let r = 0, g = 0, b = 0, a = 0, n = 0;
        for (let sy = sy0; sy < Math.min(sy1, source.height); sy++)
          for (let sx = sx0; sx < Math.min(sx1, source.width); sx++) {
            const i = (sy * source.width + sx) * 4;
            r += source.data[i]; g += source.data[i + 1]; b += source.data[i + 2]; a += source.data[i + 3]; n++;
          }
        fill(out.data, target, [Math.round(r / n), Math.round(g / n), Math.round(b / n), Math.round(a / n)]);
      }
    }
    top += heights[index];
  });
  return PNG.sync.write(out);
}

export function dataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`;
}
