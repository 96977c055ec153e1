import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT, createFixtureRepo, fixtureModules, git, provideModules, runPlaywright } from '../../scripts/fixture-repo';
import { repoState } from '../support/repo-state';
import { DEMO_STATUSES, readLatest, statuses, gateExit } from '../support/results';

/** Checkouts as CI leaves them, and a base that cannot run. */

function cloneOf(repo: string, args: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-clone-'));
  git(PACKAGE_ROOT, ['clone', '-q', ...args, `file://${repo}`, dir]);
  provideModules(dir, fixtureModules());
  return dir;
}

test('a CI checkout (detached HEAD, the base only as origin/main) resolves the base from the remote-tracking ref', async () => {
  const origin = createFixtureRepo({ fixture: 'demo-app' });
  const clone = cloneOf(origin, ['--no-checkout']);
  git(clone, ['checkout', '-q', '--detach', 'origin/feature/pricing']);
  expect(git(clone, ['branch', '--list', 'main'])).toBe('');
  const run = runPlaywright(clone, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(clone)));
  const results = readLatest(clone);
  expect(statuses(results)).toEqual(DEMO_STATUSES);
  expect(results).toMatchObject({ baseBranch: 'main', baseCommit: git(clone, ['rev-parse', 'origin/main']), currentBranch: null });
});

test('a shallow clone without the merge-base stops with the fix: fetch --unshallow or fetch-depth: 0', async () => {
  const origin = createFixtureRepo({ fixture: 'demo-app' });
  const clone = cloneOf(origin, ['--depth', '1', '--branch', 'feature/pricing']);
  git(clone, ['fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main']);
  const before = repoState(clone);
  const run = runPlaywright(clone, ['test']);
  expect(run.status).toBe(1);
  expect(run.stdout + run.stderr).toContain(
    'visual-uat: this is a shallow clone without the merge-base of HEAD and main: run git fetch --unshallow (in GitHub Actions: actions/checkout with fetch-depth: 0)',
  );
  expect(run.stdout).not.toMatch(/✓|passed/);
  expect(repoState(clone)).toEqual(before);
});

test('a base app that fails to start stops the run before the current tests; allowMissingBaselines goes on with every checkpoint new', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const server = path.join(repo, 'server.js');
  const working = fs.readFileSync(server, 'utf8');
  git(repo, ['checkout', '-q', 'main']);
  fs.writeFileSync(server, "console.error('base server: cannot start'); process.exit(1);\n");
  git(repo, ['commit', '-q', '-am', 'Break the server on main']);
  git(repo, ['checkout', '-q', 'feature/pricing']);
  git(repo, ['rebase', '-q', 'main']);
  fs.writeFileSync(server, working);

  const stopped = runPlaywright(repo, ['test']);
  expect(stopped.status).toBe(1);
  expect(stopped.stdout + stopped.stderr).toMatch(
    /visual-uat: the baseline pass failed: the base app's server \(`node server\.js`\) exited before it answered; the base server's last line: "base server: cannot start": check that the base commit starts with this webServer; see \.visual-uat\/logs\/baseline\.log\. Nothing was compared, so the run stops/,
  );
  expect(stopped.stdout).not.toMatch(/✓|passed/);
  expect(fs.existsSync(path.join(repo, '.visual-uat', 'results', 'latest.json'))).toBe(false);

  const run = runPlaywright(repo, ['test'], { VISUAL_UAT_ALLOW_MISSING_BASELINES: '1' });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toMatch(/visual-uat: warning: the baseline pass failed: .+; see .*baseline\.log\. allowMissingBaselines is set/);
  const results = readLatest(repo);
  expect(new Set(Object.values(statuses(results)))).toEqual(new Set(['new']));
  for (const test of results.tests) {
    expect(test.baselineAvailable).toBe(false);
    for (const checkpoint of test.checkpoints) expect(checkpoint.reason).toMatch(/^no baseline: the baseline pass failed/);
  }
});
