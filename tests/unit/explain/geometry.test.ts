import { describe, expect, it } from 'vitest';
import { explainChange } from '../../../src/explain';
import { parseDiff } from '../../../src/git/diff';
import type { Region } from '../../../src/types';
import { layoutRecord, type Drawn } from './records';

const patch = (file: string, lines: string[], commit: string) =>
  parseDiff([`diff --git a/${file} b/${file}`, '@@ -1 +1 @@', ...lines].join('\n'), commit);

/**
 * A plain-CSS landing page (esrafil418/HTML-CSS-Landing-Page): a flex nav holds the logo and the
 * links, centred; `nav img { width: 100px }` becomes `70px`, so the nav gets shorter, the links move
 * up and their list takes the width the logo gave up. The same branch sets the body's overflow.
 */
function landing(logo: number, overflow: string): Drawn[] {
  const nav = Math.round(logo * 0.97) + 62;
  const links = Math.round((nav - 52) / 2);
  return [
    { path: 'html', box: [0, 0, 1440, 900] },
    { path: 'html>body', box: [0, 0, 1440, 900], style: { overflow } },
    { path: 'html>body>section.header', box: [0, 0, 1440, 900], style: { position: 'relative' } },
    { path: 'html>body>section.header>nav', box: [0, 0, 1440, nav], style: { display: 'flex' } },
    { path: 'html>body>section.header>nav>a', box: [86, 29, logo, Math.round(logo * 0.97) + 4] },
    { path: 'html>body>section.header>nav>a>img', box: [86, 29, logo, Math.round(logo * 0.97)], style: { display: 'inline' } },
    { path: 'html>body>section.header>nav>div.nav-links', box: [86 + logo, links, 1267 - logo, 52] },
    { path: 'html>body>section.header>nav>div.nav-links>ul', box: [86 + logo, links, 1267 - logo, 52] },
    ...['Home', 'About', 'Games'].map(
      (text, i): Drawn => ({
        path: `html>body>section.header>nav>div.nav-links>ul>li:${i + 1}>a`,
        box: [727 + i * 120, links + 8, 100, 33],
        text,
      }),
    ),
  ];
}

/** A CSS Modules portfolio (eryncraig/official-portfolio): the skills column beside the work history, widened 20 % → 30 % while skills were added. */
function experience(skills: number, width: number): Drawn[] {
  const left = 364 - width / 2 - 115;
  return [
    { path: 'html', box: [0, 0, 1152, 800] },
    { path: 'html>body', box: [0, 0, 1152, 800] },
    { path: 'html>body>div.content', box: [0, 0, 1152, 800], style: { display: 'flex', 'justify-content': 'space-around' } },
    { path: 'html>body>div.content>div.skills', box: [left, 0, width, 800], style: { display: 'flex', 'flex-wrap': 'wrap' } },
    ...Array.from({ length: skills }, (_, i): Drawn => {
      const perRow = Math.floor(width / 120);
      return {
        path: `html>body>div.content>div.skills>div.skill:${i + 1}`,
        box: [left + (i % perRow) * 131, Math.floor(i / perRow) * 180, 120, 168],
        text: `Skill ${i + 1}`,
      };
    }),
    { path: 'html>body>div.content>ul.history', box: [left + width + 135, 0, 518, 600] },
    { path: 'html>body>div.content>ul.history>li.item', box: [left + width + 135, 0, 518, 230], text: 'Web developer, self-employed' },
  ];
}

/** A shop's category page (olegkhegay/module-scss): every product card newly wrapped in a link, and the section's heading restyled below them. */
function category(wrapped: boolean): Drawn[] {
  const cards = Array.from({ length: 30 }, (_, i): Drawn[] => {
    const box: [number, number, number, number] = [100 + (i % 3) * 315, 100 + Math.floor(i / 3) * 130, 295, wrapped ? 110 : 83];
    const card = wrapped ? `html>body>main>div.wrapper>a.link:${i + 1}>div.card` : `html>body>main>div.wrapper>div.card:${i + 1}`;
    return [
      ...(wrapped ? [{ path: `html>body>main>div.wrapper>a.link:${i + 1}`, box } as Drawn] : []),
      { path: card, box },
      { path: `${card}>h3`, box: [box[0], box[1] + 40, 295, 24], text: `Product ${i + 1}` },
    ];
  }).flat();
  return [
    { path: 'html', box: [0, 0, 1280, 1600] },
    { path: 'html>body', box: [0, 0, 1280, 1600] },
    { path: 'html>body>main', box: [0, 0, 1280, 1600] },
    { path: 'html>body>main>div.wrapper', box: [0, 100, 1280, 1300] },
    ...cards,
    {
      path: 'html>body>main>h2',
      box: [100, 1450, 1080, wrapped ? 28 : 55],
      text: 'TOP SELLING',
      style: { 'font-size': wrapped ? '24px' : '48px' },
    },
  ];
}

describe('a size follows the change that made it', () => {
  it("names the logo a rule shrank, from that rule's commit, not the nav around it, the list that took its width, nor the body listed for its overflow", () => {
    const regions: Region[] = [
      { x: 91, y: 34, width: 86, height: 86, kind: 'modified' },
      ...[0, 1, 2].map((i): Region => ({ x: 727 + i * 120, y: 49, width: 100, height: 47, kind: 'modified' })),
    ];
    const code = [
      ...patch('style.css', [' nav img {', '-  width: 100px;', '+  width: 70px;', ' }'], 'a1 feat: Complete Hero section styling'),
      ...patch('style.css', [' body {', '+  overflow-x: hidden;', ' }'], 'b2 fix(style): sidebar scroll issue'),
    ];
    const explanation = explainChange(
      layoutRecord(landing(100, 'visible'), 1440, 900),
      layoutRecord(landing(70, 'hidden auto'), 1440, 900),
      regions,
      code,
    );
    expect(explanation.changes.map((change) => change.words)).toEqual([
      'body: overflow visible → hidden auto — style.css (commit b2 fix(style): sidebar scroll issue)',
      'a img: width 100 → 70 px, height 97 → 68 px — style.css (commit a1 feat: Complete Hero section styling)',
    ]);
    expect(explanation.unexplained).toEqual([]);
  });

  it('says the links beside a shrunk logo moved up as its shift when nothing else on the page is listed', () => {
    const regions: Region[] = [
      { x: 91, y: 34, width: 86, height: 86, kind: 'modified' },
      { x: 727, y: 49, width: 100, height: 47, kind: 'modified' },
    ];
    const explanation = explainChange(
      layoutRecord(landing(100, 'visible'), 1440, 900),
      layoutRecord(landing(70, 'visible'), 1440, 900),
      regions,
      [],
    );
    expect(explanation.changes.map((change) => change.words.split(' — ')[0])).toEqual([
      'a img: width 100 → 70 px, height 97 → 68 px; what is below it moved up 15 px',
    ]);
    expect(explanation.changes[0].regions).toEqual([0, 1]);
  });

  it("names a column its rule widened around skills that were added, and the history beside it that moved as the column's shift", () => {
    const [base, current] = [layoutRecord(experience(3, 230), 1152, 800), layoutRecord(experience(6, 346), 1152, 800)];
    const historyX = (record: typeof base) => record.elements.find((element) => element.path.endsWith('ul.history'))!.box[0];
    const moved = historyX(current) - historyX(base);
    const regions: Region[] = [
      { x: 97, y: 0, width: 250, height: 168, kind: 'modified' },
      { x: 97, y: 180, width: 380, height: 168, kind: 'modified' },
      { x: 499, y: 0, width: 560, height: 230, kind: 'modified' },
    ];
    const code = patch(
      'src/components/Experience/experience.module.css',
      [' .skills {', '-  width: 20%;', '+  width: 30%;', ' }'],
      'c3 finalized secure email form and styling',
    );
    const explanation = explainChange(base, current, regions, code);
    const column = explanation.changes.find((change) => change.path === 'html>body>div.content>div.skills')!;
    expect(column.words).toBe(
      `.skills: width 230 → 346 px; what is beside it moved right ${moved} px — src/components/Experience/experience.module.css (commit c3 finalized secure email form and styling)`,
    );
    expect(explanation.changes.filter((change) => change.kind === 'added').length).toBeGreaterThan(0);
    expect(explanation.unexplained).toEqual([]);
  });
});

describe('a long list keeps one of each kind of change', () => {
  it('lists the heading restyled below 30 cards re-wrapped in links, and leaves none of their regions unexplained', () => {
    const regions: Region[] = [
      ...Array.from({ length: 10 }, (_, row): Region => ({ x: 0, y: 100 + row * 130, width: 1280, height: 110, kind: 'modified' })),
      { x: 100, y: 1450, width: 1080, height: 55, kind: 'modified' },
    ];
    const code = patch('src/components/Arrivels/Arrivels.module.scss', ['-h2 {', '-  font-size: 48px;', '-}'], 'd4 Add files via upload');
    const explanation = explainChange(layoutRecord(category(false), 1280, 1600), layoutRecord(category(true), 1280, 1600), regions, code);
    expect(explanation.changes).toHaveLength(12);
    const listed = explanation.changes.map((change) => `${change.kind} ${change.element}`);
    // Each card is paired with itself inside its new link (the wrapper is what was added).
    expect(listed).toEqual(expect.arrayContaining(['added .link', 'changed main h2']));
    expect(listed).not.toContain('removed .card');
    expect(explanation.unexplained).toEqual([]);
    const heading = explanation.changes.find((change) => change.path === 'html>body>main>h2')!;
    expect(heading.words).toMatch(/^main h2: font-size 48px → 24px; height 55 → 28 px — /);
  });
});
