import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, gateExit, readLatest } from '../support/results';
import type { RunResult } from '../../src/report';

/**
 * Interaction state is named as such, from the packed plugin on a real repository. The hover-app's
 * test parks the pointer at a fixed spot below the cards before its checkpoint; its branch makes
 * the catalogue's title larger (styles.css), which moves the cards down under that spot: the first
 * card's `.card:hover` style shows on the current side only. The title's change is the commit's;
 * the card's is the pointer's.
 */

test.describe('a hover style one side only was captured in', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let results: RunResult;
  let stdout: string;

  test.beforeAll(async () => {
    repo = createFixtureRepo({ fixture: 'hover-app' });
    const run = await runPlaywrightAsync(repo, ['test']);
    stdout = run.stdout;
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    results = readLatest(repo);
  });

  test("puts the card's hover style down to the pointer on the current side only, and credits no commit with it", () => {
    const { explanation } = checkpoint(results, 'catalogue', 'cards').checkpoint;
    const card = explanation!.changes.find((change) => change.path.endsWith('div.card:1'));
    expect(card, JSON.stringify(explanation, null, 2)).toBeDefined();
    expect(card!.cause).toBeNull();
    expect(card!.interaction).toBe('pointer over the 1st `.card` on the current side only');
    expect(card!.words).toMatch(
      /^\.card: background-color #fff → #e8efff, box-shadow none → .* — pointer over the 1st `\.card` on the current side only \(`\.card:hover` sets background-color, box-shadow\)$/,
    );
    expect(explanation!.interaction).toEqual(['pointer over the 1st `.card` on the current side only']);
  });

  test("credits the title's real change to the commit that made it, in the same checkpoint", () => {
    const { explanation } = checkpoint(results, 'catalogue', 'cards').checkpoint;
    const title = explanation!.changes.find((change) => change.element === '.title');
    expect(title, JSON.stringify(explanation, null, 2)).toBeDefined();
    expect(title!.cause).toMatchObject({
      file: 'public/styles.css',
      commit: expect.stringMatching(/^[0-9a-f]{7,} Catalogue: a larger title$/),
    });
    expect(title!.words).toMatch(
      /^\.title: font-size 28px → 48px.* — public\/styles\.css \(commit [0-9a-f]{7,} Catalogue: a larger title\)$/,
    );
  });

  test("the table's words under the row say the pointer's part", () => {
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      'pointer over the 1st `.card` on the current side only (`.card:hover` sets background-color, box-shadow)',
    );
  });

  test("the HTML report's explanation says the pointer's part", async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'catalogue', exact: true }).click();
    await expect(page.getByTestId('test-case-annotations')).toContainText('cards: .title: font-size 28px → 48px');
    await expect(page.getByTestId('test-case-annotations')).toContainText(
      'pointer over the 1st `.card` on the current side only (`.card:hover` sets background-color, box-shadow)',
    );
  });
});
