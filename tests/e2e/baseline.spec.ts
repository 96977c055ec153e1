import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { repoState, extraWorktrees } from '../support/repo-state';
import { checkpoint, gateExit, readLatest, statuses, tableRow } from '../support/results';
import { BADGE_SPEC } from '../support/files';


function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

test('a base test that fails records the base error, makes its checkpoints new and never stops the current run', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  // An uncommitted test for the feature: on the base app the badge does not exist yet.
  fs.writeFileSync(
    path.join(repo, 'tests', 'badge.spec.ts'),
    BADGE_SPEC,
  );
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  const badge = checkpoint(results, 'badge', 'badge');
  expect(badge.checkpoint.status).toBe('new');
  expect(badge.test.baselineAvailable).toBe(false);
  // It passed here: the base's error (whole, call log and all) is the base's, and the reason names its first line.
  expect(badge.test.error).toBeNull();
  expect(badge.test.baseError).toMatch(/toBeVisible.*\n/s);
  expect(badge.checkpoint.reason).toMatch(/^no baseline: the base test failed before it took this checkpoint \(Error: expect\(locator\)\.toBeVisible\(\)[^\n]*\)$/);
  // expect's message carries terminal colour codes (\u001b[2m…): reasons are plain text everywhere.
  const latest = fs.readFileSync(path.join(repo, '.visual-uat', 'results', 'latest.json'), 'utf8');
  expect(latest).toContain('toBeVisible');
  expect(latest).not.toContain('\\u001b');
  // The row, its reason wrapped in its column onto the lines under it: the base's error's first line is in it.
  for (const stdout of [run.stdout, visualUat(repo, ['report']).stdout]) {
    const row = tableRow(stdout, 'no baseline:');
    expect(row.first).toMatch(/^  new +badge\.spec\.ts › badge › badge +no baseline: the base test/);
    expect(row.reason).toBe(badge.checkpoint.reason);
  }
  expect(statuses(results)['home › landing']).toBe('unchanged');
});

test('visual-uat test passes playwright arguments through and --base chooses the base', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app', branch: 'feature/x' });
  git(repo, ['branch', 'release', 'main']);
  const run = visualUat(repo, ['test', '--base', 'release', '--', '--grep', 'home']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(results.baseBranch).toBe('release');
  expect(results.tests.map((t) => t.title)).toEqual(['home']);
  expect(statuses(results)).toEqual({ 'home › landing': 'unchanged' });
});

test('setup errors stop the run before any test with one line naming the fix', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const before = repoState(repo);
  const unknown = visualUat(repo, ['test', '--base', 'no-such-branch']);
  expect(unknown.status).toBe(1);
  expect(unknown.stdout + unknown.stderr).toContain(
    'visual-uat: base branch "no-such-branch" not found (no local branch, no origin/no-such-branch): set baseBranch in withVisualUat or VISUAL_UAT_BASE',
  );
  expect(unknown.stdout).not.toMatch(/✓|passed/);
  expect(repoState(repo)).toEqual(before);

  fs.rmSync(path.join(repo, '.git'), { recursive: true, force: true });
  const notGit = runPlaywright(repo, ['test']);
  expect(notGit.status).toBe(1);
  expect(notGit.stdout + notGit.stderr).toContain('is not inside a git repository: run it from a git checkout');
});

test('base equal to HEAD with a clean tree compares nothing and starts no baseline pass', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app', commits: 0 });
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toContain('nothing to compare, no baseline pass');
  expect(Object.values(statuses(readLatest(repo)))).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
  expect(extraWorktrees(repo)).toEqual([]);
});
