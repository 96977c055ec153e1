/** Decoded RGBA pixels, row after row. */
export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** pixelmatch's bound: 35215 is the largest possible YIQ distance, `threshold` scales it as Playwright does. */
export function maxColourDelta(threshold: number): number {
  return 35215 * threshold * threshold;
}

/** Blends a channel of a translucent pixel over white, as pixelmatch does. */
export function overWhite(channel: number, alpha: number): number {
  return 255 + (channel - 255) * alpha;
}

/** The squared YIQ distance of two opaque colours (Kotsarenko & Ramos). */
export function yiqDistance(r1: number, g1: number, b1: number, r2: number, g2: number, b2: number): number {
  const y = (r1 - r2) * 0.29889531 + (g1 - g2) * 0.58662247 + (b1 - b2) * 0.11448223;
  const iq = (r1 - r2) * 0.59597799 - (g1 - g2) * 0.2741761 - (b1 - b2) * 0.32180189;
  const q = (r1 - r2) * 0.21147017 - (g1 - g2) * 0.52261711 + (b1 - b2) * 0.31114694;
  return 0.5053 * y * y + 0.299 * iq * iq + 0.1957 * q * q;
}

/**
 * The squared YIQ distance of two pixels, the metric pixelmatch and Playwright's toHaveScreenshot
 * compare against `maxColourDelta(threshold)`: same formula, so "within tolerance" means the same
 * thing to the row alignment as to the pixel comparison.
 */
export function colourDelta(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  let r1 = a[i],
    g1 = a[i + 1],
    b1 = a[i + 2];
  let r2 = b[j],
    g2 = b[j + 1],
    b2 = b[j + 2];
  const a1 = a[i + 3],
    a2 = b[j + 3];
  if (a1 < 255) {
    r1 = overWhite(r1, a1 / 255);
    g1 = overWhite(g1, a1 / 255);
    b1 = overWhite(b1, a1 / 255);
  }
  if (a2 < 255) {
    r2 = overWhite(r2, a2 / 255);
    g2 = overWhite(g2, a2 / 255);
    b2 = overWhite(b2, a2 / 255);
  }
  return yiqDistance(r1, g1, b1, r2, g2, b2);
}

/** The image's pixels as one 32-bit word each, for whole-pixel equality tests. */
export function words(image: RgbaImage): Uint32Array {
  return new Uint32Array(image.data.buffer, image.data.byteOffset, image.width * image.height);
}
