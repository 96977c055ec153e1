import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * Fractional layout under element checkpoints: a sale page with a fixed header, gradient cards
 * with shadows and a footer; the branch inserts a banner 120.5 px tall, so everything below it
 * sits half a pixel lower. The page changed where the banner is, and nowhere else: the card and
 * the footer, captured by locator at their new half-pixel positions, are the same images, and so
 * is a badge that pulses while it is measured.
 */

const PAGE = `<!doctype html>
<html><head><title>Sale</title><style>
body { margin: 0; font-family: sans-serif; }
header { position: fixed; top: 0; left: 0; right: 0; height: 48px; padding: 12px; background: #234; color: #fff; box-shadow: 0 2px 8px rgba(0, 0, 0, .4); }
main { padding-top: 72px; }
.card { height: 240.5px; margin: 16px; padding: 16px; border-radius: 12px; background: linear-gradient(135deg, #fdfbfb, #c3cfe2); box-shadow: 0 4px 12px rgba(0, 0, 0, .2); }
footer { padding: 24px; background: #eee; }
.pulse { display: inline-block; padding: 4px 10px; border-radius: 10px; background: #2a6df4; color: #fff; animation: pulse .6s infinite alternate ease-in-out; }
@keyframes pulse { from { transform: translateY(0) scale(1); } to { transform: translateY(24px) scale(1.4); } }
</style></head>
<body><header>Acme sale</header><main><!-- banner -->
<section class="card" id="first"><h2>Plans</h2><p>Three plans, one price each, billed monthly.</p></section>
<section class="card"><h2>Teams <span class="pulse">New</span></h2><p>Seats for everyone who plans, ships and measures.</p></section>
<section class="card"><h2>Support</h2><p>Answers within a day, every day of the year.</p></section>
</main><footer>© Acme · Made in Lyon</footer></body></html>
`;

const SPEC = `import { test } from 'visual-uat';

test('sale', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/sale');
  await screenshotCheckpoint('page');
  await screenshotCheckpoint('card', { locator: page.locator('#first') });
  await screenshotCheckpoint('footer', { locator: page.locator('footer') });
  // Moving while it is measured: captured as Playwright captures it, with its animation settled.
  await screenshotCheckpoint('pulse', { locator: page.locator('.pulse') });
});
`;

test('a half-pixel banner changes the page where it is; the card and the footer below it stay the same images', async () => {
  const repo = createFixtureRepo({
    fixture: 'demo-app',
    commits: 0,
    prepare: (dir) => {
      fs.writeFileSync(path.join(dir, 'public', 'sale.html'), PAGE);
      fs.writeFileSync(path.join(dir, 'tests', 'sale.spec.ts'), SPEC);
    },
  });
  const page = path.join(repo, 'public', 'sale.html');
  fs.writeFileSync(
    page,
    PAGE.replace(
      '<!-- banner -->',
      '<div style="height: 120.5px; margin: 16px; background: #fe8; font-size: 22px">Spring sale: 20% off every plan</div>',
    ),
  );
  git(repo, ['commit', '-q', '-am', 'Spring sale banner']);

  const run = runPlaywright(repo, ['test', 'tests/sale.spec.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'sale › page': 'needs_review',
    'sale › card': 'unchanged',
    'sale › footer': 'unchanged',
    'sale › pulse': 'unchanged',
  });
  const [banner, ...others] = checkpoint(results, 'sale', 'page').checkpoint.diffMetrics.changedRegions;
  expect(others).toEqual([]);
  expect(banner).toMatchObject({ kind: 'added', x: 0 });
  // Everything below moved by the banner, 120.5 px, and one 16 px margin (the other collapses).
  expect(Math.abs(banner.height - 136.5)).toBeLessThanOrEqual(1.5);
});
