import fs from 'node:fs';
import path from 'node:path';

/** Temp file + rename: a crash leaves the old file or the new one, never half of either. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, file);
}

export function readJsonFile<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** `EACCES`, `EROFS`, `ENOSPC`…: what a line about a failed file operation names; the message of an error that has no code. */
export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** Whether a path is a folder or lies inside it (both absolute). */
export function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** The folders in `dir` (none when it is not a folder). */
export function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * A hard link of `from` at `to` (replacing what is there, unless it is that link already), or a
 * copy where links cannot be made (another file system).
 */
export function linkOrCopy(from: string, to: string): void {
  const there = fs.statSync(to, { throwIfNoEntry: false });
  if (there) {
    const source = fs.statSync(from);
    if (there.ino === source.ino && there.dev === source.dev) return;
    fs.rmSync(to, { force: true });
  }
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}
