import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile } from './fs';

/** visual-uat's package.json: what a message names of the package itself (its version, the Playwright it needs). */
export interface OwnManifest {
  version: string;
  peerDependencies: Record<string, string>;
}

function packageRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name === 'visual-uat') return dir;
    } catch {
      // No package.json here: keep going up.
    }
  }
  return path.resolve(from, '..', '..');
}

/** This package's folder, as Node loaded it (a real path, also under pnpm's symlinked layout; src/ under vitest, dist/ when installed). */
export const OWN_ROOT = packageRoot(__dirname);

export function ownManifest(): OwnManifest | null {
  return readJsonFile<OwnManifest>(path.join(OWN_ROOT, 'package.json'));
}
