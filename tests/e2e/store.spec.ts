import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, playwrightCli, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { cloneOn } from '../support/clones';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * The per-test baseline store on the suite-app fixture (a server started by absolute path, a page
 * object behind a path alias, a conditional checkpoint, a new test that fails on the base): main
 * records its checkpoints into a store folder, a pull request's run on a fresh clone takes them
 * from it, and only what changed is rendered on the base.
 */

const COLD = {
  'about › about-header': 'unchanged',
  'about › maintenance-notice': 'missing',
  'home-po › home': 'needs_review',
  'promo banner › promo': 'new',
};

const baseLog = (repo: string) => fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8');

test.describe('per-test baseline store', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let store: string;
  let pr: string;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'suite-app' });
    store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-store-'));
  });

  test('main records, and a pull request on a fresh clone renders on the base only its new test, with the cold verdicts', () => {
    const cold = runPlaywright(repo, ['test']);
    expect(cold.status, cold.stdout + cold.stderr).toBe(gateExit(readLatest(repo)));
    expect(statuses(readLatest(repo))).toEqual(COLD);

    // main's CI: a checkout of main records its checkpoints; the store is what it saves.
    const main = cloneOn(repo, 'main');
    // What an earlier `playwright test` in the same job leaves, in a project whose .gitignore does not list it: not a change of main.
    for (const file of ['playwright-report/index.html', 'test-results/.last-run.json']) {
      fs.mkdirSync(path.dirname(path.join(main, file)), { recursive: true });
      fs.writeFileSync(path.join(main, file), '{}');
    }
    const recorded = spawnSync(process.execPath, [visualUatCli(main), 'record'], {
      cwd: main,
      env: fixtureEnv({ VISUAL_UAT_BASELINE_STORE: store }),
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
    const mainCommit = git(repo, ['rev-parse', 'main']);
    expect(recorded.stdout).toContain(
      `visual-uat: recorded the baselines of ${mainCommit.slice(0, 8)}: 2 tests stored, 0 there already; 2 tests that took no checkpoint noted, so a sharded run need not render them on the base`,
    );
    // Nothing was compared on main: the summary says so instead of counting its checkpoints unchanged.
    expect(recorded.stdout).toMatch(
      new RegExp(
        `visual-uat: \\d+ checkpoints? taken on the base itself \\(main @ ${mainCommit.slice(0, 8)}, clean tree\\): nothing compared`,
      ),
    );
    expect(recorded.stdout).not.toMatch(/\d+ unchanged/);

    // The pull request's CI: another fresh clone, the store restored.
    pr = cloneOn(repo, 'feature/pricing');
    const run = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
    expect(run.stdout).toContain(
      'visual-uat: baseline: 1 of 3 tests rendered on the base (not in the store: promo banner); 2 from the store',
    );
    // The store gives most tests: the one left renders beside the current tests, even on 2 cores.
    expect(run.stdout).toMatch(/visual-uat: the baseline pass runs beside the current tests \(1 test, 1 worker, on \d+ cores\)/);
    expect(baseLog(pr)).toContain('promo');
    expect(baseLog(pr)).not.toMatch(/home-po|› about/);
    expect(statuses(readLatest(pr))).toEqual(COLD);
    expect(readLatest(pr).baseCommit).toBe(mainCommit);
    // The stored baseline brings its layout record: the change is explained as in the cold run.
    const explained = (dir: string) => checkpoint(readLatest(dir), 'home-po', 'home').checkpoint.explanation;
    expect(explained(repo)?.changes.length).toBeGreaterThan(0);
    expect(explained(pr)).toEqual(explained(repo));
  });

  test('a sharded pull request run renders on the base neither the stored tests nor those that take no checkpoint, and its blob merges to the cold verdicts', () => {
    // A shard writing blobs has no check after its tests: it renders every listed test the store lacks.
    const shard = cloneOn(repo, 'feature/pricing');
    const blobs = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-blobs-'));
    const run = runPlaywright(shard, ['test', '--shard=1/1', '--reporter=blob'], {
      VISUAL_UAT_BASELINE_STORE: store,
      PLAYWRIGHT_BLOB_OUTPUT_DIR: blobs,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'visual-uat: baseline: 1 of 5 tests rendered on the base (not in the store: promo banner); 4 from the store',
    );
    expect(baseLog(shard)).toContain('promo');
    expect(baseLog(shard)).not.toMatch(/product count|about link|home-po|› about/);
    // The merge job's machine has no .visual-uat: the blob carries the images, although the
    // fixture keeps no passing test's output folder (preserveOutput: 'failures-only').
    fs.rmSync(path.join(shard, '.visual-uat'), { recursive: true, force: true });
    fs.rmSync(path.join(shard, 'test-results'), { recursive: true, force: true });
    const merged = spawnSync(process.execPath, [playwrightCli(shard), 'merge-reports', '--reporter=visual-uat/reporter', blobs], {
      cwd: shard,
      env: fixtureEnv(),
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(merged.status, merged.stdout + merged.stderr).toBe(gateExit(readLatest(shard)));
    expect(statuses(readLatest(shard))).toEqual(COLD);
  });

  test('editing one spec renders on the base only its tests, and says why; a comment renders nothing', () => {
    const spec = path.join(pr, 'tests', 'po.spec.ts');
    fs.appendFileSync(spec, '// a comment\n');
    const commented = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(commented.status, commented.stdout + commented.stderr).toBe(gateExit(readLatest(pr)));
    expect(commented.stdout).toContain(
      'visual-uat: baseline: 1 of 3 tests rendered on the base (not in the store: promo banner); 2 from the store',
    );
    expect(statuses(readLatest(pr))).toEqual(COLD);

    fs.writeFileSync(
      spec,
      fs.readFileSync(spec, 'utf8').replace('await home.open();', 'await home.open();\n  await expect(page).toHaveURL(/\\/$/);'),
    );
    const run = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
    expect(run.stdout).toContain(
      'visual-uat: baseline: 2 of 3 tests rendered on the base (tests/po.spec.ts changed: home-po; not in the store: promo banner); 1 from the store',
    );
    expect(baseLog(pr)).toContain('home-po');
    expect(baseLog(pr)).not.toContain('› about');
    // Its render before the edit, stored, settles its captures that look the same (the new test has none).
    const earlier = JSON.parse(fs.readFileSync(path.join(pr, '.visual-uat', 'run', 'earlier-renders.json'), 'utf8'));
    expect(Object.keys(earlier)).toEqual([expect.stringMatching(/home-po$/)]);
    expect(Object.values(earlier)).toEqual([{ entry: expect.stringContaining(store), settled: ['home'] }]);
    expect(statuses(readLatest(pr))).toEqual(COLD);
  });

  test("in a fullyParallel suite, editing one test leaves its neighbours' baselines in the store", () => {
    const config = path.join(pr, 'playwright.config.ts');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("testDir: 'tests',", "testDir: 'tests',\n    fullyParallel: true,"));
    const parallel = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(parallel.status, parallel.stdout + parallel.stderr).toBe(gateExit(readLatest(pr)));
    expect(parallel.stdout).toContain('visual-uat: baseline: 3 of 3 tests rendered on the base (playwright.config.ts changed');
    // The test beside home-po in its file, edited: home-po's key leaves it out.
    const spec = path.join(pr, 'tests', 'po.spec.ts');
    fs.writeFileSync(spec, fs.readFileSync(spec, 'utf8').replace("await page.goto('/');", "await page.goto('/?from=edit');"));
    const run = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
    expect(run.stdout).toContain(
      'visual-uat: baseline: 1 of 3 tests rendered on the base (not in the store: promo banner); 2 from the store',
    );
    expect(statuses(readLatest(pr))).toEqual(COLD);

    // A data file under the testDir may be read by path by any test: all of them render again.
    fs.mkdirSync(path.join(pr, 'tests', 'data'), { recursive: true });
    fs.writeFileSync(path.join(pr, 'tests', 'data', 'products.json'), '["Lamp", "Desk", "Chair"]\n');
    const data = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(data.status, data.stdout + data.stderr).toBe(gateExit(readLatest(pr)));
    expect(data.stdout).toContain(
      'visual-uat: baseline: 3 of 3 tests rendered on the base (tests/data/products.json changed: about, home-po; not in the store: promo banner); 0 from the store',
    );
  });

  test('an entry whose test changed is not used, nor one whose image was altered', () => {
    // The same checkpoint name on another element: the stored header would make it changed.
    const about = path.join(pr, 'tests', 'about.spec.ts');
    fs.writeFileSync(about, fs.readFileSync(about, 'utf8').replace("page.locator('header.top')", "page.locator('footer')"));
    const stored = fs
      .readdirSync(store, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(`${path.sep}home.png`));
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored) fs.appendFileSync(path.join(store, file), 'x');
    const run = runPlaywright(pr, ['test'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(pr)));
    expect(run.stdout).toContain(
      'visual-uat: baseline: 3 of 3 tests rendered on the base (tests/about.spec.ts changed: about; the stored image of "home" is altered: home-po; not in the store: promo banner); 0 from the store',
    );
    expect(statuses(readLatest(pr))).toEqual({ ...COLD, 'about › about-header': 'unchanged' });

    // A run of a functional test only compares nothing, says so, and its results replace the last run's.
    const functional = runPlaywright(pr, ['test', '--grep', 'the about link'], { VISUAL_UAT_BASELINE_STORE: store });
    expect(functional.status, functional.stdout + functional.stderr).toBe(gateExit(readLatest(pr)));
    expect(functional.stdout).toContain('visual-uat: no test took a checkpoint: nothing compared');
    expect(readLatest(pr).tests).toEqual([]);
  });
});
