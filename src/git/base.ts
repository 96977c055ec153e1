import type { NamedBase } from '../config/settings';
import { plural } from '../util/text';
import { runGit, type Repo } from './index';
import { SetupError } from '../util/errors';

/**
 * Which branch is the base, and its merge-base with HEAD. A setting that names a branch wins (see
 * config/settings resolveOptions); else the remote's default branch, as origin/HEAD records it or,
 * without one, as origin answers (git ls-remote, bounded: a remote that does not answer holds the
 * run up for REMOTE_TIMEOUT_MS at most); else main, else master. A clone of a repository whose
 * default branch is develop thus compares with develop, not with an old main nobody merges into.
 */

export interface BaseResolution {
  branch: string;
  ref: string;
  commit: string;
  /** How the branch was chosen, as the run's first line says it: the setting, or where it was found. */
  chosenBy: string;
}

/** The branch a base defaults to and how it was found, or why none was. */
export type DefaultBranch = { branch: string; chosenBy: string } | { missing: string };

const REMOTE = 'origin';

/** How long origin may take to name its default branch before the run goes on without it. */
const REMOTE_TIMEOUT_MS = 5_000;

/** Past either, the merge-base is far behind: the wrong base, or a branch that has not taken the base in a long time. */
const FAR_BEHIND_COMMITS = 500;
const FAR_BEHIND_DAYS = 180;

async function refExists(repo: Repo, ref: string): Promise<boolean> {
  try {
    await runGit(repo.root, ['rev-parse', '--verify', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** The branch's ref here: the local branch first, else origin's, else the name as a ref (a tag, a commit, HEAD). */
async function branchRef(repo: Repo, branch: string): Promise<string | null> {
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/${REMOTE}/${branch}`, branch]) {
    if (await refExists(repo, ref)) return ref;
  }
  return null;
}

/**
 * The branch origin/HEAD points at, when it points at one that is here: a clone records it; a
 * fetch into `git init` (actions/checkout) does not, and a pruned branch leaves it dangling.
 */
async function recordedRemoteHead(repo: Repo): Promise<string | null> {
  const prefix = `refs/remotes/${REMOTE}/`;
  const target = (await runGit(repo.root, ['symbolic-ref', '--quiet', `${prefix}HEAD`]).catch(() => '')).trim();
  if (!target.startsWith(prefix) || !(await refExists(repo, target))) return null;
  return target.slice(prefix.length);
}

/** The branch origin's HEAD is, as origin answers now, or why it did not say. */
async function askedRemoteHead(repo: Repo, timeoutMs: number): Promise<{ branch: string } | { unknown: string }> {
  const url = (await runGit(repo.root, ['config', '--get', `remote.${REMOTE}.url`]).catch(() => '')).trim();
  if (!url) return { unknown: `there is no remote ${REMOTE}` };
  try {
    const answer = await runGit(repo.root, ['ls-remote', '--symref', REMOTE, 'HEAD'], { timeoutMs });
    const branch = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(answer)?.[1];
    return branch ? { branch } : { unknown: `${REMOTE} names no default branch` };
  } catch (error) {
    return { unknown: `${REMOTE} did not name its default branch: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The remote's default branch (origin/HEAD, else origin's answer), else main, else master. */
export async function defaultBranch(repo: Repo, timeoutMs = REMOTE_TIMEOUT_MS): Promise<DefaultBranch> {
  const recorded = await recordedRemoteHead(repo);
  if (recorded) return { branch: recorded, chosenBy: `${REMOTE}/HEAD, the remote's default branch` };
  const asked = await askedRemoteHead(repo, timeoutMs);
  if ('branch' in asked) return { branch: asked.branch, chosenBy: `the remote's default branch, as ${REMOTE} answered git ls-remote` };
  if (await branchRef(repo, 'main')) return { branch: 'main', chosenBy: `main exists, and ${asked.unknown}` };
  if (await branchRef(repo, 'master')) return { branch: 'master', chosenBy: `master exists, main does not, and ${asked.unknown}` };
  return { missing: `neither main nor master exists, and ${asked.unknown}` };
}

/** The branches here (a misspelt name is found among them), and the fetch that brings a branch only origin has. */
async function missingBranch(repo: Repo, branch: string, chosenBy: string): Promise<string> {
  const [local, url] = await Promise.all([
    runGit(repo.root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']).catch(() => ''),
    runGit(repo.root, ['config', '--get', `remote.${REMOTE}.url`]).catch(() => ''),
  ]);
  const here = local.split('\n').filter(Boolean);
  const shown = here.length > MAX_BRANCHES_NAMED ? [...here.slice(0, MAX_BRANCHES_NAMED), '…'] : here;
  const named = here.length ? ` (the branches here: ${shown.join(', ')})` : '';
  const fetch = url.trim() ? `, or fetch it (git fetch ${REMOTE} ${branch})` : '';
  return (
    `visual-uat: base branch "${branch}" (${chosenBy}) not found (no local branch, no ${REMOTE}/${branch}): set baseBranch in ` +
    `withVisualUat or VISUAL_UAT_BASE${named}${fetch}`
  );
}

const MAX_BRANCHES_NAMED = 8;

/** The base is the merge-base of HEAD and the base branch: the one a setting names, else defaultBranch's. */
export async function resolveBase(repo: Repo, named: NamedBase | null, timeoutMs = REMOTE_TIMEOUT_MS): Promise<BaseResolution> {
  const chosen = named ? { branch: named.branch, chosenBy: named.setting } : await defaultBranch(repo, timeoutMs);
  if ('missing' in chosen)
    throw new SetupError(`visual-uat: no base branch found (${chosen.missing}): set baseBranch in withVisualUat or VISUAL_UAT_BASE`);
  const { branch, chosenBy } = chosen;
  const ref = await branchRef(repo, branch);
  if (!ref) throw new SetupError(await missingBranch(repo, branch, chosenBy));
  // `git merge-base` answers "none" with exit code 1 and no output.
  const commit = (await runGit(repo.root, ['merge-base', 'HEAD', ref]).catch(() => '')).trim();
  if (!commit) {
    const shallow = (await runGit(repo.root, ['rev-parse', '--is-shallow-repository']).catch(() => 'false')).trim() === 'true';
    if (shallow)
      throw new SetupError(
        `visual-uat: this is a shallow clone without the merge-base of HEAD and ${branch}: run git fetch --unshallow (in GitHub ` +
          `Actions: actions/checkout with fetch-depth: 0)`,
      );
    throw new SetupError(
      `visual-uat: HEAD and ${branch} share no history: set baseBranch or VISUAL_UAT_BASE to a branch this one grew from`,
    );
  }
  return { branch, ref, commit, chosenBy };
}

async function countCommits(repo: Repo, range: string): Promise<number> {
  return Number((await runGit(repo.root, ['rev-list', '--count', range])).trim());
}

/**
 * The commit times (seconds) of HEAD and the base commit, in one call: git shows a commit once, so HEAD is the line that is not the base's.
 */
async function commitTimes(repo: Repo, baseCommit: string): Promise<{ head: number; base: number }> {
  const lines = (await runGit(repo.root, ['show', '-s', '--format=%H %ct', 'HEAD', baseCommit]))
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const base = Number(lines.find(([hash]) => hash === baseCommit)?.[1]);
  const head = lines.find(([hash]) => hash !== baseCommit);
  return { head: head ? Number(head[1]) : base, base };
}

/**
 * The warning for a merge-base more than FAR_BEHIND_COMMITS behind the base branch's tip, or
 * committed more than FAR_BEHIND_DAYS before HEAD, with the numbers; null when it is neither.
 */
export async function farBehindWarning(repo: Repo, base: BaseResolution): Promise<string | null> {
  const behindTip = await countCommits(repo, `${base.commit}..${base.ref}`);
  const times = await commitTimes(repo, base.commit);
  const days = Math.floor((times.head - times.base) / 86_400);
  if (behindTip <= FAR_BEHIND_COMMITS && days <= FAR_BEHIND_DAYS) return null;
  const behindHead = await countCommits(repo, `${base.commit}..HEAD`);
  return (
    `the base ${base.branch} @ ${base.commit.slice(0, 8)} is far behind: ${plural(behindTip, 'commit')} behind ${base.branch}'s tip, ` +
    `${plural(behindHead, 'commit')} and ${plural(days, 'day')} behind HEAD (the limits: ${FAR_BEHIND_COMMITS} commits behind ` +
    `the tip, ${FAR_BEHIND_DAYS} days), ` +
    `so every checkpoint is compared with the app as it was then: if the team's base is another branch, set baseBranch in ` +
    `withVisualUat or VISUAL_UAT_BASE`
  );
}
