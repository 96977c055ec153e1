import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeChange } from './code-change';
import { COMMIT_MARK, parseDiff } from './diff';
import { readSource } from './source-lines';
import { ENV } from '../config/environment';
import { SetupError } from '../util/errors';

/** Every git call is `git` with an argv array, never a shell: a branch name is never interpreted. */

export interface Repo {
  root: string;
}

/** Large enough for `ls-files` and `diff --name-status` of a big monorepo. */
const GIT_OUTPUT_LIMIT = 256 * 1024 * 1024;

/**
 * Runs git in `cwd` and returns its stdout; rejects on a non-zero exit with git's own message.
 * With `timeoutMs` (a call that may reach a remote), git runs in a session of its own: neither it
 * nor the ssh it starts has a terminal to ask for a password or a host key on, and when the time
 * is up the whole session is killed and the call rejects.
 */
export function runGit(cwd: string, args: string[], bound?: { timeoutMs: number }): Promise<string> {
  if (bound) return runGitBounded(cwd, args, bound.timeoutMs);
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: GIT_OUTPUT_LIMIT }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args[0]} failed: ${stderr.trim() || error.message}`));
      else resolve(stdout);
    });
  });
}

function runGitBounded(cwd: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // Process groups are POSIX; on Windows git runs as a plain child and the timeout kills it alone.
    const ownSession = process.platform !== 'win32';
    const child = spawn('git', args, {
      cwd,
      detached: ownSession,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...ENV.gitTerminalPrompt.entry('0') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      try {
        if (ownSession && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Gone already.
      }
      // A grandchild that kept the pipes open must not keep the call, or the run, waiting.
      child.stdout.destroy();
      child.stderr.destroy();
      reject(new Error(`git ${args[0]} gave no answer in ${timeoutMs / 1000}s`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`git ${args[0]} failed: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`git ${args[0]} failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}

export interface WorkingState {
  branch: string | null;
  commit: string;
  dirty: boolean;
}

/** The repository `dir` is in, with a commit at HEAD: one git call (a second only to say which of the two is missing). */
export async function openRepo(dir: string): Promise<Repo> {
  try {
    const [root] = (await runGit(dir, ['rev-parse', '--show-toplevel', '--verify', 'HEAD'])).split('\n');
    return { root: fs.realpathSync(root.trim()) };
  } catch {
    const inRepository = await runGit(dir, ['rev-parse', '--show-toplevel']).then(
      () => true,
      () => false,
    );
    if (!inRepository)
      throw new SetupError(
        `visual-uat: ${dir} is not inside a git repository: run it from a git checkout (git init, or clone the project)`,
      );
    throw new SetupError('visual-uat: the repository has no commit yet: commit the base version first');
  }
}

/**
 * What Playwright writes by default (its output folder, HTML report, blobs): untracked in a project whose .gitignore does not
 * list them (one that wrote its config by hand), and never a change of the project: a tree holding only them is clean, or the
 * second run on main would compare "uncommitted changes" and `visual-uat record` would refuse the commit.
 */
export const PLAYWRIGHT_OUTPUT = /(^|\/)(test-results|playwright-report|blob-report)\//;

/**
 * HEAD's commit and branch, and whether the tree differs from it: `git status` with its branch header, and the untracked files (see
 * untrackedFiles).
 */
export async function workingState(repo: Repo): Promise<WorkingState> {
  const status = (await runGit(repo.root, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=no']))
    .split('\0')
    .filter(Boolean);
  const header = (name: string) => status.find((line) => line.startsWith(`# branch.${name} `))?.slice(`# branch.${name} `.length) ?? '';
  const branch = header('head');
  const tracked = status.some((line) => !line.startsWith('#'));
  return {
    branch: branch === '(detached)' ? null : branch,
    commit: header('oid'),
    dirty: tracked || (await untrackedFiles(repo)).length > 0,
  };
}

const untrackedByRepo = new WeakMap<Repo, Promise<string[]>>();

/**
 * The files git would track but does not (untracked, not ignored), from the repository's root, Playwright's outputs left out:
 * asked once per opened repository, since the working state and the changed files both need them.
 */
function untrackedFiles(repo: Repo): Promise<string[]> {
  let files = untrackedByRepo.get(repo);
  if (!files) {
    files = runGit(repo.root, ['ls-files', '-z', '--others', '--exclude-standard']).then((out) =>
      out.split('\0').filter((file) => file && !PLAYWRIGHT_OUTPUT.test(file)),
    );
    untrackedByRepo.set(repo, files);
  }
  return files;
}

const HISTORY_LIMIT = 50;
/** How many changed files the run's context keeps (the evaluator's prompt, the results, labels). */
export const CHANGED_FILES_LIMIT = 200;

/** Subjects of the commits from base to HEAD, newest first. */
export async function commitSubjects(repo: Repo, baseCommit: string): Promise<string[]> {
  const out = await runGit(repo.root, ['log', '--format=%h %s', `--max-count=${HISTORY_LIMIT}`, `${baseCommit}..HEAD`]);
  return out.split('\n').filter(Boolean);
}

/** What differs between base and the working tree (tracked and untracked), as `<status> <path>` lines, all of them. */
export async function changedFiles(repo: Repo, baseCommit: string): Promise<string[]> {
  // NUL-separated: a path with non-ASCII letters comes back as it is, not quoted and escaped.
  const tracked = (await runGit(repo.root, ['diff', '--name-status', '--no-renames', '-z', baseCommit])).split('\0').filter(Boolean);
  const untracked = await untrackedFiles(repo);
  const lines: string[] = [];
  for (let i = 0; i + 1 < tracked.length; i += 2) lines.push(`${tracked[i]} ${tracked[i + 1]}`);
  return [...lines, ...untracked.map((file) => `A ${file}`)];
}

async function isCleanWorktreeAt(dir: string, commit: string): Promise<boolean> {
  try {
    if (fs.realpathSync((await runGit(dir, ['rev-parse', '--show-toplevel'])).trim()) !== fs.realpathSync(dir)) return false;
    if ((await runGit(dir, ['rev-parse', 'HEAD'])).trim() !== commit) return false;
    // Untracked files (a node_modules link, a build folder) are the previous pass's own; tracked edits are not.
    return (await runGit(dir, ['status', '--porcelain', '--untracked-files=no'])).trim() === '';
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
  await runGit(repo.root, ['worktree', 'prune']);
  if (fs.existsSync(dir)) {
    if (await isCleanWorktreeAt(dir, commit)) return 'reused';
    await removeWorktree(repo, dir);
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await runGit(repo.root, ['worktree', 'add', '--detach', '--force', dir, commit]);
  return 'created';
}

/**
 * Removes a worktree: moved aside into the temporary folder and unregistered at once, its files
 * (a hard-linked node_modules among them: thousands of unlinks, 0.3 s to seconds) deleted by a
 * process of their own that may outlive this one, so the end of a run does not wait for them.
 * One that cannot be moved there (another file system) is removed here.
 */
export async function removeWorktree(repo: Repo, dir: string): Promise<void> {
  const aside = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-removed-'));
  try {
    fs.renameSync(dir, path.join(aside, 'worktree'));
  } catch {
    fs.rmSync(aside, { recursive: true, force: true });
    try {
      await runGit(repo.root, ['worktree', 'remove', '--force', dir]);
    } catch {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  await runGit(repo.root, ['worktree', 'prune']);
  if (!fs.existsSync(aside)) return;
  const deleting = spawn(process.execPath, ['-e', 'require("fs").rmSync(process.argv[1], { recursive: true, force: true })', aside], {
    detached: true,
    stdio: 'ignore',
  });
  deleting.on('error', () => fs.rmSync(aside, { recursive: true, force: true }));
  deleting.unref();
}

/** Contents of a file at a commit, or null when it does not exist there. */
export async function fileAtCommit(repo: Repo, commit: string, file: string): Promise<string | null> {
  try {
    return await runGit(repo.root, ['show', `${commit}:${file}`]);
  } catch {
    return null;
  }
}

/** Files under `dir` that git tracks or would track (untracked, not ignored), as absolute paths. */
export async function sourceFilesUnder(repo: Repo, dir: string): Promise<string[]> {
  const relative = path.relative(repo.root, fs.existsSync(dir) ? fs.realpathSync(dir) : dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return [];
  const out = await runGit(repo.root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', relative || '.']);
  return [...new Set(out.split('\0').filter(Boolean))].map((file) => path.join(repo.root, file));
}

/**
 * Context enough for any source file to come whole in its patch: each side of a change is then the
 * file as it was and became, so the style sheet or template a changed line sits in is parsed from
 * the same `git log` call, with no `git show` per commit and file.
 */
const WHOLE_FILE_CONTEXT = 1_000_000;
/** What the diffs of a run may weigh: past it, the patches are listed unread. */
const DIFF_LIMIT_BYTES = 16 * 1024 * 1024;
/** A changed file larger than this (a vendored bundle) is not read at all: its whole text in every commit would fill the budget. */
const FILE_LIMIT_BYTES = 1024 * 1024;

const sizeOf = (full: string) => (fs.existsSync(full) ? fs.statSync(full).size : 0);

/**
 * What each commit from base to HEAD, then the working tree, changed in `files` (paths from the
 * repository's root), oldest first: the explanation's attribution reads it (explain/attribute).
 * A file too large to read is listed with no lines and why, so no one says it mentions nothing.
 */
export async function codeChanges(repo: Repo, baseCommit: string, files: readonly string[]): Promise<CodeChange[]> {
  if (files.length === 0) return [];
  const large = files.filter((file) => sizeOf(path.join(repo.root, file)) > FILE_LIMIT_BYTES);
  const read = files.filter((file) => !large.includes(file));
  const unread = large.map((file): CodeChange => ({ file, commit: null, lines: [], uses: [], unread: 'is larger than 1 MiB: not read' }));
  if (read.length === 0) return unread;
  const diff = ['--no-color', '--no-renames', `-U${WHOLE_FILE_CONTEXT}`];
  const log = await runGit(repo.root, [
    'log',
    '--reverse',
    ...diff,
    `--format=${COMMIT_MARK}%h %s`,
    '-p',
    `${baseCommit}..HEAD`,
    '--',
    ...read,
  ]);
  const uncommitted = await runGit(repo.root, ['diff', ...diff, 'HEAD', '--', ...read]);
  const untracked = (await runGit(repo.root, ['ls-files', '-z', '--others', '--exclude-standard', '--', ...read]))
    .split('\0')
    .filter(Boolean);
  const added = untracked.flatMap((file): CodeChange[] => {
    const full = path.join(repo.root, file);
    if (!fs.existsSync(full)) return [];
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    return parseDiff([`diff --git a/${file} b/${file}`, '@@', ...lines.map((line) => `+${line}`)].join('\n'));
  });
  const changes = [...parseDiff(log, null, DIFF_LIMIT_BYTES), ...parseDiff(uncommitted, null, DIFF_LIMIT_BYTES), ...added, ...unread];
  return [...changes, ...(await unchangedUses(repo, changes))];
}

const STYLE_SHEET = /\.(css|scss|less|pcss|postcss)$/i;
/** How many unchanged style sheets are read for the uses of a changed variable: past it, a giant repository's are left unread. */
const USES_FILE_LIMIT = 2000;

/**
 * A changed `--token`, `$variable` or mixin shows where it is used, mostly in style sheets the branch
 * did not touch: those (tracked or untracked, not ignored) are read at the working tree for their
 * uses, each as a change with no lines. Read only when a changed line defines one.
 */
async function unchangedUses(repo: Repo, changes: readonly CodeChange[]): Promise<CodeChange[]> {
  const defines = changes.some((change) => change.lines.some((line) => line.target?.kind === 'style' && line.target.defines));
  if (!defines) return [];
  const changed = new Set(changes.map((change) => change.file));
  const listed = await runGit(repo.root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  const sheets = [...new Set(listed.split('\0'))].filter((file) => STYLE_SHEET.test(file) && !changed.has(file)).slice(0, USES_FILE_LIMIT);
  return sheets.flatMap((file): CodeChange[] => {
    const full = path.join(repo.root, file);
    if (!fs.existsSync(full) || sizeOf(full) > FILE_LIMIT_BYTES) return [];
    try {
      const uses = readSource(file, fs.readFileSync(full, 'utf8'))?.uses ?? [];
      return uses.length ? [{ file, commit: null, lines: [], uses, unread: null }] : [];
    } catch {
      return []; // a sheet that does not parse shows no use; the changed lines' words do not depend on it
    }
  });
}
