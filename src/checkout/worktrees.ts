import fs from 'node:fs';
import path from 'node:path';
import { worktreeHomes } from '../config/paths';
import { removeWorktree, type Repo } from '../git';

/**
 * Where the base worktree goes. Not inside the project: a dev server started before the baseline
 * pass watches the project (Vite does), sees the worktree's files appear (a tsconfig.json, HTML
 * pages) and reloads the pages open on it, the current tests' among them ("Execution context was
 * destroyed" in the middle of a mount). The temporary folder is outside every project, but its
 * node_modules must be hard links of the current one (a symlink resolves outside the worktree,
 * where dev servers refuse to serve files), and hard links need one file system: where the
 * temporary folder is on another, the worktree stays in the output folder.
 */
export function worktreesHome(outputDir: string, repoRoot: string): string {
  const { outside, inside } = worktreeHomes(outputDir);
  try {
    fs.mkdirSync(outside, { recursive: true });
    if (fs.statSync(outside).dev === fs.statSync(repoRoot).dev) return outside;
  } catch {
    // An unwritable temporary folder: the output folder it is.
  }
  return inside;
}

/** Removes the worktrees in `dir` but the one named `keep`, unregistering each from git first; `removing` hears each name. */
export async function removeWorktreesIn(
  repo: Repo,
  dir: string,
  keep: string | null = null,
  removing: (name: string) => void = () => {},
): Promise<void> {
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) {
    if (name === keep) continue;
    removing(name);
    await removeWorktree(repo, path.join(dir, name));
  }
}

/**
 * The home (and its parent, <tmp>/visual-uat-worktrees/) once a run leaves nothing in it:
 * worktreesHome makes it on every run, cached or not. A kept worktree keeps it.
 */
export function removeEmptyHome(home: string): void {
  for (const dir of [home, path.dirname(home)]) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // not empty (a kept worktree, another output folder's home), or gone
    }
  }
}
