import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, playwrightCli, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { killProcessesIn, processesIn } from '../support/processes';
import { DEMO_STATUSES, readLatest, statuses, gateExit } from '../support/results';
import { extraWorktrees } from '../support/repo-state';

/**
 * The warm run in a real repository: which runs start a baseline pass (and a worktree) and which
 * take the suite's baselines from the store's index. Worktree creations are counted by a
 * post-checkout hook, which `git worktree add` runs and a warm run never triggers.
 */

function countWorktreeCheckouts(repo: string): () => number {
  const hooks = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-hooks-'));
  const log = path.join(hooks, 'checkouts.log');
  fs.writeFileSync(path.join(hooks, 'post-checkout'), `#!/bin/sh\npwd >> "${log}"\n`, { mode: 0o755 });
  git(repo, ['config', 'core.hooksPath', hooks]);
  // A checkout anywhere but in the repository itself is a base worktree's.
  const own = new Set([repo, fs.realpathSync(repo)]);
  return () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line && !own.has(line)).length
      : 0;
}

/** The run folder's baseline entries (`<commit>/<suite key>`). */
function runEntries(repo: string): string[] {
  const root = path.join(repo, '.visual-uat', 'baselines');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((commit) => fs.readdirSync(path.join(root, commit)).map((key) => path.join(root, commit, key)));
}

/** The store's suite indexes (`<commit>/suites/<suite key>.json`). */
function suiteIndexes(repo: string): string[] {
  const store = path.join(repo, '.visual-uat', 'baseline-store');
  if (!fs.existsSync(store)) return [];
  return fs
    .readdirSync(store)
    .filter((commit) => fs.existsSync(path.join(store, commit, 'suites')))
    .flatMap((commit) => fs.readdirSync(path.join(store, commit, 'suites')).map((index) => path.join(store, commit, 'suites', index)));
}

const WARM =
  /visual-uat: baselines from the store's index of this suite: main @ \w{8}, key \w{12} \(\d+ test-side files\): no worktree, no base server/;

test.describe('warm runs', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let worktreeCheckouts: () => number;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'demo-app' });
    worktreeCheckouts = countWorktreeCheckouts(repo);
  });

  function run(env: NodeJS.ProcessEnv = {}) {
    const result = runPlaywright(repo, ['test'], env);
    expect(result.status, result.stdout + result.stderr).toBe(gateExit(readLatest(repo)));
    expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
    return result;
  }

  test('a second run reuses the baselines: no worktree, no base server', () => {
    const cold = run();
    expect(cold.stdout).toContain('visual-uat: baseline pass (not in the store)');
    // Whether the pass runs first or beside the tests (on 4 cores and more) is said either way.
    expect(cold.stdout).toMatch(/visual-uat: the baseline pass runs (before|beside) the current tests \((\d+ tests?|every test)/);
    expect(worktreeCheckouts()).toBe(1);
    const warm = run();
    expect(warm.stdout).toMatch(WARM);
    expect(warm.stdout).not.toContain('baseline pass');
    expect(worktreeCheckouts()).toBe(1);
  });

  test('a changed test file makes a new index; the old one stays usable', () => {
    const spec = path.join(repo, 'tests', 'site.spec.ts');
    const original = fs.readFileSync(spec, 'utf8');
    // A code edit (a comment changes no test's store key: the store would give every baseline).
    fs.writeFileSync(spec, original.replace("await page.goto('/');", "await page.goto('/');\n    await page.waitForLoadState('load');"));
    try {
      const edited = run().stdout;
      const rendered =
        /visual-uat: baseline: (\d+) of \d+ tests rendered on the base \(tests\/site\.spec\.ts changed: [^)]+\); \d+ from the store/.exec(
          edited,
        );
      expect(rendered, edited).not.toBeNull();
      expect(edited).toContain(
        `visual-uat: baseline pass (for the ${rendered![1]} test${rendered![1] === '1' ? '' : 's'} the store lacks)`,
      );
      expect(worktreeCheckouts()).toBe(2);
    } finally {
      fs.writeFileSync(spec, original);
    }
    expect(run().stdout).toMatch(WARM);
    expect(worktreeCheckouts()).toBe(2);
    expect(suiteIndexes(repo)).toHaveLength(2);
    // The run folder keeps this run's baseline entry only: the store keeps the rest.
    expect(runEntries(repo)).toHaveLength(1);
  });

  test('--update-baselines captures them again', () => {
    expect(run({ VISUAL_UAT_UPDATE_BASELINES: '1' }).stdout).toContain('visual-uat: baseline pass (updateBaselines is set)');
    expect(worktreeCheckouts()).toBe(3);
    const viaCli = runNode(repo, [visualUatCli(repo), 'test', '--update-baselines']);
    expect(viaCli.status, viaCli.stdout + viaCli.stderr).toBe(gateExit(readLatest(repo)));
    expect(viaCli.stdout).toContain('visual-uat: baseline pass (updateBaselines is set)');
    expect(worktreeCheckouts()).toBe(4);
  });

  test('a new base commit makes a new index', () => {
    git(repo, ['checkout', '-q', 'main']);
    fs.writeFileSync(path.join(repo, 'CHANGELOG.md'), 'base moved on\n');
    git(repo, ['add', 'CHANGELOG.md']);
    git(repo, ['commit', '-q', '-m', 'Changelog on main']);
    git(repo, ['checkout', '-q', 'feature/pricing']);
    git(repo, ['rebase', '-q', 'main']);
    const result = run();
    expect(result.stdout).toContain('visual-uat: baseline pass (not in the store)');
    expect(readLatest(repo).baseCommit).toBe(git(repo, ['rev-parse', 'main']));
    expect(worktreeCheckouts()).toBe(5);
  });

  test('a run killed during the baseline pass leaves nothing in the store: the next run renders again', async () => {
    const killed = spawn(process.execPath, [playwrightCli(repo), 'test'], {
      cwd: repo,
      env: fixtureEnv({ VISUAL_UAT_UPDATE_BASELINES: '1', VISUAL_UAT_KEEP_WORKTREES: '1' }),
      detached: true,
      stdio: 'ignore',
    });
    // The moment the pass has written its first image into the run's entry (its manifest comes at the end).
    // The pass clears the folder it renders again while this looks: a folder gone mid-scan holds no image yet.
    const indexes = suiteIndexes(repo).map((file) => [file, fs.readFileSync(file, 'utf8')]);
    const filesIn = (dir: string) => {
      try {
        return fs.readdirSync(dir, { recursive: true }).map(String);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    };
    const unfinishedWithImages = () =>
      runEntries(repo).filter(
        (dir) => !fs.existsSync(path.join(dir, 'manifest.json')) && filesIn(dir).some((file) => file.endsWith('.png')),
      );
    await expect.poll(() => unfinishedWithImages().length, { timeout: 60_000, intervals: [50] }).toBe(1);
    process.kill(-killed.pid!, 'SIGKILL');
    expect(suiteIndexes(repo).map((file) => [file, fs.readFileSync(file, 'utf8')])).toEqual(indexes);
    // The base server's guard sees its runner gone and ends it: no orphan keeps a port.
    const [worktree] = extraWorktrees(repo);
    await expect.poll(() => processesIn(worktree), { timeout: 10_000 }).toEqual([]);
    killProcessesIn(repo);
    // The killed run stored nothing (tests store after the current tests); the earlier runs' store
    // entries would stand in for the pass: without them, the next run renders every test again.
    expect(
      fs
        .readdirSync(path.join(repo, '.visual-uat', 'baseline-store'), { recursive: true })
        .map(String)
        .filter((file) => file.endsWith('.tmp')),
    ).toEqual([]);
    fs.rmSync(path.join(repo, '.visual-uat', 'baseline-store'), { recursive: true });

    const next = run();
    expect(next.stdout).toMatch(/visual-uat: baseline pass \(not in the store\): main @ \w{8} in the kept worktree/);
    expect(suiteIndexes(repo)).toHaveLength(1);
    expect(git(repo, ['worktree', 'list']).split('\n')).toHaveLength(1);
  });
});

function runNode(cwd: string, args: string[]) {
  return spawnSync(process.execPath, args, { cwd, env: fixtureEnv(), encoding: 'utf8', timeout: 300_000 });
}

test('two shards merged by merge-reports on a machine without .visual-uat give the unsharded verdicts; shards sharing a store render nothing the next time', async ({
  page,
}) => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-shared-store-'));
  // Each shard on a machine of its own (no .visual-uat), the store folder shared as a CI cache shares it.
  const shards = (blobs: string) => {
    const logs: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      fs.rmSync(path.join(repo, '.visual-uat'), { recursive: true, force: true });
      const out = path.join(blobs, `shard-${shard[0]}`);
      const result = runPlaywright(repo, ['test', `--shard=${shard}`, '--fully-parallel', '--reporter=blob'], {
        PLAYWRIGHT_BLOB_OUTPUT_DIR: out,
        VISUAL_UAT_BASELINE_STORE: store,
      });
      expect(result.status, result.stdout + result.stderr).toBe(0);
      logs.push(result.stdout);
      for (const file of fs.readdirSync(out)) fs.copyFileSync(path.join(out, file), path.join(blobs, file));
      fs.rmSync(out, { recursive: true });
    }
    expect(fs.readdirSync(blobs).filter((file) => file.endsWith('.zip'))).toHaveLength(2);
    return logs;
  };
  const blobs = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-blobs-'));
  for (const log of shards(blobs))
    expect(log).toMatch(/visual-uat: baseline: (\d) of \1 tests? rendered on the base \(not in the store: [^)]+\); 0 from the store/);

  // The merge job's machine: a checkout with no output folder of any shard.
  fs.rmSync(path.join(repo, '.visual-uat'), { recursive: true });
  const merged = runNode(repo, [playwrightCli(repo), 'merge-reports', '--reporter=visual-uat/reporter,html', blobs]);
  expect(merged.status, merged.stdout + merged.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual(DEMO_STATUSES);
  expect(results.summary).toEqual({ total: 4, passed: 2, failed: 0, errored: 0, needsReview: 2 });
  const resultsDir = path.join(repo, '.visual-uat', 'results');
  for (const checkpoint of results.tests.flatMap((t) => t.checkpoints))
    for (const image of [checkpoint.baselineImage, checkpoint.currentImage, checkpoint.diffImage].filter(Boolean))
      expect(fs.existsSync(path.resolve(resultsDir, image!)), `${image} opens`).toBe(true);

  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'site › pricing › plans' }).click();
  await expect(page.getByTestId('test-case-annotations')).toContainText('plans: no evaluator configured');
  await expect(page.getByText('Image mismatch: plans.png')).toBeVisible();

  // The next pull request run: each shard's suite (its --shard is in its key) is in the store's index, with no worktree.
  const again = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-blobs-'));
  for (const log of shards(again)) {
    expect(log).toContain("visual-uat: baselines from the store's index of this suite");
    expect(log).toContain('no worktree, no base server');
  }
  fs.rmSync(path.join(repo, '.visual-uat'), { recursive: true });
  const remerged = runNode(repo, [playwrightCli(repo), 'merge-reports', '--reporter=visual-uat/reporter', again]);
  expect(remerged.status, remerged.stdout + remerged.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
});
