import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { readApprovals } from '../../src/files/approvals-file';
import { runPlaywrightAsync, runVisualUatAsync } from '../support/playwright-run';
import { startReview } from '../support/review-run';
import { checkpoint, gateExit, readLatest } from '../support/results';
import type { RunResult } from '../../src/report';

/**
 * Every changed region is accounted for, from the packed plugin on a real repository. The
 * dashboard-app's branch recolours the title in the banner (styles.css) and corrects one day of
 * the sales a canvas draws (chart.js): the bar's pixels change, and no element's styles, box or
 * text do. The banner's background picture is served by each side's own server, on its own port.
 * A second commit deletes the sale notice (which notice.js makes dismissible) from the orders
 * page (orders.html), above nine order cards drawn over a fixed pattern (they move up and are
 * redrawn where they land), and recolours the bar around a live ticker the checkpoint masks
 * (ticker.js adds an order every 250 ms).
 */

test.describe('a checkpoint with a region nothing explains', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let results: RunResult;
  let stdout: string;

  test.beforeAll(async () => {
    repo = createFixtureRepo({ fixture: 'dashboard-app' });
    const run = await runPlaywrightAsync(repo, ['test']);
    stdout = run.stdout;
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    results = readLatest(repo);
  });

  test("the words name the title's colour from the commit that changed it, and not the banner's picture, whose URL differs only by the servers' ports", () => {
    const { explanation } = checkpoint(results, 'sales', 'dashboard').checkpoint;
    expect(
      explanation!.changes.map((change) => change.words),
      JSON.stringify(explanation, null, 2),
    ).toEqual([
      expect.stringMatching(
        /^\.title: color #fff → #ffd166 — public\/styles\.css \(commit [0-9a-f]{7,} Dashboard: the title in the brand yellow/,
      ),
    ]);
  });

  test("the bar's region is named as not explained, in the results and under the table's row", () => {
    const { checkpoint: dashboard } = checkpoint(results, 'sales', 'dashboard');
    const explanation = dashboard.explanation!;
    const regions = dashboard.diffMetrics.changedRegions;
    expect(explanation.regionCount).toBe(regions.length);
    // The canvas sits at (48, 128), 602×302 with its border: the corrected bar is inside it, the title is not.
    expect(explanation.unexplained!.length).toBeGreaterThan(0);
    for (const region of explanation.unexplained!) expect(region.y, JSON.stringify(explanation.unexplained)).toBeGreaterThanOrEqual(128);
    const explained = explanation.changes.flatMap((change) => change.regions ?? []);
    expect(
      new Set([...explained.map((i) => JSON.stringify(regions[i])), ...explanation.unexplained!.map((r) => JSON.stringify(r))]).size,
    ).toBe(regions.length);
    const [first] = explanation.unexplained!;
    expect(stdout).toContain(
      `↳ ${explanation.unexplained!.length} of ${regions.length} changed regions not explained: at (${first.x}, ${first.y}) ${first.width}×${first.height}`,
    );
  });

  test('the orders page: the notice from the commit that deleted it, the cards it moved said as its shift, and no word of what the mask covers', () => {
    const { checkpoint: orders } = checkpoint(results, 'orders', 'orders');
    const explanation = orders.explanation!;
    const said = JSON.stringify(explanation, null, 2);
    // notice.js gave the notice a class no line writes (`is-dismissible`): the deleted tag is still its own.
    const notice = explanation.changes.find(
      (change) => change.kind === 'removed' && change.path.endsWith('>section.notice.is-dismissible'),
    )!;
    expect(notice, said).toMatchObject({
      cause: {
        file: 'public/orders.html',
        commit: expect.stringContaining('the spring sale notice is over'),
        line: '<section class="notice">',
      },
    });
    expect(notice.words).toMatch(/ removed \(\d+×\d+\); what is below it moved up \d+ px — public\/orders\.html \(commit /);
    // The cards below the notice's old place are redrawn over their fixed pattern: the notice's shift, not regions nobody explains.
    expect(explanation.unexplained, said).toEqual([]);
    expect(notice.regions!.length, said).toBeGreaterThan(1);
    const bar = explanation.changes.find((change) => change.path.endsWith('>div.ticker-bar'))!;
    expect(bar, said).toMatchObject({ properties: [{ property: 'background-color' }], cause: { file: 'public/styles.css' } });
    expect(
      explanation.changes.filter((change) => change.path.includes('>div.ticker')).map((change) => change.path),
      said,
    ).toEqual([bar.path]);
    // The masked feed's orders never reach the ARIA tree compared, however many it held at each capture.
    expect(JSON.stringify(orders.signals), said).not.toMatch(/Order #\d+/);
  });

  test('the HTML report names the unexplained regions in an annotation of their own', async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'sales' }).click();
    const annotations = page.getByTestId('test-case-annotations');
    await expect(annotations).toContainText('visual-unexplained');
    await expect(annotations).toContainText(/dashboard: \d+ of \d+ changed regions not explained: at \(/);
  });

  test('the review page outlines the unexplained regions apart, and says so beside the words', async ({ page }) => {
    const review = await startReview(repo);
    try {
      await page.goto(review.url);
      // The title's colour is on the orders page too: one edit, one group, whose card shows the checkpoint chosen in it.
      const shown = page.getByRole('button', { name: 'dashboard.spec.ts › sales › dashboard' });
      const entry = page.getByRole('article').filter({ has: shown });
      await shown.click();
      await expect(shown).toHaveAttribute('aria-pressed', 'true');
      await expect(entry.getByRole('list', { name: 'What changed' })).toContainText(/\d+ of \d+ changed regions not explained: at \(/);
      await expect(entry.getByText('Outlined dashed red: the changed regions the words above do not explain.')).toBeVisible();
      const { explanation } = checkpoint(results, 'sales', 'dashboard').checkpoint;
      await expect(entry.locator('.region.unexplained')).toHaveCount(explanation!.unexplained!.length);
    } finally {
      expect(await review.stop()).toBe(0);
    }
  });

  test('an approval of the checkpoint says, in the approvals file, which regions it approved on the images alone', async () => {
    const approved = await runVisualUatAsync(repo, ['approve', '--all']);
    expect(approved.status, approved.stdout + approved.stderr).toBe(0);
    const { explanation } = checkpoint(results, 'sales', 'dashboard').checkpoint;
    const [first] = explanation!.unexplained!;
    const words = `${explanation!.unexplained!.length} of ${explanation!.regionCount} changed regions not explained: at (${first.x}, ${first.y}) ${first.width}×${first.height}`;
    expect(approved.stdout).toContain(`note: dashboard.spec.ts › sales › dashboard: ${words}`);
    const approval = readApprovals(repo).find((decision) => decision.checkpoints.some((c) => c.checkpoint === 'dashboard'))!;
    expect(approval.checkpoints).toContainEqual(
      expect.objectContaining({
        checkpoint: 'dashboard',
        unexplained: expect.stringMatching(new RegExp(`^${words.replace(/[()]/g, '\\$&')}`)),
      }),
    );
    expect(fs.readFileSync(path.join(repo, 'visual-uat.approvals.json'), 'utf8')).toContain('"unexplained":');
  });
});
