import { PNG } from 'pngjs';
import type { Region } from '../types';

/**
 * Where a capture that never settled still changed: the box around the pixels that differ between
 * its last two captures (CSS pixels, as captured with `scale: 'css'`), or the whole image when its
 * size changed. Decoded only for a capture that timed out, so a settled one costs nothing.
 */
export function unsettledArea(previous: Buffer, last: Buffer): Region {
  const a = PNG.sync.read(previous);
  const b = PNG.sync.read(last);
  if (a.width !== b.width || a.height !== b.height) return { x: 0, y: 0, width: b.width, height: b.height };
  const words = (png: PNG) => new Uint32Array(png.data.buffer, png.data.byteOffset, png.width * png.height);
  const [left, right] = [words(a), words(b)];
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
