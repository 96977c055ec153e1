import type { Region } from '../types';

/**
 * An image's pixels as RGBA words, decoded by sharp, loaded here on first use: every worker loads
 * capture/, and only a capture that never settled decodes (sharp's load was about 90 ms of a
 * worker's start).
 */
async function pixels(png: Buffer): Promise<{ width: number; height: number; words: Uint32Array }> {
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  // Words need a 4-byte aligned start: a copy when sharp's buffer does not have one.
  const bytes = data.byteOffset % 4 === 0 ? data : new Uint8Array(data);
  return { width: info.width, height: info.height, words: new Uint32Array(bytes.buffer, bytes.byteOffset, info.width * info.height) };
}

/**
 * Where a capture that never settled still changed: the box around the pixels that differ between
 * its last two captures (CSS pixels, as captured with `scale: 'css'`), or the whole image when its
 * size changed. Decoded only for a capture that timed out, so a settled one costs nothing.
 */
export async function unsettledArea(previous: Buffer, last: Buffer): Promise<Region> {
  const [a, b] = await Promise.all([pixels(previous), pixels(last)]);
  if (a.width !== b.width || a.height !== b.height) return { x: 0, y: 0, width: b.width, height: b.height };
  const [left, right] = [a.words, b.words];
  let [minX, minY, maxX, maxY] = [b.width, b.height, -1, -1];
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      const i = y * b.width + x;
      if (left[i] === right[i]) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  // Two byte-different encodings of the same pixels: nothing to point at but the image.
  if (maxX === -1) return { x: 0, y: 0, width: b.width, height: b.height };
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}
