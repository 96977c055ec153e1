import { expect, test } from '@playwright/test';
import { createFixtureRepo } from '../../scripts/fixture-repo';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, gateExit, readLatest } from '../support/results';

/**
 * A Vite app styled with CSS Modules and Sass, built by the real tools from the npm registry
 * (fixtures/vite-modules-app): its branch widens the navbar's padding in header.module.scss (Vite
 * names the class `_navbar_<hash>_<line>`, the hash changing with the file) and warms the hero's
 * title colour in global.scss, a nested rule after an `@include … { }` block, and hides the brand's
 * "beta" label with `display: none` in nav-item.module.scss. Each change is credited to its file and
 * commit, read from the diff by a CSS parser; elements are named by the classes the modules write.
 */

test('a CSS Module padding, a nested Sass colour and a label a module hides are each credited to their file and commit, named as the source names them', async () => {
  const repo = createFixtureRepo({ fixture: 'vite-modules-app', branch: 'feature/header' });
  const run = await runPlaywrightAsync(repo, ['test']);
  const results = readLatest(repo);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(results));

  const header = checkpoint(results, 'home', 'header').checkpoint.explanation!;
  const navbar = header.changes.find((change) => change.properties.some((p) => p.property === 'padding'));
  expect(navbar, JSON.stringify(header, null, 2)).toBeDefined();
  expect(navbar!.path).toMatch(/>header\._navbar_[a-z0-9]+_\d+\._gray_[a-z0-9]+_\d+$/);
  expect(navbar!.properties).toEqual(expect.arrayContaining([{ property: 'padding', before: '0px 40px', after: '0px 80px' }]));
  expect(navbar!.cause).toEqual({
    file: 'src/header.module.scss',
    commit: expect.stringMatching(/^[0-9a-f]{7,} Header: roomier navbar$/),
    line: 'padding: 0 80px;',
  });
  expect(navbar!.words).toMatch(/^header\.navbar\.gray \(header\.module\.scss\): padding 0px 40px → 0px 80px/);

  // Still in the page, hidden by a style: the property that hid it is named, with the module's own class and file.
  const label = header.changes.find((change) => change.path.includes('_label_'));
  expect(label, JSON.stringify(header, null, 2)).toBeDefined();
  expect(label!.properties).toEqual([{ property: 'display', before: 'inline-block', after: 'none' }]);
  expect(label!.words).toMatch(
    /^span\.label \(nav-item\.module\.scss\) hidden: display inline-block → none \(\d+×\d+\) — src\/nav-item\.module\.scss \(commit [0-9a-f]{7,} Header: no beta label\)$/,
  );

  const hero = checkpoint(results, 'home', 'hero').checkpoint.explanation!;
  const title = hero.changes.find((change) => change.path.endsWith('>section.hero>h1'));
  expect(title, JSON.stringify(hero, null, 2)).toBeDefined();
  expect(title!.properties).toEqual(expect.arrayContaining([{ property: 'color', before: 'rgb(30, 26, 46)', after: 'rgb(194, 65, 12)' }]));
  expect(title!.cause).toEqual({
    file: 'src/global.scss',
    commit: expect.stringMatching(/^[0-9a-f]{7,} Hero: warmer title$/),
    line: 'color: #c2410c;',
  });
  expect(title!.words).toMatch(/^h1: color #1e1a2e → #c2410c.* — src\/global\.scss \(commit [0-9a-f]{7,} Hero: warmer title\)$/);

  // No hashed class anywhere in the words a reviewer reads.
  const said = [header, hero].flatMap((explanation) => [explanation.summary, ...explanation.changes.map((change) => change.words)]);
  expect(said.filter((words) => /_[a-z0-9]{5}_\d+/.test(words))).toEqual([]);
});
