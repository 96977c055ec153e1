import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileAtCommit, type Repo } from '../git';

const LOCKFILES: { file: string; install: string[] }[] = [
  { file: 'package-lock.json', install: ['npm', 'ci', '--no-audit', '--no-fund'] },
  { file: 'npm-shrinkwrap.json', install: ['npm', 'ci', '--no-audit', '--no-fund'] },
  { file: 'pnpm-lock.yaml', install: ['pnpm', 'install', '--frozen-lockfile'] },
  { file: 'yarn.lock', install: ['yarn', 'install', '--frozen-lockfile'] },
  { file: 'bun.lock', install: ['bun', 'install', '--frozen-lockfile'] },
];

/** The folder of the package that owns the config: the nearest package.json at or above it, inside the repo. */
function packageDir(repoRoot: string, configDir: string): string {
  for (let dir = configDir; dir.startsWith(repoRoot); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === repoRoot) break;
  }
  return repoRoot;
}

export interface DependencyPlan {
  how: 'linked' | 'installed' | 'none';
  detail: string;
}

/**
 * Makes the base worktree's dependencies available. An unchanged lockfile means the current
 * node_modules serves both versions: a symlink costs nothing. A changed one is installed with the
 * lockfile's package manager, in the worktree only.
 */
export async function provideDependencies(repo: Repo, worktree: string, configDir: string, baseCommit: string): Promise<DependencyPlan> {
  const pkgDir = packageDir(repo.root, configDir);
  const relative = path.relative(repo.root, pkgDir);
  const currentModules = path.join(pkgDir, 'node_modules');
  const baseModules = path.join(worktree, relative, 'node_modules');
  if (!fs.existsSync(currentModules)) return { how: 'none', detail: 'no node_modules beside the config' };
  for (const lock of LOCKFILES) {
    const currentPath = path.join(pkgDir, lock.file);
    const current = fs.existsSync(currentPath) ? fs.readFileSync(currentPath, 'utf8') : null;
    const base = await fileAtCommit(repo, baseCommit, path.posix.join(relative.split(path.sep).join('/'), lock.file));
    if (current === base) continue;
    if (base === null) break;
    const [command, ...args] = lock.install;
    const install = spawnSync(command, args, { cwd: path.dirname(baseModules), encoding: 'utf8', stdio: 'pipe' });
    if (install.status !== 0)
      throw new Error(`visual-uat: ${lock.install.join(' ')} failed in the base worktree (${(install.stderr || install.error?.message || '').trim().split('\n').pop()}): check that the base commit's ${lock.file} installs`);
    return { how: 'installed', detail: `${lock.file} differs from the base: ran ${lock.install.join(' ')}` };
  }
  if (!fs.existsSync(baseModules)) fs.symlinkSync(currentModules, baseModules, 'dir');
  return { how: 'linked', detail: 'lockfile unchanged: node_modules linked' };
}
