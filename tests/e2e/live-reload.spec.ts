import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, freePortSync, runPlaywright } from '../../scripts/fixture-repo';
import { worktreeHomes } from '../../src/config/paths';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * A Vite dev server as projects run it (fixtures/vite-reload-app): `npm run dev`, the port fixed
 * in vite.config.js, and a plugin that reloads every open page on any change its watcher sees.
 * Two workers: one test holds its page open while the other takes its checkpoints, and fails if
 * that page reloads. The branch restyles the metric cards.
 */

const EXPECTED = {
  'a page held open › held': 'unchanged',
  'overview › metrics': 'needs_review',
  'overview › header': 'unchanged',
  'overview › page': 'needs_review',
};
const FIX = "baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' }";

test.describe.configure({ mode: 'parallel' });

/** The fixture with the app's port (in vite.config.js and the config's url) moved to a free one, and a log of the watcher's events. */
function viteRepo(port: number, options: { fixed: boolean }): { repo: string; watchLog: string } {
  const watchLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-watch-')), 'events.log');
  const repo = createFixtureRepo({
    fixture: 'vite-reload-app',
    branch: 'feature/cards',
    prepare(dir) {
      for (const file of ['vite.config.js', 'playwright.config.ts']) {
        const full = path.join(dir, file);
        fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(/\b3000\b/, String(port)));
      }
      if (options.fixed) setFix(dir);
    },
  });
  return { repo, watchLog };
}

function setFix(dir: string): void {
  const config = path.join(dir, 'playwright.config.ts');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("{ baseBranch: 'main' }", `{ baseBranch: 'main', ${FIX} }`));
}

function stable(repo: string): (boolean | null)[] {
  return readLatest(repo).tests.flatMap((t) => t.checkpoints.map((c) => c.stable));
}

/** What the run says of each changed checkpoint's cause: the fixture keeps no passing test's output folder (preserveOutput), where Playwright copied the base layout record. */
function explained(repo: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const test of readLatest(repo).tests)
    for (const c of test.checkpoints)
      if (c.status === 'needs_review')
        out[`${test.title} › ${c.name}`] = c.explanation?.note ?? (c.explanation?.changes.length ? null : 'no change named');
  return out;
}

test('a page held open while another worker writes its checkpoints never reloads, on the first run and on the third', async () => {
  const port = freePortSync();
  const { repo, watchLog } = viteRepo(port, { fixed: true });
  for (const run of [1, 2, 3]) {
    // The cold run's baseline pass runs beside the current tests, as on 4 cores and more: its writes too must stay out of the dev server's sight.
    const result = runPlaywright(repo, ['test'], { WATCH_LOG: watchLog, VISUAL_UAT_OVERLAP: run === 1 ? '1' : '0' });
    const events = fs.existsSync(watchLog) ? fs.readFileSync(watchLog, 'utf8') : '';
    expect(result.status, `run ${run}:\n${result.stdout}${result.stderr}\nwatcher events:\n${events}`).toBe(gateExit(readLatest(repo)));
    expect(statuses(readLatest(repo))).toEqual(EXPECTED);
    expect(stable(repo)).toEqual([true, true, true, true]);
    expect(explained(repo)).toEqual({ 'overview › metrics': null, 'overview › page': null });
    if (run === 1) expect(result.stdout).toContain('the baseline pass runs beside the current tests');
  }
  // The base worktree and what the pass beside wrote were in <tmp>/visual-uat-worktrees/<id>/: nothing of it is left.
  expect(fs.existsSync(worktreeHomes(path.join(repo, '.visual-uat')).outside)).toBe(false);
  expect(fs.existsSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'))).toBe(true);
});

test('a Vite port set in vite.config.js: the stop names the port, where the base listened and the fix; the log holds the server output', async () => {
  const port = freePortSync();
  const { repo } = viteRepo(port, { fixed: false });
  const run = runPlaywright(repo, ['test']);
  expect(run.status).toBe(1);
  const output = run.stdout + run.stderr;
  const stop =
    /visual-uat: the baseline pass failed: the base app's server \(`npm run dev`\) did not answer on the base's port \((\d+)\): it listened on port (\d+) instead \(http:\/\/localhost:\2\/\); (.*)/.exec(
      output,
    );
  expect(stop, output).not.toBeNull();
  expect(Number(stop![2])).not.toBe(port);
  expect(stop![3]).toBe(
    `the app's port, ${port}, is set in vite.config.js, not read from PORT: give the base its own command with the baseWebServer option (e.g. ${FIX}); ` +
      "reading process.env.PORT in vite.config.js also works, but only once that change is in the base commit (the base runs the base commit's files); " +
      'see .visual-uat/logs/baseline.log. Nothing was compared, so the run stops (to run anyway with every checkpoint new: allowMissingBaselines: true or VISUAL_UAT_ALLOW_MISSING_BASELINES=1)',
  );
  const log = fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8');
  expect(log).toMatch(/\[WebServer\].*VITE v\d/);
  expect(log).toContain(`Port ${port} is in use`);

  setFix(repo);
  const watchLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-watch-')), 'events.log');
  const fixed = runPlaywright(repo, ['test'], { WATCH_LOG: watchLog });
  const events = fs.existsSync(watchLog) ? fs.readFileSync(watchLog, 'utf8') : '';
  expect(fixed.status, `${fixed.stdout}${fixed.stderr}\nwatcher events:\n${events}`).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual(EXPECTED);
  expect(stable(repo)).toEqual([true, true, true, true]);
});
