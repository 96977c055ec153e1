import fs from 'node:fs';
import path from 'node:path';
import { outputPath } from '../../src/config/paths';

/** A run lock as another run left it in an output folder: the lock folder with one record (an object, or raw text). Returns the record's file. */
export function writeRunLock(outputDir: string, record: object | string): string {
  const lock = outputPath(outputDir, 'lock');
  fs.mkdirSync(lock, { recursive: true });
  const file = path.join(lock, 'earlier-run.json');
  fs.writeFileSync(file, typeof record === 'string' ? record : JSON.stringify(record));
  return file;
}

/** The records an output folder's run lock holds. */
export function lockRecords(outputDir: string): { pid: number; processStart?: string | null }[] {
  const lock = outputPath(outputDir, 'lock');
  return fs.readdirSync(lock).map((name) => JSON.parse(fs.readFileSync(path.join(lock, name), 'utf8')));
}
