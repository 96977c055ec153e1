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
  fs.mkdirSync(path.dirname(baseModules), { recursive: true });
  const copied = process.platform === 'win32' ? null : spawnSync('cp', ['-al', currentModules, baseModules], { stdio: 'ignore' });
  if (copied?.status === 0) {
    for (const cache of CACHE_FOLDERS) fs.rmSync(path.join(baseModules, cache), { recursive: true, force: true });
    return 'hard-linked';
  }
  fs.rmSync(baseModules, { recursive: true, force: true });
  fs.symlinkSync(currentModules, baseModules, 'dir');
  return 'linked';
}

/**
 * The folder whose lockfile installs the config's package: the nearest at or above it with one (a
 * workspace keeps a single lockfile at its root), else the package's own.
 */
function lockfileDir(repoRoot: string, pkgDir: string): string {
  for (let dir = pkgDir; dir.startsWith(repoRoot); dir = path.dirname(dir)) {
    if (LOCKFILES.some((lock) => fs.existsSync(path.join(dir, lock.file)))) return dir;
    if (dir === repoRoot) break;
  }
  return pkgDir;
}

/**
 * The node_modules folders the base app needs, relative to the lockfile's folder: the config's
 * package's first, that folder's own, and in a workspace every package's (pnpm links each one's
 * into the root's `.pnpm` by relative paths; a server of another package resolves from its own).
 */
function moduleFolders(root: string, pkgDir: string): string[] {
  const folders = [pkgDir, root];
  const manifest = path.join(root, 'package.json');
  const workspace =
    fs.existsSync(path.join(root, 'pnpm-workspace.yaml')) ||
    (fs.existsSync(manifest) && 'workspaces' in JSON.parse(fs.readFileSync(manifest, 'utf8')));
  const walk = (dir: string, depth: number): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      folders.push(path.join(dir, entry.name));
      if (depth > 1) walk(path.join(dir, entry.name), depth - 1);
    }
  };
  if (workspace) walk(root, 3);
  const found = folders
    .filter((dir) => fs.existsSync(path.join(dir, 'node_modules')))
    .map((dir) => path.relative(root, path.join(dir, 'node_modules')));
  return [...new Set(found)];
}

/** Every folder of `moduleFolders` shared into the worktree at the same place, so relative links between them hold. */
function shareAll(root: string, baseRoot: string, folders: readonly string[]): 'hard-linked' | 'linked' {
  const ways = folders.map((folder) => shareModules(path.join(root, folder), path.join(baseRoot, folder)));
  return ways.every((way) => way === 'hard-linked') ? 'hard-linked' : 'linked';
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
  const root = lockfileDir(repo.root, pkgDir);
  const relative = path.relative(repo.root, root);
  const baseRoot = path.join(worktree, relative);
  const folders = moduleFolders(root, pkgDir);
  if (!folders.length) return { how: 'none', detail: 'no node_modules beside the config: nothing to share' };
  const kept = fs.existsSync(path.join(baseRoot, folders[0]));
  for (const lock of LOCKFILES) {
    const currentPath = path.join(root, lock.file);
    const current = fs.existsSync(currentPath) ? fs.readFileSync(currentPath, 'utf8') : null;
    const base = await fileAtCommit(repo, baseCommit, path.posix.join(relative.split(path.sep).join('/'), lock.file));
    if (current === base) continue;
    if (base === null) break;
    if (current !== null && lockfileCovers(lock.file, current, base)) {
      const how = kept ? 'linked' : shareAll(root, baseRoot, folders);
      return {
        how,
        detail:
          `${lock.file} differs from the base's only by packages it adds: ` +
          `the current node_modules serves the base (${how}, ${seconds(started)})`,
      };
    }
    const [command, ...args] = lock.install;
    const install = spawnSync(command, args, { cwd: baseRoot, encoding: 'utf8', stdio: 'pipe' });
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
  if (kept) return { how: 'linked', detail: 'node_modules of the kept worktree reused' };
  const how = shareAll(root, baseRoot, folders);
  return {
    how,
    detail:
      `lockfile unchanged: ` +
      `node_modules ${how === 'hard-linked' ? 'hard-linked' : 'symlinked'} into the base worktree in ${seconds(started)}`,
  };
}
