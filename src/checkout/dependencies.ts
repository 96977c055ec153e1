import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileAtCommit, type Repo } from '../git';
import { lockfileCovers } from './lockfile';

const LOCKFILES: { file: string; install: string[] }[] = [
  { file: 'package-lock.json', install: ['npm', 'ci', '--no-audit', '--no-fund'] },
  { file: 'npm-shrinkwrap.json', install: ['npm', 'ci', '--no-audit', '--no-fund'] },
  { file: 'pnpm-lock.yaml', install: ['pnpm', 'install', '--frozen-lockfile'] },
  { file: 'yarn.lock', install: ['yarn', 'install', '--frozen-lockfile'] },
  { file: 'bun.lock', install: ['bun', 'install', '--frozen-lockfile'] },
];

/** Caches tools keep inside node_modules (Vite's pre-bundled deps, babel-loader's): each app keeps its own. */
const CACHE_FOLDERS = ['.vite', '.cache'];

/** The folder of the package that owns the config: the nearest package.json at or above it, inside the repo. */
function packageDir(repoRoot: string, configDir: string): string {
  for (let dir = configDir; dir.startsWith(repoRoot); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === repoRoot) break;
  }
  return repoRoot;
}

export interface DependencyPlan {
  how: 'hard-linked' | 'linked' | 'installed' | 'none';
  /** One line for the log: what was done, why, and how long it took. */
  detail: string;
}

/**
 * The current node_modules as a tree of hard links inside the worktree: a real folder, so dev
 * servers that refuse files outside their root (Vite's server.fs.allow resolves real paths) serve
 * the base's dependencies, and nearly free, since no file is copied. Where hard links cannot be
 * made (another file system, no `cp -l`), a symbolic link to the folder.
 */
function shareModules(currentModules: string, baseModules: string): 'hard-linked' | 'linked' {
  const copied = process.platform === 'win32' ? null : spawnSync('cp', ['-al', currentModules, baseModules], { stdio: 'ignore' });
  if (copied?.status === 0) {
    for (const cache of CACHE_FOLDERS) fs.rmSync(path.join(baseModules, cache), { recursive: true, force: true });
    return 'hard-linked';
  }
  fs.rmSync(baseModules, { recursive: true, force: true });
  fs.symlinkSync(currentModules, baseModules, 'dir');
  return 'linked';
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * Makes the base worktree's dependencies available. An unchanged lockfile means the current
 * node_modules serves both versions: shared by hard links, it costs next to nothing. A changed
 * one is installed with the lockfile's package manager, in the worktree only.
 */
export async function provideDependencies(repo: Repo, worktree: string, configDir: string, baseCommit: string): Promise<DependencyPlan> {
  const started = Date.now();
  const pkgDir = packageDir(repo.root, configDir);
  const relative = path.relative(repo.root, pkgDir);
  const currentModules = path.join(pkgDir, 'node_modules');
  const baseModules = path.join(worktree, relative, 'node_modules');
  if (!fs.existsSync(currentModules)) return { how: 'none', detail: 'no node_modules beside the config: nothing to share' };
  for (const lock of LOCKFILES) {
    const currentPath = path.join(pkgDir, lock.file);
    const current = fs.existsSync(currentPath) ? fs.readFileSync(currentPath, 'utf8') : null;
    const base = await fileAtCommit(repo, baseCommit, path.posix.join(relative.split(path.sep).join('/'), lock.file));
    if (current === base) continue;
    if (base === null) break;
    if (current !== null && lockfileCovers(lock.file, current, base)) {
      const how = fs.existsSync(baseModules) ? 'linked' : shareModules(currentModules, baseModules);
      return {
        how,
        detail:
          `${lock.file} differs from the base's only by packages it adds: ` +
          `the current node_modules serves the base (${how}, ${seconds(started)})`,
      };
    }
    const [command, ...args] = lock.install;
    const install = spawnSync(command, args, { cwd: path.dirname(baseModules), encoding: 'utf8', stdio: 'pipe' });
    if ((install.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
      throw new Error(
        `visual-uat: the base commit's ${lock.file} differs from the current one, so its dependencies are installed ` +
          `with ${command} in the base worktree, and ${command} is not on PATH: install ${command} and run again`,
      );
    if (install.status !== 0)
      throw new Error(
        `visual-uat: ${lock.install.join(' ')} failed in the base worktree ` +
          `(${(install.stderr || install.error?.message || '').trim().split('\n').pop()}): ` +
          `check that the base commit's ${lock.file} installs`,
      );
    return {
      how: 'installed',
      detail: `${lock.file} differs from the base's: ${lock.install.join(' ')} in the base worktree took ${seconds(started)}`,
    };
  }
  if (fs.existsSync(baseModules)) return { how: 'linked', detail: 'node_modules of the kept worktree reused' };
  const how = shareModules(currentModules, baseModules);
  return {
    how,
    detail:
      `lockfile unchanged: ` +
      `node_modules ${how === 'hard-linked' ? 'hard-linked' : 'symlinked'} into the base worktree in ${seconds(started)}`,
  };
}
