import crypto from 'node:crypto';
import fs from 'node:fs';

/** SHA-256 of a file's bytes, hex. */
export function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Bytes named by their size and SHA-256: equal names, equal bytes. */
export function bytesIdentity(bytes: Buffer): string {
  return `${bytes.length}:${crypto.createHash('sha256').update(bytes).digest('hex')}`;
}
