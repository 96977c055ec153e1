import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  FIXTURES_DIR,
  createFixtureRepo,
  fixtureEnv,
  fixtureModules,
  git,
  installOnce,
  pluginTarball,
  provideModules,
  runPlaywright,
  visualUatCli,
} from '../../scripts/fixture-repo';
import { cloneOn } from '../support/clones';
import { filesUnder } from '../support/files';
import { startDetachedRun } from '../support/playwright-run';
import { killProcessesIn } from '../support/processes';
import { repoState } from '../support/repo-state';
import { DEMO_STATUSES, readLatest, statuses, gateExit } from '../support/results';

/**
 * Nothing on disk taken on faith, for the baseline store: every file a store entry serves is
 * sealed, the store deletes only what it made, and a store that cannot be used, or only read,
 * says so in one line while the run's verdicts stay what they would be without it.
 */

const STORE_LINE = /baselineStore \(or VISUAL_UAT_BASELINE_STORE\)/;

/** A clone of a demo-app repository (which ignores node_modules) with its install. */
function demoClone(repo: string, branch: string): string {
  return cloneOn(repo, branch, fixtureModules(path.join(FIXTURES_DIR, 'demo-app', 'base', 'package.json')));
}

function record(main: string, store: string): string {
  const recorded = spawnSync(process.execPath, [visualUatCli(main), 'record'], {
    cwd: main,
    env: fixtureEnv({ VISUAL_UAT_BASELINE_STORE: store }),
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
  return recorded.stdout;
}

/** Every file under a folder, by path → SHA-256: what a run must leave as it was. */
function treeState(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir).map((file) => [path.relative(dir, file), crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')]),
  );
}

/** The store's files of one kind (`.signals.json`, `.layout.json.gz`), of the entries a record run stored. */
function storedFiles(store: string, suffix: string): string[] {
  return filesUnder(store).filter((file) => file.endsWith(suffix));
}

function storedEntries(store: string): number {
  return filesUnder(store).filter((file) => path.basename(file) === 'entry.json').length;
}

/** A run in a fresh output folder: what a pull request's CI does with a restored store. */
function freshRun(repo: string, env: NodeJS.ProcessEnv) {
  fs.rmSync(path.join(repo, '.visual-uat'), { recursive: true, force: true });
  return runPlaywright(repo, ['test'], env);
}

test.describe('a store entry with a file cut short', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let store: string;
  let pr: string;
  const gate = { SHOP_FAIL_ON: 'regression,signals' };

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'signals-app', branch: 'feature/notice' });
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-store-'));
    record(cloneOn(repo, 'main'), store);
    pr = cloneOn(repo, 'feature/notice');
  });

  test('a truncated signals file is not read as "no console errors": the test renders on the base again, the log says which file, the new error still fails the run', () => {
    const intact = freshRun(pr, { ...gate, VISUAL_UAT_BASELINE_STORE: store });
    expect(intact.status, intact.stdout + intact.stderr).toBe(1);
    expect(intact.stdout).toMatch(/visual-uat: baseline: 0 of \d+ tests rendered on the base; \d+ from the store/);
    const verdicts = statuses(readLatest(pr));
    const newErrors = readLatest(pr).tests.flatMap((t) => t.checkpoints.flatMap((c) => c.signals.newConsoleErrors));
    expect(newErrors).toContain('console.error: checkout: widget failed to start');

    const signals = storedFiles(store, 'products.signals.json');
    expect(signals).toHaveLength(1);
    fs.writeFileSync(signals[0], fs.readFileSync(signals[0], 'utf8').slice(0, 20));
    const cut = freshRun(pr, { ...gate, VISUAL_UAT_BASELINE_STORE: store });
    expect(cut.status, cut.stdout + cut.stderr).toBe(1);
    expect(cut.stdout).toContain('the stored signals of "products" are altered');
    expect(statuses(readLatest(pr))).toEqual(verdicts);
    expect(readLatest(pr).tests.flatMap((t) => t.checkpoints.flatMap((c) => c.signals.newConsoleErrors))).toEqual(newErrors);
  });

  test("a truncated layout record in the store is doubtful too, and so is a file cut under a warm run's index", () => {
    const layouts = storedFiles(store, '.layout.json.gz');
    expect(layouts.length).toBeGreaterThan(0);
    const layout = layouts[0];
    fs.writeFileSync(layout, fs.readFileSync(layout).subarray(0, 10));
    const cut = freshRun(pr, { ...gate, VISUAL_UAT_BASELINE_STORE: store });
    expect(cut.status, cut.stdout + cut.stderr).toBe(1);
    expect(cut.stdout).toContain(`the stored layout record of "${path.basename(layout, '.layout.json.gz')}" is altered`);

    // A warm run reads the same entries through the suite's index: each is checked against its seal.
    const indexed = runPlaywright(pr, ['test'], { ...gate, VISUAL_UAT_BASELINE_STORE: store });
    expect(indexed.stdout).toContain("visual-uat: baselines from the store's index of this suite");
    fs.writeFileSync(storedFiles(store, 'products.signals.json')[0], '{"console":');
    const warm = runPlaywright(pr, ['test'], { ...gate, VISUAL_UAT_BASELINE_STORE: store });
    expect(warm.status, warm.stdout + warm.stderr).toBe(1);
    expect(warm.stdout).not.toContain("baselines from the store's index");
    expect(warm.stdout).toContain('visual-uat: the store\'s index of this suite is not used: the stored signals of "products" are altered');
    expect(readLatest(pr).tests.flatMap((t) => t.checkpoints.flatMap((c) => c.signals.newConsoleErrors))).toContain(
      'console.error: checkout: widget failed to start',
    );
  });
});

test.describe('a store path that is not a store', () => {
  test("a folder of the user's (commit-named folders among them) is neither read nor pruned, and clean leaves it; a file as the path: one line, and the run compares as without a store", () => {
    const repo = createFixtureRepo({ fixture: 'demo-app' });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-user-folder-'));
    for (const [index, name] of [
      'projects',
      'photos',
      'music',
      '.cache',
      'notes',
      'a'.repeat(40),
      'b'.repeat(40),
      'c'.repeat(40),
    ].entries()) {
      fs.mkdirSync(path.join(home, name, 'inner'), { recursive: true });
      fs.writeFileSync(path.join(home, name, 'inner', `file-${index}.txt`), `user data ${index}\n`);
      const old = new Date(Date.now() - (index + 1) * 86_400_000);
      fs.utimesSync(path.join(home, name), old, old);
    }
    const before = treeState(home);
    const repoBefore = repoState(repo);
    for (let run = 0; run < 2; run++) {
      const result = runPlaywright(repo, ['test'], { VISUAL_UAT_BASELINE_STORE: home });
      expect(result.status, result.stdout + result.stderr).toBe(gateExit(readLatest(repo)));
      expect(result.stdout).toContain(
        `visual-uat: warning: the baseline store ${home} holds files visual-uat did not write (.cache, music, notes, and 2 more) and no .visual-uat-store.json`,
      );
      expect(result.stdout.match(/warning: the baseline store .* this run neither reads nor writes it/g)).toHaveLength(1);
      expect(result.stdout).toMatch(STORE_LINE);
      expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
      expect(treeState(home)).toEqual(before);
    }
    const cleaned = spawnSync(process.execPath, [visualUatCli(repo), 'clean'], {
      cwd: repo,
      env: fixtureEnv({ VISUAL_UAT_BASELINE_STORE: home }),
      encoding: 'utf8',
    });
    expect(cleaned.status, cleaned.stdout + cleaned.stderr).toBe(0);
    expect(cleaned.stdout).toContain(`visual-uat clean: the baseline store ${home} holds files visual-uat did not write`);
    expect(cleaned.stdout).toContain('nothing in it was removed');
    expect(treeState(home)).toEqual(before);
    expect(repoState(repo)).toEqual(repoBefore);

    const file = path.join(home, 'notes', 'inner', 'file-4.txt');
    const asFile = runPlaywright(repo, ['test'], { VISUAL_UAT_BASELINE_STORE: file });
    expect(asFile.status, asFile.stdout + asFile.stderr).toBe(gateExit(readLatest(repo)));
    expect(asFile.stdout).toContain(
      `visual-uat: warning: the baseline store ${file} is a file, not a folder: point baselineStore (or VISUAL_UAT_BASELINE_STORE) at a folder; this run neither reads nor writes it`,
    );
    expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
    expect(treeState(home)).toEqual(before);
  });
});

/** Runs `body` with `dir` mounted (read-only bind, or a small tmpfs) where the test can reach it; unmounts whatever happens. */
function withMount(args: string[], target: string, body: () => void): void {
  fs.mkdirSync(target, { recursive: true });
  const mounted = spawnSync('mount', [...args, target], { encoding: 'utf8' });
  expect(mounted.status, `mount ${args.join(' ')} (the fault suite runs as root, as CI does): ${mounted.stderr}`).toBe(0);
  try {
    body();
  } finally {
    spawnSync('umount', [target]);
  }
}

test.describe('a store that cannot be written', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let store: string;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'demo-app' });
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-store-'));
    record(demoClone(repo, 'main'), store);
  });

  test('a read-only store serves its baselines, says in one line that it stores nothing, and the run writes its own results', () => {
    const pr = demoClone(repo, 'feature/pricing');
    // One test edited on the branch: the pass renders it, and would store it.
    fs.appendFileSync(path.join(pr, 'tests', 'flows.spec.ts'), '\n// edited on the branch\nexport const edited = 1;\n');
    const readOnly = path.join(os.tmpdir(), `visual-uat-ro-${process.pid}-${Date.now()}`);
    withMount(['--bind', '-o', 'ro', store], readOnly, () => {
      const before = treeState(readOnly);
      const started = Date.now();
      const run = freshRun(pr, { VISUAL_UAT_BASELINE_STORE: readOnly });
      expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
      expect(run.stdout).toContain(
        `visual-uat: warning: the baseline store ${readOnly} is read-only (EROFS): its baselines are read, and this run stores none`,
      );
      expect(run.stdout).toMatch(
        /visual-uat: baseline: \d+ of \d+ tests rendered on the base \(tests\/flows\.spec\.ts changed: pricing\); [1-9]\d* from the store/,
      );
      expect(run.stdout + run.stderr).not.toMatch(/ENOENT|EROFS: read-only file system| {4}at /);
      const results = readLatest(pr);
      expect(results.timestamp).toBeGreaterThan(started);
      expect(statuses(results)).toEqual(DEMO_STATUSES);
      const context = JSON.parse(fs.readFileSync(path.join(pr, '.visual-uat', 'run', 'context.json'), 'utf8'));
      expect(context.baselinePending).toBeUndefined();
      expect(treeState(readOnly)).toEqual(before);
    });
  });

  test('a store whose disk is full says so in one line, is not taken for "another writer won", and the verdicts stand', () => {
    const pr = demoClone(repo, 'feature/pricing');
    const full = path.join(os.tmpdir(), `visual-uat-full-${process.pid}-${Date.now()}`);
    withMount(['-t', 'tmpfs', '-o', 'size=24k', 'tmpfs'], full, () => {
      const run = freshRun(pr, { VISUAL_UAT_BASELINE_STORE: full });
      expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
      expect(run.stdout).toMatch(
        new RegExp(
          `visual-uat: warning: the baseline store ${full} could not take what this run rendered \\(ENOSPC\\): \\d+ tests? not stored; free space or make it writable, or point baselineStore \\(or VISUAL_UAT_BASELINE_STORE\\) at another folder`,
        ),
      );
      expect(run.stdout).not.toMatch(/baseline store: \d+ tests? stored/);
      expect(statuses(readLatest(pr))).toEqual(DEMO_STATUSES);
    });
  });

  test('a stray .DS_Store in the store, a commit folder and a test folder is ignored', () => {
    for (const dir of [
      store,
      ...fs
        .readdirSync(store)
        .filter((name) => /^[0-9a-f]{40}$/.test(name))
        .flatMap((commit) => [
          path.join(store, commit),
          ...fs.readdirSync(path.join(store, commit)).map((test) => path.join(store, commit, test)),
        ]),
    ])
      fs.writeFileSync(path.join(dir, '.DS_Store'), 'Finder was here');
    const pr = demoClone(repo, 'feature/pricing');
    const run = freshRun(pr, { VISUAL_UAT_BASELINE_STORE: store });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
    expect(run.stdout).toMatch(/visual-uat: baseline: 0 of \d+ tests rendered on the base; \d+ from the store/);
    expect(statuses(readLatest(pr))).toEqual(DEMO_STATUSES);
  });
});

test('a run killed while it stores what its pass rendered leaves the rest to the next run, which stores them first and is warm', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-store-'));
  const killed = await startDetachedRun(repo, { VISUAL_UAT_BASELINE_STORE: store, VISUAL_UAT_KILL_AT: 'store' }).done;
  expect(killed.signal, killed.output).toBe('SIGKILL');
  killProcessesIn(repo);
  expect(storedEntries(store)).toBe(1);
  const next = runPlaywright(repo, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
  expect(next.status, next.stdout + next.stderr).toBe(gateExit(readLatest(repo)));
  expect(next.stdout).toMatch(/visual-uat: baseline store: [2-9] tests stored for/);
  expect(next.stdout).toContain("visual-uat: baselines from the store's index of this suite");
  expect(next.stdout.indexOf('baseline store: ')).toBeLessThan(next.stdout.indexOf("baselines from the store's index"));
  const stored = storedEntries(store);
  expect(stored).toBeGreaterThan(1);
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  // A pull request's run on another machine (the same test side: the same suite key) is warm too.
  const pr = demoClone(repo, 'feature/pricing');
  const fromStore = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
  expect(fromStore.stdout).toContain("visual-uat: baselines from the store's index of this suite");
});

test('a store set inside the repository ignores itself: git status stays clean, and record runs again on its own tree', () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const main = demoClone(repo, 'main');
  const env = { VISUAL_UAT_BASELINE_STORE: 'ci-baselines' };
  const first = spawnSync(process.execPath, [visualUatCli(main), 'record'], {
    cwd: main,
    env: fixtureEnv(env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(first.status, first.stdout + first.stderr).toBe(0);
  expect(fs.existsSync(path.join(main, 'ci-baselines', '.gitignore'))).toBe(true);
  expect(git(main, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  const second = spawnSync(process.execPath, [visualUatCli(main), 'record'], {
    cwd: main,
    env: fixtureEnv(env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(second.status, second.stdout + second.stderr).toBe(0);
  expect(second.stdout).toMatch(/visual-uat: recorded the baselines of [0-9a-f]{8}: 0 tests stored, \d+ there already/);
});

test("on Playwright before 1.56, record says a run will not read what it stores; a pull request's run says it renders every test and stores the suite's index, and the next run takes it", () => {
  const repo = createFixtureRepo({ fixture: 'demo-app', modules: false });
  provideModules(repo, installOnce({ '@playwright/test': '1.52.0', openai: '6.49.0' }, pluginTarball()));
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-store-'));
  const main = cloneOn(repo, 'main', installOnce({ '@playwright/test': '1.52.0', openai: '6.49.0' }, pluginTarball()));
  expect(record(main, store)).toContain(
    '(a run on Playwright 1.52.0 will not read them: taking tests from the store needs --test-list, Playwright 1.56 or later)',
  );
  const run = runPlaywright(repo, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toContain(
    `visual-uat: the baseline store gives no single test here: Playwright 1.52.0 cannot run a list of tests (--test-list, 1.56 and later), so the baseline pass renders every test, then stores them as this suite's index, which the next run of the same test files on `,
  );
  expect(run.stdout).toContain(`; upgrade @playwright/test to 1.56 or later to take single tests from ${store}`);
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  const next = runPlaywright(repo, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
  expect(next.stdout).toContain("visual-uat: baselines from the store's index of this suite");
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
});
