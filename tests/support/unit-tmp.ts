import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The unit tests' temporary folders (repositories, stores, corpora: thousands per run) go under
 * one folder of this run, removed when it ends, instead of piling up in the temporary folder.
 * The workers start after this and inherit TMPDIR, which os.tmpdir() reads.
 */
export default function unitTmp(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-unit-'));
  process.env.TMPDIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
