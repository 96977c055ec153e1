import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFiles, fileAtCommit, openRepo, provideWorktree, removeWorktree, runGit, workingState } from '../../../src/git';
import { extraWorktrees } from '../../support/repo-state';

/** A real repository: main with one commit, a feature branch with one more, an untracked file. */
function featureRepo(): { dir: string; base: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-git-')));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(dir, 'site.css'), 'body{}\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  const base = git('rev-parse', 'HEAD');
  git('checkout', '-qb', 'feature');
  fs.writeFileSync(path.join(dir, 'site.css'), 'body{color:red}\n');
  fs.writeFileSync(path.join(dir, 'café.css'), 'p{}\n');
  git('add', '-A');
  git('commit', '-qm', 'red text');
  fs.writeFileSync(path.join(dir, 'new page.html'), '<p>new</p>\n');
  return { dir, base };
}

describe('git', () => {
  it('finds the working state and what changed, with names that hold spaces and accents', async () => {
    const { dir, base } = featureRepo();
    const repo = await openRepo(path.join(dir));
    expect(repo.root).toBe(dir);
    const state = await workingState(repo);
    expect(state).toMatchObject({ branch: 'feature', dirty: true });
    expect(state.commit).not.toBe(base);
    expect(await changedFiles(repo, base)).toEqual(['A café.css', 'M site.css', 'A new page.html']);
    expect(await fileAtCommit(repo, base, 'site.css')).toBe('body{}\n');
    expect(await fileAtCommit(repo, base, 'new page.html')).toBeNull();
  });

  it('reads the working state from one status: a detached HEAD has no branch; a clean tree, a tracked edit and an untracked file', async () => {
    const { dir } = featureRepo();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    const head = git('rev-parse', 'HEAD');
    const untracked = await workingState(await openRepo(dir));
    expect(untracked).toEqual({ branch: 'feature', commit: head, dirty: true });
    fs.rmSync(path.join(dir, 'new page.html'));
    git('checkout', '-q', '--detach');
    expect(await workingState(await openRepo(dir))).toEqual({ branch: null, commit: head, dirty: false });
    fs.writeFileSync(path.join(dir, 'site.css'), 'body{color:blue}\n');
    expect(await workingState(await openRepo(dir))).toEqual({ branch: null, commit: head, dirty: true });
  });

  it("leaves Playwright's own outputs out: a tree with only a report and test results is clean, and they are no changed files", async () => {
    const { dir, base } = featureRepo();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    fs.rmSync(path.join(dir, 'new page.html'));
    for (const file of [
      'playwright-report/index.html',
      'playwright-report/data/3f2a.png',
      'test-results/home-desktop/trace.zip',
      'e2e/blob-report/report.zip',
    ]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), 'x');
    }
    const repo = await openRepo(dir);
    expect(await workingState(repo)).toEqual({ branch: 'feature', commit: git('rev-parse', 'HEAD'), dirty: false });
    expect(await changedFiles(repo, base)).toEqual(['A café.css', 'M site.css']);
    fs.writeFileSync(path.join(dir, 'test-results.html'), '<p>a page of the app</p>\n');
    expect(await workingState(await openRepo(dir))).toMatchObject({ dirty: true });
  });

  it('says a repository without a commit has none', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-empty-git-')));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await expect(openRepo(dir)).rejects.toThrow('the repository has no commit yet: commit the base version first');
  });

  it("says so outside a repository, and passes git's own message on", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-no-git-'));
    await expect(openRepo(outside)).rejects.toThrow(`${outside} is not inside a git repository`);
    const { dir } = featureRepo();
    await expect(runGit(dir, ['rev-parse', '--verify', 'no-such-ref^{commit}'])).rejects.toThrow(/^git rev-parse failed: fatal: /);
  });
  it('removes a worktree: gone from its place and from git at once, and nothing of it left in the temporary folder', async () => {
    const { dir, base } = featureRepo();
    const repo = await openRepo(dir);
    const worktree = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-home-')), 'base');
    expect(await provideWorktree(repo, worktree, base)).toBe('created');
    fs.mkdirSync(path.join(worktree, 'node_modules', 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(worktree, 'node_modules', 'pkg', 'index.js'), '');
    const aside = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('visual-uat-removed-'));
    await removeWorktree(repo, worktree);
    expect(fs.existsSync(worktree)).toBe(false);
    expect(extraWorktrees(dir)).toEqual([]);
    await expect.poll(aside, { timeout: 20_000 }).toEqual([]);
  });
});
