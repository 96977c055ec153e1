import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git } from '../../scripts/fixture-repo';
import { runPlaywrightAsync, runVisualUatAsync } from '../support/playwright-run';
import { checkpoint, gateExit, readLatest, statuses } from '../support/results';

/**
 * A steady gate on a page built the way a Bootstrap + jQuery portfolio is (steady-app): a fixed
 * navbar whose `.scrolled` class and min-height change on scroll with a transition, captured full
 * page; a test that leaves the pointer on the menu it opened, at a fixed spot; testimonials a slow
 * API delivers after the load event. The branch makes one real change (a new footer, roomier navbar
 * links, which move the menu from under the parked pointer: the menu's own capture differs only by
 * the item highlighted under it on the base side). The baselines are taken by a first run under CPU load; after the change is
 * approved, ten warm runs each rule every checkpoint as before and exit 0.
 */

const WARM_RUNS = 10;
const CHECKPOINTS = ['home, scrolled to the work › home', 'services menu › menu', 'testimonials › quotes'];
const POINTER = 'pointer over `.dropdown-item` on the base side only';

/** A busy loop for the length of a run: the baselines are taken on a machine under another load than the warm runs. */
function loadCpu(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

test.describe('a steady gate over warm runs', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    repo = createFixtureRepo({ fixture: 'steady-app' });
    const burner = loadCpu();
    let first: Awaited<ReturnType<typeof runPlaywrightAsync>>;
    try {
      first = await runPlaywrightAsync(repo, ['test']);
    } finally {
      burner.kill();
    }
    const results = readLatest(repo);
    expect(first.status, first.stdout + first.stderr).toBe(1);
    // The footer is the one change the images show; the menu differs only by the item under the pointer.
    expect(statuses(results), JSON.stringify(results.tests, null, 1)).toEqual({
      [CHECKPOINTS[0]]: 'needs_review',
      [CHECKPOINTS[1]]: 'unsteady',
      [CHECKPOINTS[2]]: 'unchanged',
    });
    const menu = checkpoint(results, 'services menu', 'menu').checkpoint;
    expect(menu.reason).toContain(POINTER);
    expect(menu.reason).toContain('park the pointer before the checkpoint (`await page.mouse.move(0, 0)`)');
    expect(menu.group).toBeNull();
    const approved = await runVisualUatAsync(repo, ['approve', '--all']);
    expect(approved.status, approved.stdout + approved.stderr).toBe(0);
    git(repo, ['add', 'visual-uat.approvals.json']);
    git(repo, ['commit', '-q', '-m', 'Approve the new footer']);
  });

  test(`${WARM_RUNS} warm runs: the approved change stays approved, nothing else is a change, every run exits 0`, async () => {
    test.setTimeout(240_000);
    for (let run = 1; run <= WARM_RUNS; run++) {
      // The first warm run says where its time went: the report takes the two differing pairs' comparisons from the workers.
      const warm = await runPlaywrightAsync(repo, ['test'], run === 1 ? { VISUAL_UAT_DEBUG: 'timing' } : {});
      const results = readLatest(repo);
      const said = `warm run ${run}: ${JSON.stringify(results.tests.map((t) => t.checkpoints.map((c) => [c.name, c.status, c.reason, c.retakes])))}\n${warm.stdout}${warm.stderr}`;
      expect(statuses(results), said).toEqual({ [CHECKPOINTS[0]]: 'changed', [CHECKPOINTS[1]]: 'unsteady', [CHECKPOINTS[2]]: 'unchanged' });
      expect(warm.status, said).toBe(0);
      expect(gateExit(results)).toBe(0);
      // The captures were compared with their baselines while the pages were alive; the explained ones ended without waiting out the timeout.
      for (const test of results.tests) for (const one of test.checkpoints) expect(one.retakes?.captures, said).toBeGreaterThanOrEqual(1);
      expect(checkpoint(results, 'services menu', 'menu').checkpoint.retakes!.firstDifference, said).toContain(POINTER);
      if (run === 1) expect(warm.stderr, said).toMatch(/compare a pair: the worker's comparison taken\s+\d+ ms \(2 times\)/);
    }
  });
});
