import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { git } from '../../scripts/fixture-repo';

/** Everything of a user's repository that a run must leave byte-identical. */
export interface RepoState {
  head: string;
  branch: string;
  status: string;
  index: string;
  stash: string;
  worktrees: string;
  files: string;
}

function hashTrackedAndUntracked(dir: string): string {
  const hash = crypto.createHash('sha256');
  const listed = git(dir, ['ls-files', '--cached', '--others', '--exclude-standard', '-z']).split('\0').filter(Boolean).sort();
  for (const file of listed) {
    const full = path.join(dir, file);
    hash.update(file);
    if (fs.existsSync(full)) hash.update(fs.readFileSync(full));
  }
  return hash.digest('hex');
}

export function repoState(dir: string): RepoState {
  return {
    head: git(dir, ['rev-parse', 'HEAD']),
    branch: git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']),
    status: git(dir, ['status', '--porcelain=v2', '--untracked-files=all']),
    index: crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(dir, '.git', 'index')))
      .digest('hex'),
    stash: git(dir, ['stash', 'list', '--format=%H %s']),
    worktrees: git(dir, ['worktree', 'list', '--porcelain']),
    files: hashTrackedAndUntracked(dir),
  };
}

/** A user's work in progress: an untracked file, a staged edit, and a stash entry. */
export function addWorkInProgress(dir: string): void {
  fs.writeFileSync(path.join(dir, 'NOTES.md'), 'work in progress\n');
  fs.writeFileSync(path.join(dir, 'stashed.txt'), 'stashed\n');
  git(dir, ['add', 'stashed.txt']);
  git(dir, ['stash', 'push', '-q', '-m', 'user stash', '--', 'stashed.txt']);
  fs.appendFileSync(path.join(dir, 'package.json'), '\n');
  git(dir, ['add', 'package.json']);
}

/** The worktrees git knows besides the repository itself (a run must leave none). */
export function extraWorktrees(dir: string): string[] {
  return git(dir, ['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .filter((worktree) => fs.realpathSync(worktree) !== fs.realpathSync(dir));
}
