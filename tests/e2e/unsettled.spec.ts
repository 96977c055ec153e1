import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, gateExit } from '../support/results';

/**
 * A capture that never settles (fixtures/real-site with a counter ticking in the corner of the
 * home page, uncommitted): its difference may be the page still moving, not the branch, and every
 * place that shows the checkpoint must say so, and where; its ARIA tree is still compared.
 */
test("a capture that never settles: its reason, its group's and the table say so and where, and the ARIA comparison still runs", async () => {
  const repo = createFixtureRepo({ fixture: 'real-site', commits: 0 });
  const home = path.join(repo, 'public', 'index.html');
  const ticker =
    '<p id="tick" style="position: fixed; bottom: 16px; right: 16px; z-index: 1000; margin: 0; padding: 8px; font: 32px monospace; background: #000; color: #fff">0</p>' +
    '<script>let n = 0; setInterval(() => (document.getElementById("tick").textContent = String(++n)), 40);</script>';
  fs.writeFileSync(home, fs.readFileSync(home, 'utf8').replace('</body>', `${ticker}\n</body>`));
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  const found = checkpoint(results, 'home', 'home').checkpoint;
  expect(found.stable).toBe(false);
  expect(found.status).toBe('needs_review');
  const note =
    /^the current capture never settled: the area at \((\d+), (\d+)\), (\d+)×(\d+) px, still changed between its last two captures; no evaluator configured$/.exec(
      found.reason,
    );
  expect(note, found.reason).not.toBeNull();
  // The counter's corner: a few dozen pixels, not the page.
  expect(Number(note![3])).toBeLessThan(120);
  expect(Number(note![4])).toBeLessThan(120);
  expect(run.stdout).toMatch(/needs_review .*home › home .* the current capture never/);
  // The review page and the summary's group lines show the group's reason.
  expect(results.groups.find((group) => group.id === found.group)?.reason).toBe(found.reason);
  expect(found.signals.ariaDiff).toMatch(/^\+.*paragraph/m);
});
