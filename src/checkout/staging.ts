import fs from 'node:fs';
import path from 'node:path';

/**
 * Moves every file under `from` to the same place under `to`, replacing what is there, then
 * removes `from`: what a baseline pass beside the tests wrote outside the project (see config/paths
 * besidePassRoot) reaches the output folder once the tests are done. Across file systems (the
 * temporary folder elsewhere) a file is copied instead.
 */
export function moveTree(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      moveTree(source, target);
      continue;
    }
    fs.mkdirSync(to, { recursive: true });
    try {
      fs.renameSync(source, target);
    } catch {
      fs.copyFileSync(source, target);
    }
  }
  fs.rmSync(from, { recursive: true, force: true });
}
