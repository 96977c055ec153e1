import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, readLatest, gateExit } from '../support/results';
import type { RunResult } from '../../src/report';

/**
 * Every change explained from the layout records both sides took at capture, without a model.
 * The promo-app's branch adds a promo banner (index.html), highlights the Pro plan and restyles
 * the footer (two commits that both change public/styles.css). A second run breaks the server's
 * content type for style sheets: every page loses its styles,
 * and nothing the branch changed mentions the elements that show it.
 */

test.describe('explanations on the promo-app branch', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let results: RunResult;
  let stdout: string;

  test.beforeAll(async () => {
    repo = createFixtureRepo({ fixture: 'promo-app' });
    const run = await runPlaywrightAsync(repo, ['test']);
    stdout = run.stdout;
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    results = readLatest(repo);
  });

  test('the footer: its flex-direction and padding, from the commit that restyled it in styles.css', () => {
    const footer = checkpoint(results, 'about footer', 'site-footer').checkpoint.explanation!;
    const change = footer.changes.find((c) => c.element === 'footer')!;
    expect(change, JSON.stringify(footer, null, 2)).toBeDefined();
    expect(change.properties).toEqual(
      expect.arrayContaining([
        { property: 'flex-direction', before: 'row', after: 'column' },
        { property: 'padding', before: '16px 48px', after: '8px 48px' },
      ]),
    );
    expect(change.cause).toMatchObject({ file: 'public/styles.css', commit: expect.stringMatching(/^[0-9a-f]{7,} Footer: the copyright/) });
    expect(change.words).toContain('footer: flex-direction row → column');
    expect(change.words).toContain('padding 16px 48px → 8px 48px');
    // The group of the four footers says the same.
    const group = results.groups.find((g) => g.members.some((m) => m.endsWith('about footer › site-footer')))!;
    expect(group.explanation?.summary).toContain('footer: flex-direction row → column');
  });

  test('the banner: added above the main content, from the commit that put it in index.html', () => {
    const home = checkpoint(results, 'home', 'home').checkpoint.explanation!;
    const promo = home.changes.find((c) => c.element === '.promo')!;
    expect(promo, JSON.stringify(home, null, 2)).toMatchObject({
      kind: 'added',
      cause: { file: 'public/index.html', commit: expect.stringContaining('promo banner') },
    });
    expect(promo.words).toMatch(/^\.promo added \(\d+×\d+\) above main /);
  });

  test('the Pro plan: its border, from the commit that highlighted it', () => {
    const plans = checkpoint(results, 'pricing', 'plans').checkpoint.explanation!;
    const pro = plans.changes.find((c) => c.element === '.plan.pro')!;
    expect(pro, JSON.stringify(plans, null, 2)).toBeDefined();
    expect(pro.properties.map((p) => p.property)).toEqual(expect.arrayContaining(['border-color', 'box-shadow']));
    expect(pro.cause?.commit).toContain('Highlight the Pro plan');
  });

  test('the terminal table shows the words under the rows', () => {
    expect(stdout).toMatch(/group g\d · 5 checkpoints[^\n]*\n {17}on [^\n]+\n(?: {17}[^\n]+\n)*\s+↳ footer: flex-direction row → column/);
    expect(stdout).toContain('↳ .promo added');
  });

  test('the HTML report shows the words as an annotation', async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'about footer' }).click();
    const annotations = page.getByTestId('test-case-annotations');
    await expect(annotations).toContainText('visual-explanation');
    await expect(annotations).toContainText('site-footer: footer: flex-direction row → column');
  });

  test('a change no changed file mentions says so: the server stops serving style sheets as CSS', async () => {
    const server = path.join(repo, 'server.js');
    fs.writeFileSync(server, fs.readFileSync(server, 'utf8').replace("'.css': 'text/css'", "'.css': 'text/plain'"));
    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const home = checkpoint(readLatest(repo), 'home', 'home').checkpoint.explanation!;
    const header = home.changes.find((c) => c.element === 'header')!;
    expect(header, JSON.stringify(home, null, 2)).toBeDefined();
    expect(header.properties).toEqual(expect.arrayContaining([{ property: 'display', before: 'flex', after: 'block' }]));
    expect(header.cause).toBeNull();
    expect(header.words).toMatch(/^header: .* — no changed file mentions this element$/);
  });
});
