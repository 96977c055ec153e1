import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import sharp from 'sharp';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  rgba: [number, number, number, number];
}

/** Writes a white PNG with coloured boxes on it. */
export function writePng(file: string, width: number, height: number, boxes: Box[] = []): string {
  const png = new PNG({ width, height });
  png.data.fill(255);
  for (const box of boxes)
    for (let y = box.y; y < Math.min(height, box.y + box.height); y++)
      for (let x = box.x; x < Math.min(width, box.x + box.width); x++) png.data.set(box.rgba, (y * width + x) * 4);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, PNG.sync.write(png));
  return file;
}

/** The format and size of an image sent as a data URL (decoded by sharp, as the product encodes it). */
export async function dataUrlImage(url: string): Promise<{ format: string; width: number; height: number; bytes: number }> {
  const prefix = 'data:image/webp;base64,';
  if (!url.startsWith(prefix)) throw new Error(`not a WebP data URL: ${url.slice(0, 40)}`);
  const bytes = Buffer.from(url.slice(prefix.length), 'base64');
  const { format = '', width = 0, height = 0 } = await sharp(bytes).metadata();
  return { format, width, height, bytes: bytes.length };
}

/** A deterministic pseudo-random sequence (mulberry32): noise that is the same on every test run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `writePng`, then rendering noise: each pixel of the boxes moves by up to `levels` colour levels
 * (the same for its three channels), as a page's anti-aliasing does from one load to the next.
 */
export function writeNoisyPng(file: string, width: number, height: number, boxes: Box[], seed: number, levels = 3): string {
  writePng(file, width, height, boxes);
  const png = PNG.sync.read(fs.readFileSync(file));
  const random = seeded(seed);
  for (const box of boxes)
    for (let y = box.y; y < Math.min(height, box.y + box.height); y++)
      for (let x = box.x; x < Math.min(width, box.x + box.width); x++) {
        const jitter = Math.round((random() * 2 - 1) * levels);
        const i = (y * width + x) * 4;
        for (let c = 0; c < 3; c++) png.data[i + c] = Math.max(0, Math.min(255, png.data[i + c] + jitter));
      }
  fs.writeFileSync(file, PNG.sync.write(png));
  return file;
}
