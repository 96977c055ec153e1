import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo, type Repo } from '../../../src/git';
import { SetupError } from '../../../src/util/errors';
import { farBehindWarning, resolveBase } from '../../../src/git/base';

/**
 * Which branch is the base, with real repositories: a setting that names one, else origin/HEAD,
 * else what origin answers (a bare repository over file://, one that never answers over ext::),
 * else main, else master; and the warning for a merge-base far behind.
 */

const OLD_DATE = '2020-01-01T12:00:00Z';

function git(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  }).trim();
}

function tempDir(name: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-${name}-`)));
}

function commit(dir: string, file: string, text: string, date?: string): string {
  fs.writeFileSync(path.join(dir, file), text);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-qm', `write ${file}`], date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {});
  return git(dir, ['rev-parse', 'HEAD']);
}

interface TeamClone {
  remote: string;
  clone: string;
  repo: Repo;
  /** main's tip, committed years ago: the fork point of develop. */
  oldMain: string;
  developTip: string;
}

/**
 * The trial's repository: a bare remote whose HEAD is develop, with a main last touched years ago,
 * cloned and checked out on a feature branch of develop; no local main, no local develop.
 */
function teamClone(): TeamClone {
  const work = tempDir('team');
  git(work, ['init', '-q', '-b', 'main']);
  const oldMain = commit(work, 'site.css', 'body{}\n', OLD_DATE);
  git(work, ['checkout', '-qb', 'develop']);
  const developTip = commit(work, 'home.html', '<h1>Home</h1>\n');
  git(work, ['checkout', '-qb', 'feature']);
  commit(work, 'site.css', 'body{color:red}\n');
  const remote = path.join(tempDir('remote'), 'team.git');
  git(os.tmpdir(), ['init', '-q', '--bare', '-b', 'develop', remote]);
  git(work, ['push', '-q', `file://${remote}`, 'main', 'develop', 'feature']);
  const clone = path.join(tempDir('clone'), 'team');
  git(os.tmpdir(), ['clone', '-q', `file://${remote}`, clone]);
  git(clone, ['checkout', '-q', 'feature']);
  git(clone, ['branch', '-qD', 'develop']);
  return { remote, clone, repo: { root: clone }, oldMain, developTip };
}

/** A repository of its own on `branch` with one commit, a feature branch checked out. */
async function localRepo(branch: string): Promise<Repo> {
  const dir = tempDir('local');
  git(dir, ['init', '-q', '-b', branch]);
  commit(dir, 'site.css', 'body{}\n');
  git(dir, ['checkout', '-qb', 'feature']);
  return openRepo(dir);
}

/** `count` empty commits on `branch`, in one `git fast-import`. */
function emptyCommits(dir: string, branch: string, count: number): void {
  const now = Math.floor(Date.now() / 1000);
  const stream = Array.from({ length: count }, (_, i) => {
    const message = `commit ${i}\n`;
    const from = i === 0 ? `from refs/heads/${branch}^0\n` : '';
    return `commit refs/heads/${branch}\ncommitter t <t@t> ${now} +0000\ndata ${Buffer.byteLength(message)}\n${message}${from}\n`;
  }).join('');
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: stream });
}

/** Whether a process runs `program` (by any path) with exactly these arguments (Linux: /proc). */
function running(program: string, args: string[]): boolean {
  return fs.readdirSync('/proc').some((entry) => {
    try {
      const [command, ...given] = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').slice(0, -1);
      return /^\d+$/.test(entry) && path.basename(command) === program && given.join(' ') === args.join(' ');
    } catch {
      return false;
    }
  });
}

describe('resolveBase', () => {
  it("takes the branch a setting names over the remote's default branch, and says which setting", async () => {
    const { repo, oldMain } = teamClone();
    expect(await resolveBase(repo, { branch: 'main', setting: 'VISUAL_UAT_BASE' })).toEqual({
      branch: 'main',
      ref: 'refs/remotes/origin/main',
      commit: oldMain,
      chosenBy: 'VISUAL_UAT_BASE',
    });
  });

  it('without a setting, takes origin/HEAD: develop, not the old main', async () => {
    const { repo, developTip } = teamClone();
    expect(await resolveBase(repo, null)).toEqual({
      branch: 'develop',
      ref: 'refs/remotes/origin/develop',
      commit: developTip,
      chosenBy: "origin/HEAD, the remote's default branch",
    });
  });

  it('without origin/HEAD, or with one left dangling, asks origin (git ls-remote) and takes its answer of now', async () => {
    const { repo, clone, remote, developTip, oldMain } = teamClone();
    const asked = "the remote's default branch, as origin answered git ls-remote";
    git(clone, ['remote', 'set-head', 'origin', '--delete']);
    expect(await resolveBase(repo, null)).toEqual({
      branch: 'develop',
      ref: 'refs/remotes/origin/develop',
      commit: developTip,
      chosenBy: asked,
    });
    git(clone, ['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/pruned']);
    expect(await resolveBase(repo, null)).toMatchObject({ branch: 'develop', chosenBy: asked });
    git(remote, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
    expect(await resolveBase(repo, null)).toMatchObject({ branch: 'main', commit: oldMain, chosenBy: asked });
  });

  it('a default branch origin names that is not here stops with the fetch that brings it', async () => {
    const { repo, clone, remote } = teamClone();
    git(clone, ['remote', 'set-head', 'origin', '--delete']);
    git(remote, ['branch', 'next', 'develop']);
    git(remote, ['symbolic-ref', 'HEAD', 'refs/heads/next']);
    const failure = resolveBase(repo, null);
    await expect(failure).rejects.toBeInstanceOf(SetupError);
    await expect(failure).rejects.toThrow(
      'visual-uat: base branch "next" (the remote\'s default branch, as origin answered git ls-remote) not found (no local branch, no origin/next): set baseBranch in withVisualUat or VISUAL_UAT_BASE (the branches here: feature), or fetch it (git fetch origin next)',
    );
  });

  it('when origin cannot be reached, falls back to main and says why in one line', async () => {
    const { repo, clone, oldMain } = teamClone();
    git(clone, ['remote', 'set-head', 'origin', '--delete']);
    git(clone, ['remote', 'set-url', 'origin', path.join(clone, 'no-such-remote')]);
    const base = await resolveBase(repo, null);
    expect(base).toMatchObject({ branch: 'main', ref: 'refs/remotes/origin/main', commit: oldMain });
    expect(base.chosenBy).toMatch(
      /^main exists, and origin did not name its default branch: git ls-remote failed: fatal: .*no-such-remote/,
    );
    expect(base.chosenBy).not.toContain('\n');
  });

  it('a remote that never answers holds the run up for the timeout only, and leaves no process behind', async () => {
    const { repo, clone } = teamClone();
    git(clone, ['remote', 'set-head', 'origin', '--delete']);
    git(clone, ['config', 'protocol.ext.allow', 'always']);
    // git runs `sleep 41.5` as the transport and waits for it to speak: it never does.
    git(clone, ['remote', 'set-url', 'origin', 'ext::sleep 41.5']);
    const started = Date.now();
    const base = await resolveBase(repo, null, 1000);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(base).toMatchObject({
      branch: 'main',
      chosenBy: 'main exists, and origin did not name its default branch: git ls-remote gave no answer in 1s',
    });
    await expect.poll(() => running('sleep', ['41.5']), { timeout: 2000 }).toBe(false);
  });

  it('without a remote: main, else master, else the fix', async () => {
    expect(await resolveBase(await localRepo('main'), null)).toMatchObject({
      branch: 'main',
      ref: 'refs/heads/main',
      chosenBy: 'main exists, and there is no remote origin',
    });
    expect(await resolveBase(await localRepo('master'), null)).toMatchObject({
      branch: 'master',
      ref: 'refs/heads/master',
      chosenBy: 'master exists, main does not, and there is no remote origin',
    });
    const none = resolveBase(await localRepo('trunk'), null);
    await expect(none).rejects.toBeInstanceOf(SetupError);
    await expect(none).rejects.toThrow(
      'visual-uat: no base branch found (neither main nor master exists, and there is no remote origin): set baseBranch in withVisualUat or VISUAL_UAT_BASE',
    );
  });

  it('names a base branch a setting gives that is not here, the setting, the branches that are, and no fetch without a remote', async () => {
    const failure = resolveBase(await localRepo('main'), { branch: 'mian', setting: 'VISUAL_UAT_BASE' });
    await expect(failure).rejects.toBeInstanceOf(SetupError);
    await expect(failure).rejects.toThrow(
      /^visual-uat: base branch "mian" \(VISUAL_UAT_BASE\) not found \(no local branch, no origin\/mian\): set baseBranch in withVisualUat or VISUAL_UAT_BASE \(the branches here: feature, main\)$/,
    );
  });
});

describe('farBehindWarning', () => {
  it('says nothing of a recent merge-base; names the commits and the days of one years before HEAD', async () => {
    const { repo } = teamClone();
    expect(await farBehindWarning(repo, await resolveBase(repo, null))).toBeNull();
    const main = await resolveBase(repo, { branch: 'main', setting: 'VISUAL_UAT_BASE' });
    const days = Math.floor((Number(git(repo.root, ['log', '-1', '--format=%ct', 'HEAD'])) - Date.parse(OLD_DATE) / 1000) / 86_400);
    expect(days).toBeGreaterThan(180);
    expect(await farBehindWarning(repo, main)).toBe(
      `the base main @ ${main.commit.slice(0, 8)} is far behind: 0 commits behind main's tip, 2 commits and ${days.toLocaleString('en-US')} days behind HEAD ` +
        "(the limits: 500 commits behind the tip, 180 days), so every checkpoint is compared with the app as it was then: if the team's base is another branch, set baseBranch in withVisualUat or VISUAL_UAT_BASE",
    );
  });

  it("warns of a merge-base more than 500 commits behind the base branch's tip, not of one 500 behind", async () => {
    const repo = await localRepo('main');
    emptyCommits(repo.root, 'main', 500);
    const base = await resolveBase(repo, null);
    expect(await farBehindWarning(repo, base)).toBeNull();
    emptyCommits(repo.root, 'main', 1);
    expect(await farBehindWarning(repo, base)).toMatch(
      /^the base main @ [0-9a-f]{8} is far behind: 501 commits behind main's tip, 0 commits and 0 days behind HEAD /,
    );
  });
});
