import sharp from 'sharp';
import type { Region } from '../types';
import type { Size } from '../util/png';

/**
 * What the model sees of a pair: the horizontal bands around the changed regions (whatever the
 * page's height: rows far from every change cost bytes and show nothing that changed), stacked
 * with a separator line, all images cut and scaled alike so they line up. Then as large and as
 * sharp as the request's byte budget allows.
 */

/** Context kept above and below each changed region. */
const BAND_MARGIN = 160;
/** Largest upload: OpenAI's high-detail path scales larger images down anyway. */
const MAX_WIDTH = 1024;
const MAX_HEIGHT = 2048;
/** A band shorter than this is not worth showing once the height budget is nearly spent. */
const MIN_BAND_HEIGHT = 64;
/** In page pixels, so it stays visible at the smallest scale. */
const SEPARATOR_HEIGHT = 8;
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
  /** The largest scale the images may be sent at; the byte budget may pick a smaller one. */
  maxScale: number;
  bands: Band[];
  /** How many separate changed areas there were, before the height budget cut any off. */
  areas: number;
  /** What part of the page the images show; the scale is added once they are rendered (`viewNote`). */
  shown: string;
  /** The two sides' sizes when they differ. */
  sizes: string;
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

/** Keeps bands from the top until `maxHeight` (scaled) is spent; cuts the last one short. */
function fitBands(bands: Band[], scale: number, maxHeight = MAX_HEIGHT): Band[] {
  const kept: Band[] = [];
  let used = 0;
  for (const band of bands) {
    const gap = kept.length ? Math.round(SEPARATOR_HEIGHT * scale) : 0;
    const room = maxHeight - used - gap;
    if (room < MIN_BAND_HEIGHT) break;
    const full = Math.round((band.y1 - band.y0) * scale);
    if (full <= room) kept.push(band);
    else kept.push({ y0: band.y0, y1: band.y0 + Math.floor(room / scale) });
    used += gap + Math.min(full, room);
  }
  return kept;
}

function describe(canvas: Size, bands: Band[], areas: number): string {
  const whole = bands.length === 1 && bands[0].y0 === 0 && bands[0].y1 === canvas.height;
  if (whole) return `The images show the whole capture (${canvas.width}×${canvas.height} px)`;
  const rows = bands.map((b) => `${b.y0}–${b.y1}`).join(', ');
  const cut = bands.length < areas ? ` (the first ${bands.length} of ${areas} changed areas; the others are not shown)` : '';
  const stacked = bands.length > 1 ? ', stacked top to bottom and separated by a magenta line' : '';
  return `The capture is ${canvas.width}×${canvas.height} px; the images show only rows ${rows} around the changes${cut}${stacked}`;
}

/** Plans one view for all the images (same bands), so they line up. */
export function planView(baseline: Size, current: Size, regions: Region[]): ViewPlan {
  const canvas = { width: Math.max(baseline.width, current.width), height: Math.max(baseline.height, current.height) };
  const maxScale = Math.min(1, MAX_WIDTH / canvas.width);
  const merged = mergeBands(regions, canvas.height);
  const areas = Math.max(1, merged.length);
  const bands = fitBands(merged.length ? merged : [{ y0: 0, y1: canvas.height }], maxScale);
  const sameSize = baseline.width === current.width && baseline.height === current.height;
  const sizes = sameSize
    ? ''
    : ` The baseline is ${baseline.width}×${baseline.height} px and the current ${current.width}×${current.height} px; grey ` +
      `areas lie outside the smaller one.`;
  return { canvas, maxScale, bands, areas, shown: describe(canvas, bands, areas), sizes };
}

/** The prompt's sentence about the images: what they show, at which scale. */
export function viewNote(plan: ViewPlan, scale: number): string {
  const scaled = scale < 1 ? `, scaled to ${Math.round(scale * 100)}%` : '';
  return `${plan.shown}${scaled}.${plan.sizes}`;
}

/** The diff image only shows where pixels changed (the words and the regions say what): a quarter of the width does. */
const DIFF_SCALE = 0.25;
/**
 * Scales tried, largest first, from the plan's largest down: at 0.5 body text (16 CSS px) is
 * 8 image px, about the least a model still reads; OpenAI's high-detail path looks at a
 * 1280 px-wide page at about 0.6 (shortest side 768 px) anyway.
 */
const SCALES = [1, 0.9, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5];
/** WebP qualities tried at a scale, sharpest first: 30 still keeps 12 px text readable, with visible ringing. */
const QUALITIES = [70, 50, 30];

/** One band of the source at full size; rows or columns past the source's edge are grey. */
async function bandOf(file: string, source: Size, band: Band, canvasWidth: number): Promise<Buffer> {
  const inside = {
    left: 0,
    top: Math.min(band.y0, source.height),
    width: source.width,
    height: Math.max(0, Math.min(band.y1, source.height) - band.y0),
  };
  const [r, g, b] = OUTSIDE_RGBA;
  const grey = { r, g, b, alpha: 1 };
  if (inside.height === 0)
    return sharp({ create: { width: canvasWidth, height: band.y1 - band.y0, channels: 4, background: grey } })
      .png()
      .toBuffer();
  return sharp(file)
    .extract(inside)
    .extend({ right: canvasWidth - source.width, bottom: band.y1 - band.y0 - inside.height, background: grey })
    .png()
    .toBuffer();
}

interface Stacked {
  pixels: Buffer;
  width: number;
  height: number;
}

function stackedHeight(plan: ViewPlan): number {
  return plan.bands.reduce((sum, b) => sum + b.y1 - b.y0, 0) + SEPARATOR_HEIGHT * (plan.bands.length - 1);
}

/** The planned bands of one image at full size, stacked with a magenta line between two, as raw RGB. */
async function stack(file: string, plan: ViewPlan): Promise<Stacked> {
  const source = await sharp(file).metadata();
  const size = { width: source.width ?? 0, height: source.height ?? 0 };
  const { width } = plan.canvas;
  const heights = plan.bands.map((b) => b.y1 - b.y0);
  const height = stackedHeight(plan);
  const tops = heights.map((_, i) => heights.slice(0, i).reduce((sum, h) => sum + h + SEPARATOR_HEIGHT, 0));
  const parts = await Promise.all(plan.bands.map((band) => bandOf(file, size, band, width)));
  const [r, g, b] = SEPARATOR_RGBA;
  const pixels = await sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .composite(parts.map((input, i) => ({ input, left: 0, top: tops[i] })))
    .removeAlpha()
    .raw()
    .toBuffer();
  return { pixels, width, height };
}

function resized(image: Stacked, scale: number): Promise<Buffer> {
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  return sharp(image.pixels, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .png()
    .toBuffer();
}

export interface ViewImage {
  file: string;
  /** A side is sent at the chosen scale, the diff at a quarter of it. */
  role: 'side' | 'diff';
}

export interface RenderedView {
  /** The images as WebP, in the order asked for. */
  images: Buffer[];
  /** What the images show, with the scale: the prompt's sentence about them. */
  note: string;
}

const DATA_URL_PREFIX = 'data:image/webp;base64,';

/** The length of an image's data URL: what it adds to the request. */
export function dataUrlBytes(webp: Buffer): number {
  return DATA_URL_PREFIX.length + 4 * Math.ceil(webp.length / 3);
}

/** The plan with its bands cut to `rows` source rows (separators included), from the top. */
function shortened(plan: ViewPlan, rows: number): ViewPlan {
  const bands = fitBands(plan.bands, 1, rows);
  return { ...plan, bands, shown: describe(plan.canvas, bands, plan.areas) };
}

interface Encoded {
  images: Buffer[];
  scale: number;
  quality: number;
  bytes: number;
}

/** The images at this scale, at the highest quality that fits the budget, else at the lowest. */
async function encodeAt(stacked: Stacked[], roles: ViewImage['role'][], scale: number, budgetBytes: number): Promise<Encoded> {
  const scaled = await Promise.all(stacked.map((image, i) => resized(image, roles[i] === 'diff' ? scale * DIFF_SCALE : scale)));
  const encode = async (quality: number): Promise<Encoded> => {
    const images = await Promise.all(scaled.map((png) => sharp(png).webp({ quality }).toBuffer()));
    return { images, scale, quality, bytes: images.reduce((sum, webp) => sum + dataUrlBytes(webp), 0) };
  };
  // The lowest quality first: when even that is over the budget, the sharper ones are too.
  const lowest = await encode(QUALITIES[QUALITIES.length - 1]);
  if (lowest.bytes > budgetBytes) return lowest;
  for (const quality of QUALITIES.slice(0, -1)) {
    const sharper = await encode(quality);
    if (sharper.bytes <= budgetBytes) return sharper;
  }
  return lowest;
}

/**
 * The planned view of each image as WebP (the model reads screenshots as well in WebP as in PNG
 * at a fraction of the bytes), at the largest scale and then the highest quality whose data URLs
 * fit `budgetBytes` together: a small change goes sharp and at full size, a page-wide one is
 * scaled down. All images share the bands, the scale and the quality, so they stay comparable.
 * A view that does not fit even at the smallest scale and quality loses rows from the bottom
 * (the note says which rows are shown): fewer rows the model can read are worth more than more
 * rows it cannot.
 */
export async function renderViews(images: ViewImage[], plan: ViewPlan, budgetBytes: number): Promise<RenderedView> {
  const roles = images.map((image) => image.role);
  const smallest = SCALES[SCALES.length - 1];
  let ladder = [plan.maxScale, ...SCALES.filter((scale) => scale < plan.maxScale)];
  let view = plan;
  for (;;) {
    const stacked = await Promise.all(images.map((image) => stack(image.file, view)));
    let encoded: Encoded | null = null;
    for (const scale of ladder) {
      // Bytes go about with the area: scales the last try says are still too large are skipped
      // (never the smallest, which the rows are cut at).
      if (encoded && scale !== smallest && scale > encoded.scale * Math.sqrt(budgetBytes / encoded.bytes)) continue;
      encoded = await encodeAt(stacked, roles, scale, budgetBytes);
      if (encoded.bytes <= budgetBytes) return { images: encoded.images, note: viewNote(view, scale) };
    }
    // And with the rows: keep the share of them that fits, with a margin.
    const rows = Math.floor((stackedHeight(view) * 0.9 * budgetBytes) / encoded!.bytes);
    if (rows < MIN_BAND_HEIGHT) return { images: encoded!.images, note: viewNote(view, encoded!.scale) };
    view = shortened(view, rows);
    ladder = [smallest];
  }
}

export function dataUrl(webp: Buffer): string {
  return `${DATA_URL_PREFIX}${webp.toString('base64')}`;
}
