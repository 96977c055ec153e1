import fs from 'node:fs';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import type { CodeChange } from '../types';
import { COMMIT_MARK, parseDiff } from './diff';

/** Every git call goes through simple-git with argv arrays: a branch name never meets a shell. */

export class SetupError extends Error {}

export interface Repo {
  git: SimpleGit;
  root: string;
}

export interface BaseResolution {
  branch: string;
  ref: string;
  commit: string;
}

export interface WorkingState {
  branch: string | null;
  commit: string;
  dirty: boolean;
}

export async function openRepo(dir: string): Promise<Repo> {
  const git = simpleGit({ baseDir: dir });
  let root: string;
  try {
    root = (await git.revparse(['--show-toplevel'])).trim();
  } catch {
    throw new SetupError(`visual-uat: ${dir} is not inside a git repository: run it from a git checkout (git init, or clone the project)`);
  }
  try {
    await git.revparse(['--verify', 'HEAD']);
  } catch {
    throw new SetupError('visual-uat: the repository has no commit yet: commit the base version first');
  }
  return { git: simpleGit({ baseDir: root }), root: fs.realpathSync(root) };
}

async function refExists(git: SimpleGit, ref: string): Promise<boolean> {
  try {
    await git.raw(['rev-parse', '--verify', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

async function candidateRefs(git: SimpleGit, branch: string): Promise<string | null> {
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`, branch]) {
    if (await refExists(git, ref)) return ref;
  }
  return null;
}

/** The base is the merge-base of HEAD and the base branch (local branch first, else origin/<branch>). */
export async function resolveBase(repo: Repo, baseBranch: string | null): Promise<BaseResolution> {
  const { git } = repo;
  let branch = baseBranch;
  let ref: string | null = null;
  if (branch) {
    ref = await candidateRefs(git, branch);
    if (!ref)
      throw new SetupError(
        `visual-uat: base branch "${branch}" not found (no local branch, no origin/${branch}): set baseBranch in withVisualUat or VISUAL_UAT_BASE, or fetch it (git fetch origin ${branch})`,
      );
  } else {
    for (const name of ['main', 'master']) {
      ref = await candidateRefs(git, name);
      if (ref) {
        branch = name;
        break;
      }
    }
    if (!ref || !branch)
      throw new SetupError('visual-uat: no base branch found (neither main nor master exists): set baseBranch in withVisualUat or VISUAL_UAT_BASE');
  }
  // `git merge-base` answers "none" with exit code 1 and no output, which simple-git does not treat as an error.
  const commit = (await git.raw(['merge-base', 'HEAD', ref]).catch(() => '')).trim();
  if (!commit) {
    const shallow = (await git.revparse(['--is-shallow-repository']).catch(() => 'false')).trim() === 'true';
    if (shallow)
      throw new SetupError(
        `visual-uat: this is a shallow clone without the merge-base of HEAD and ${branch}: run git fetch --unshallow (in GitHub Actions: actions/checkout with fetch-depth: 0)`,
      );
    throw new SetupError(`visual-uat: HEAD and ${branch} share no history: set baseBranch or VISUAL_UAT_BASE to a branch this one grew from`);
  }
  return { branch, ref, commit };
}

export async function workingState(repo: Repo): Promise<WorkingState> {
  const commit = (await repo.git.revparse(['HEAD'])).trim();
  const branchRaw = (await repo.git.raw(['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
  const status = await repo.git.raw(['status', '--porcelain', '--untracked-files=normal']);
  return { branch: branchRaw === 'HEAD' ? null : branchRaw, commit, dirty: status.trim().length > 0 };
}

const HISTORY_LIMIT = 50;
/** How many changed files the run's context keeps (the evaluator's prompt, the results, labels). */
export const CHANGED_FILES_LIMIT = 200;

/** Subjects of the commits from base to HEAD, newest first. */
export async function commitSubjects(repo: Repo, baseCommit: string): Promise<string[]> {
  const out = await repo.git.raw(['log', '--format=%h %s', `--max-count=${HISTORY_LIMIT}`, `${baseCommit}..HEAD`]);
  return out.split('\n').filter(Boolean);
}

/** What differs between base and the working tree (tracked and untracked), as `<status> <path>` lines, all of them. */
export async function changedFiles(repo: Repo, baseCommit: string): Promise<string[]> {
  const tracked = await repo.git.raw(['diff', '--name-status', '--no-renames', baseCommit]);
  const untracked = await repo.git.raw(['ls-files', '--others', '--exclude-standard']);
  const lines = [
    ...tracked.split('\n').filter(Boolean).map((line) => line.replace('\t', ' ')),
    ...untracked.split('\n').filter(Boolean).map((file) => `A ${file}`),
  ];
  return lines;
}

async function isCleanWorktreeAt(dir: string, commit: string): Promise<boolean> {
  try {
    const worktree = simpleGit({ baseDir: dir });
    if (fs.realpathSync((await worktree.revparse(['--show-toplevel'])).trim()) !== fs.realpathSync(dir)) return false;
    if ((await worktree.revparse(['HEAD'])).trim() !== commit) return false;
    // Untracked files (a node_modules link, a build folder) are the previous pass's own; tracked edits are not.
    return (await worktree.raw(['status', '--porcelain', '--untracked-files=no'])).trim() === '';
  } catch {
    return false;
  }
}

/**
 * A detached worktree of `commit` at `dir`, with its own index: the user's index is never shared.
 * One left by an earlier run (keepWorktrees, or a killed run) is reused when it is clean and at
 * `commit`; anything else there is removed first.
 */
export async function provideWorktree(repo: Repo, dir: string, commit: string): Promise<'reused' | 'created'> {
  await repo.git.raw(['worktree', 'prune']);
  if (fs.existsSync(dir)) {
    if (await isCleanWorktreeAt(dir, commit)) return 'reused';
    await removeWorktree(repo, dir);
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await repo.git.raw(['worktree', 'add', '--detach', '--force', dir, commit]);
  return 'created';
}

export async function removeWorktree(repo: Repo, dir: string): Promise<void> {
  try {
    await repo.git.raw(['worktree', 'remove', '--force', dir]);
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await repo.git.raw(['worktree', 'prune']);
}

/** Contents of a file at a commit, or null when it does not exist there. */
export async function fileAtCommit(repo: Repo, commit: string, file: string): Promise<string | null> {
  try {
    return await repo.git.show([`${commit}:${file}`]);
  } catch {
    return null;
  }
}

/** Files under `dir` that git tracks or would track (untracked, not ignored), as absolute paths. */
export async function sourceFilesUnder(repo: Repo, dir: string): Promise<string[]> {
  const relative = path.relative(repo.root, fs.existsSync(dir) ? fs.realpathSync(dir) : dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return [];
  const out = await repo.git.raw(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', relative || '.']);
  return [...new Set(out.split('\0').filter(Boolean))].map((file) => path.join(repo.root, file));
}

/** Lines of context around each change: enough to show the rule a changed declaration sits in. */
const DIFF_CONTEXT = 40;
/** What the diffs of a run may weigh: a vendored bundle among the changed files must not fill memory. */
const DIFF_LIMIT_BYTES = 4 * 1024 * 1024;
const UNTRACKED_LIMIT_BYTES = 256 * 1024;

/**
 * What each commit from base to HEAD, then the working tree, changed in `files` (paths from the
 * repository's root), oldest first: the explanation's attribution reads it (explain/attribute).
 */
export async function codeChanges(repo: Repo, baseCommit: string, files: readonly string[]): Promise<CodeChange[]> {
  if (files.length === 0) return [];
  const log = await repo.git.raw(['log', '--reverse', '--no-color', '--no-renames', `--format=${COMMIT_MARK}%h %s`, '-p', `-U${DIFF_CONTEXT}`, `${baseCommit}..HEAD`, '--', ...files]);
  const uncommitted = await repo.git.raw(['diff', '--no-color', '--no-renames', `-U${DIFF_CONTEXT}`, 'HEAD', '--', ...files]);
  const untracked = (await repo.git.raw(['ls-files', '--others', '--exclude-standard', '--', ...files])).split('\n').filter(Boolean);
  const added = untracked.flatMap((file): CodeChange[] => {
    const full = path.join(repo.root, file);
    if (!fs.existsSync(full) || fs.statSync(full).size > UNTRACKED_LIMIT_BYTES) return [];
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    return parseDiff([`diff --git a/${file} b/${file}`, '@@', ...lines.map((line) => `+${line}`)].join('\n'));
  });
  return [...parseDiff(log.slice(0, DIFF_LIMIT_BYTES)), ...parseDiff(uncommitted.slice(0, DIFF_LIMIT_BYTES)), ...added];
}
