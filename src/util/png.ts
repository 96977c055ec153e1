import fs from 'node:fs';

export interface Size {
  width: number;
  height: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HEADER_BYTES = 24;

/** Width and height from a PNG's IHDR chunk, without decoding; null when the bytes are not a PNG. */
export function pngSize(bytes: Buffer): Size | null {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The size of a PNG file, reading only its header. */
export function pngFileSize(file: string): Size {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    fs.closeSync(fd);
  }
  const size = pngSize(header);
  if (!size) throw new Error(`${file} is not a PNG image`);
  return size;
}
