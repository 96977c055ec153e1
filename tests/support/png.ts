import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

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

export function decodeDataUrl(url: string): PNG {
  const prefix = 'data:image/png;base64,';
  if (!url.startsWith(prefix)) throw new Error(`not a PNG data URL: ${url.slice(0, 40)}`);
  return PNG.sync.read(Buffer.from(url.slice(prefix.length), 'base64'));
}
