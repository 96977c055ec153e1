import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, gateExit, readLatest } from '../support/results';

/**
 * A React app styled with styled-components 6, built by Vite from the npm registry
 * (fixtures/styled-app), shaped like a real one (johannranudd/submenus): a navbar and a hero, each
 * a `StyledDiv` whose template styles what it holds by nested class rules. The branch widens the
 * navbar (its template's own rule) and adds a `Logo` component before it, which renumbers the
 * generated component ids; then softens the hero's text colours in nested rules, and thins a card's glow set inline on its
 * component's tag (`<Card style={{ boxShadow: … }}>`). The library's
 * classes made from each component's CSS change with every edit, so the components are paired, and
 * named, without them: what changed inside is compared, named and credited to its template.
 */

test('styled components whose CSS changed are compared with themselves, their changes named and credited to their template, no generated class in the words', async () => {
  const repo = createFixtureRepo({ fixture: 'styled-app', branch: 'feature/styles' });
  const run = await runPlaywrightAsync(repo, ['test']);
  const results = readLatest(repo);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(results));

  const navbar = checkpoint(results, 'home', 'navbar').checkpoint.explanation!;
  const root = navbar.changes.find((change) => /^html>body>div#root>div\.sc-[\w-]+\.[\w-]+$/.test(change.path));
  expect(root, JSON.stringify(navbar, null, 2)).toBeDefined();
  expect(root!.kind).toBe('changed');
  expect(root!.properties).toEqual(expect.arrayContaining([{ property: 'width', before: '900', after: '1100' }]));
  expect(root!.words).toMatch(
    /^StyledDiv \(Navbar\.style\.jsx\): .* — src\/Navbar\.style\.jsx \(commit [0-9a-f]{7,} Navbar: wider, a brand-coloured logo\)$/,
  );

  const home = checkpoint(results, 'home', 'home').checkpoint.explanation!;
  expect(home.changes.map((change) => change.kind)).not.toContain('added');
  expect(home.changes.map((change) => change.kind)).not.toContain('removed');
  const text = home.changes.find((change) => change.path.endsWith('>div.text-container>p'));
  expect(text, JSON.stringify(home, null, 2)).toBeDefined();
  expect(text!.words).toMatch(
    /^\.text-container p: color #000 → #696969, letter-spacing normal → 1\.6px.* — src\/Home\.style\.jsx \(commit [0-9a-f]{7,} Home: softer text\)$/,
  );
  const title = home.changes.find((change) => change.path.endsWith('>div.text-container>h2'));
  expect(title?.words).toMatch(
    /^\.text-container h2: color #000 → #1e2842 — src\/Home\.style\.jsx \(commit [0-9a-f]{7,} Home: softer text\)$/,
  );

  // The card's glow is set inline on its component's tag (`<Card style={{ boxShadow: … }}>`): that line, at the value now shown, is its cause.
  const card = home.changes.find((change) => change.properties.some((p) => p.property === 'box-shadow'));
  expect(card?.words, JSON.stringify(home, null, 2)).toMatch(
    /: box-shadow #7572d580 0px 0px 8px 5px → #7572d580 0px 0px 8px 1px — src\/Home\.jsx \(commit [0-9a-f]{7,} Home: a thinner glow\)$/,
  );

  const said = [navbar, home].flatMap((explanation) => [explanation.summary, ...explanation.changes.map((change) => change.words)]);
  expect(said.filter((words) => /\bsc-[\w-]+/.test(words))).toEqual([]);
});
