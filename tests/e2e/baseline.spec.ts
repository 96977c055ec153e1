import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  createFixtureRepo,
  fixtureEnv,
  fixtureModules,
  git,
  provideModules,
  runPlaywright,
  visualUatCli,
} from '../../scripts/fixture-repo';
import { repoState, extraWorktrees } from '../support/repo-state';
import { DEMO_STATUSES, checkpoint, gateExit, readLatest, statuses, tableRow } from '../support/results';
import { BADGE_SPEC } from '../support/files';

function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

/** The run's first line: the one that names the base. */
const firstLine = (stdout: string) => stdout.split('\n')[0];

test('a base test that fails records the base error, makes its checkpoints new and never stops the current run', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  // An uncommitted test for the feature: on the base app the badge does not exist yet.
  fs.writeFileSync(path.join(repo, 'tests', 'badge.spec.ts'), BADGE_SPEC);
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  const badge = checkpoint(results, 'badge', 'badge');
  expect(badge.checkpoint.status).toBe('new');
  expect(badge.test.baselineAvailable).toBe(false);
  // It passed here: the base's error (whole, call log and all) is the base's, and the reason names its first line.
  expect(badge.test.error).toBeNull();
  expect(badge.test.baseError).toMatch(/toBeVisible.*\n/s);
  expect(badge.checkpoint.reason).toMatch(
    /^no baseline: the base test failed before it took this checkpoint \(Error: expect\(locator\)\.toBeVisible\(\)[^\n]*\)$/,
  );
  // expect's message carries terminal colour codes (\u001b[2m…): reasons are plain text everywhere.
  const latest = fs.readFileSync(path.join(repo, '.visual-uat', 'results', 'latest.json'), 'utf8');
  expect(latest).toContain('toBeVisible');
  expect(latest).not.toContain('\\u001b');
  // The row, its reason wrapped in its column onto the lines under it: the base's error's first line is in it.
  for (const stdout of [run.stdout, visualUat(repo, ['report']).stdout]) {
    const row = tableRow(stdout, 'no baseline:');
    expect(row.first).toMatch(/^ {2}new +badge\.spec\.ts › badge › badge +no baseline: the base test/);
    expect(row.reason).toBe(badge.checkpoint.reason);
  }
  expect(statuses(results)['home › landing']).toBe('unchanged');
});

test('visual-uat test passes playwright arguments through and --base chooses the base', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app', branch: 'feature/x' });
  git(repo, ['branch', 'release', 'main']);
  // A Playwright flag before `--` (which commander then keeps) must not turn --grep into a file filter.
  const run = visualUat(repo, ['test', '--base', 'release', '--reporter=line', '--', '--grep', 'home']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(results.baseBranch).toBe('release');
  expect(firstLine(run.stdout)).toBe(
    `visual-uat: base release (VISUAL_UAT_BASE) @ ${git(repo, ['rev-parse', 'main']).slice(0, 8)}, merge-base of HEAD`,
  );
  expect(results.tests.map((t) => t.title)).toEqual(['home']);
  expect(statuses(results)).toEqual({ 'home › landing': 'unchanged' });
});

test('setup errors stop the run before any test with one line naming the fix', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const before = repoState(repo);
  const unknown = visualUat(repo, ['test', '--base', 'no-such-branch']);
  expect(unknown.status).toBe(1);
  expect(unknown.stdout + unknown.stderr).toContain(
    'visual-uat: base branch "no-such-branch" (--base) not found (no local branch, no origin/no-such-branch): set baseBranch in withVisualUat or VISUAL_UAT_BASE',
  );
  // Said by the CLI before Playwright starts: no webServer waited for, not a line of Playwright's.
  expect(unknown.stdout).toBe('');
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

/** The demo app's config, wired with no baseBranch, or not wired at all (the project before `visual-uat init`). */
const NAMED_MAIN = "  }),\n  { baseBranch: 'main' },\n);\n";
function withoutBaseBranch(config: string): string {
  expect(config).toContain(NAMED_MAIN);
  return config.replace(NAMED_MAIN, '  }),\n);\n');
}
function unwired(config: string): string {
  const plain = config
    .replace("import { withVisualUat } from 'visual-uat';\n", '')
    .replace('export default withVisualUat(\n  defineConfig({', 'export default defineConfig({')
    .replace('  }),\n);\n', '  });\n');
  expect(plain).not.toContain('withVisualUat');
  return plain;
}

/**
 * A team's repository as a clone has it: the remote (a bare repository) has HEAD on develop, a main
 * last committed to years ago that develop left behind, and the feature branch on develop; the
 * clone is on the feature branch with no local main. develop changed the home page since main, so
 * a run against main would see it.
 */
function developClone(): { clone: string; developTip: string } {
  const work = createFixtureRepo({
    fixture: 'demo-app',
    modules: false,
    prepare: (dir) => {
      const config = path.join(dir, 'playwright.config.ts');
      fs.writeFileSync(config, withoutBaseBranch(fs.readFileSync(config, 'utf8')));
    },
  });
  const initial = git(work, ['rev-parse', 'main']);
  git(work, ['checkout', '-q', 'main']);
  const yearsAgo = '2021-03-01T12:00:00Z';
  const aged = spawnSync('git', ['commit', '-q', '--amend', '--no-edit'], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: yearsAgo, GIT_COMMITTER_DATE: yearsAgo },
  });
  expect(aged.status, aged.stderr).toBe(0);
  git(work, ['checkout', '-q', '-b', 'develop']);
  const home = path.join(work, 'public', 'index.html');
  fs.writeFileSync(home, fs.readFileSync(home, 'utf8').replace('Build faster with Acme', 'Plan, ship and measure with Acme'));
  git(work, ['commit', '-q', '-am', 'A new headline on the home page']);
  git(work, ['rebase', '-q', '--onto', 'develop', initial, 'feature/pricing']);
  const remote = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-remote-')), 'team.git');
  git(work, ['init', '-q', '--bare', '-b', 'develop', remote]);
  git(work, ['push', '-q', `file://${remote}`, 'main', 'develop', 'feature/pricing']);
  const clone = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-clone-')), 'team');
  git(work, ['clone', '-q', `file://${remote}`, clone]);
  git(clone, ['checkout', '-q', 'feature/pricing']);
  expect(git(clone, ['branch', '--list', 'main'])).toBe('');
  provideModules(clone, fixtureModules());
  return { clone, developTip: git(work, ['rev-parse', 'develop']) };
}

test("a clone whose remote's default branch is develop compares with develop, not the old main, and says so first; init writes develop", async () => {
  const { clone, developTip } = developClone();
  const run = runPlaywright(clone, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(clone)));
  expect(firstLine(run.stdout)).toBe(
    `visual-uat: base develop (origin/HEAD, the remote's default branch) @ ${developTip.slice(0, 8)}, merge-base of HEAD`,
  );
  expect(run.stdout).not.toContain('far behind');
  const results = readLatest(clone);
  expect(results).toMatchObject({ baseBranch: 'develop', baseCommit: developTip, currentBranch: 'feature/pricing' });
  expect(statuses(results)).toEqual(DEMO_STATUSES);

  // The project before it used visual-uat, in a clone whose origin/HEAD was never recorded: init asks origin.
  const config = path.join(clone, 'playwright.config.ts');
  fs.writeFileSync(config, unwired(fs.readFileSync(config, 'utf8')));
  git(clone, ['remote', 'set-head', 'origin', '--delete']);
  const init = visualUat(clone, ['init']);
  expect(init.status, init.stdout + init.stderr).toBe(0);
  expect(init.stdout).toContain(
    "playwright.config.ts: baseBranch 'develop' (the remote's default branch, as origin answered git ls-remote)",
  );
  expect(fs.readFileSync(config, 'utf8')).toContain("}), { baseBranch: 'develop' });");
  const wired = runPlaywright(clone, ['test']);
  expect(wired.status, wired.stdout + wired.stderr).toBe(gateExit(readLatest(clone)));
  expect(firstLine(wired.stdout)).toBe(
    `visual-uat: base develop (baseBranch in withVisualUat) @ ${developTip.slice(0, 8)}, merge-base of HEAD`,
  );
  expect(readLatest(clone)).toMatchObject({ baseBranch: 'develop', baseCommit: developTip });
  expect(statuses(readLatest(clone))).toEqual(DEMO_STATUSES);
});
