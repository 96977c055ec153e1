import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, provideModules } from '../../scripts/fixture-repo';

/**
 * A fresh clone of `repo` on `branch`: another machine. A fixture that ignores node_modules gets
 * `modules` (an install, see fixtureModules) as that machine's `npm ci` would.
 */
export function cloneOn(repo: string, branch: string, modules?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-clone-'));
  git(os.tmpdir(), ['clone', '-q', repo, dir]);
  git(dir, ['checkout', '-q', branch]);
  git(dir, ['config', 'user.name', 'Visual UAT Fixture']);
  git(dir, ['config', 'user.email', 'fixture@visual-uat.test']);
  if (modules) provideModules(dir, modules);
  return dir;
}
