import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, gateExit, readLatest } from '../support/results';

/**
 * A React app styled with Tailwind, built by its real Vite plugin from the npm registry
 * (fixtures/tailwind-app). Its branch changes the navbar's arbitrary background class
 * (`bg-[#1E1A2E]` → `bg-[#4C1D95]`) in Navbar.jsx and, in later commits, the footer's class line
 * (which shares `flex` and `justify-*` with the navbar) and the hero's button text with a class
 * rename that renders the same (`h-[100dvh]` → `h-dvh`). Two last commits on the navbar: one renames the brand
 * (`Lumen` → `Lumen Cloud`) and inserts a Changelog link before Blog, the next changes only the brand's line again
 * (a `title`, which shows nothing).
 */

test('a Tailwind class change is credited to the component whose diff changed that element, named by its tag and the classes that tell it apart, and a rename that renders the same is no change', async () => {
  const repo = createFixtureRepo({ fixture: 'tailwind-app', branch: 'feature/brand' });
  const run = await runPlaywrightAsync(repo, ['test']);
  const results = readLatest(repo);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(results));

  const navbar = checkpoint(results, 'home', 'navbar').checkpoint.explanation!;
  const said = JSON.stringify(navbar, null, 2);
  const [background] = navbar.changes.filter((change) =>
    change.path.endsWith('>nav.flex.items-center.justify-between.bg-[#4C1D95].px-8.py-4.text-white'),
  );
  // Seven utility classes: named by its tag and the three the page's other elements carry least.
  expect(background?.words, said).toMatch(
    /^nav\.items-center\.justify-between\.bg-\[#4C1D95\]: background-color #1e1a2e → #4c1d95 — src\/Navbar\.jsx \(commit [0-9a-f]{7,} Navbar: the brand's violet\)$/,
  );
  // The brand's new text is the commit that wrote it, not the later one that only gave the same line a tooltip; the link inserted
  // before Blog is an insertion, Blog moved on, not Blog's new text.
  const brand = navbar.changes.find((change) => change.path.endsWith('>strong.text-lg'));
  expect(brand, said).toMatchObject({
    properties: expect.arrayContaining([{ property: 'text', before: 'Lumen', after: 'Lumen Cloud' }]),
    cause: { file: 'src/Navbar.jsx', commit: expect.stringMatching(/ Navbar: the brand's full name, a Changelog link$/) },
  });
  expect(
    navbar.changes.filter((change) => change.properties.some((p) => p.property === 'text' && p.before === 'Blog')),
    said,
  ).toEqual([]);
  expect(
    navbar.changes.find((change) => change.kind === 'added'),
    said,
  ).toMatchObject({
    path: expect.stringMatching(/>ul\.flex\.gap-6\.text-sm>li:3$/),
    cause: { file: 'src/Navbar.jsx', commit: expect.stringMatching(/ Navbar: the brand's full name, a Changelog link$/) },
  });
  expect(background!.cause).toEqual({
    file: 'src/Navbar.jsx',
    commit: expect.stringMatching(/ Navbar: the brand's violet$/),
    line: expect.stringContaining('bg-[#4C1D95]'),
  });

  const footer = checkpoint(results, 'home', 'footer').checkpoint.explanation!;
  expect(
    footer.changes.map((change) => change.cause?.file),
    JSON.stringify(footer, null, 2),
  ).toEqual(['src/Footer.jsx']);

  const hero = checkpoint(results, 'home', 'hero').checkpoint.explanation!;
  expect(
    hero.changes.map((change) => change.element),
    JSON.stringify(hero, null, 2),
  ).toEqual([expect.stringMatching(/^button\.rounded-md\.bg-indigo-600\.px-4 '[^']+'$/)]);
  expect(hero.changes[0].cause).toEqual(
    expect.objectContaining({ file: 'src/Hero.jsx', commit: expect.stringMatching(/ Hero: a warmer call to action$/) }),
  );
  for (const change of [...navbar.changes, ...footer.changes, ...hero.changes]) expect(change.element).toMatch(/^[.#a-z]/);
});
