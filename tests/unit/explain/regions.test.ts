import { describe, expect, it } from 'vitest';
import { explainChange, unexplainedWords } from '../../../src/explain';
import type { Region } from '../../../src/types';
import { layoutRecord, type Drawn } from './records';

/**
 * A photo blog's home page: a row of tags over the gallery, a gallery drawn on a canvas, a
 * carousel whose slides are background pictures, a sparkline drawn in the footer. The branch
 * removes the tags; the gallery reshuffles and the carousel moves on, which no element's styles,
 * box or text show.
 */
function home(withTags: boolean): Drawn[] {
  return [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720] },
    { path: 'html>body>header.site-header', box: [0, 0, 1280, 64], text: 'Photos', style: { 'font-size': '24px' } },
    ...(withTags
      ? [
          {
            path: 'html>body>div.tags-container',
            box: [40, 80, 1200, 40],
            style: { position: 'absolute', display: 'flex', gap: '8px' },
          } as Drawn,
          ...['street', 'night', 'people'].map(
            (text, i): Drawn => ({ path: `html>body>div.tags-container>a.tag:${i + 1}`, box: [40 + i * 90, 88, 80, 24], text }),
          ),
        ]
      : []),
    { path: 'html>body>section.gallery', box: [0, 140, 1280, 440] },
    { path: 'html>body>section.gallery>canvas#masonry', box: [0, 140, 1280, 440] },
    { path: 'html>body>div.carousel', box: [0, 580, 1280, 100], style: { overflow: 'hidden' } },
    {
      path: 'html>body>div.carousel>div.track',
      box: [0, 580, 2560, 100],
      style: { display: 'flex', transform: 'matrix(1, 0, 0, 1, -1280, 0)' },
    },
    { path: 'html>body>footer', box: [0, 680, 1280, 40] },
    { path: 'html>body>footer>canvas.sparkline', box: [1100, 690, 120, 20] },
  ];
}

const SEVEN: Region[] = [
  { x: 40, y: 80, width: 1200, height: 40, kind: 'modified' },
  { x: 0, y: 140, width: 400, height: 200, kind: 'modified' },
  { x: 420, y: 140, width: 400, height: 200, kind: 'modified' },
  { x: 840, y: 360, width: 400, height: 200, kind: 'modified' },
  { x: 0, y: 584, width: 640, height: 92, kind: 'modified' },
  { x: 640, y: 584, width: 640, height: 92, kind: 'modified' },
  { x: 1100, y: 692, width: 120, height: 18, kind: 'modified' },
];

describe('every changed region is accounted for', () => {
  it('says which region the words explain and names the 6 of 7 that nothing explains', () => {
    const explanation = explainChange(layoutRecord(home(true)), layoutRecord(home(false)), SEVEN, []);
    expect(explanation.changes.map((change) => [change.words.split(' — ')[0], change.regions])).toEqual([
      ['.tags-container removed (1200×40)', [0]],
    ]);
    expect(explanation.unexplained).toEqual(SEVEN.slice(1));
    expect(explanation.regionCount).toBe(7);
    expect(unexplainedWords(explanation)).toBe(
      '6 of 7 changed regions not explained: at (0, 140) 400×200, (420, 140) 400×200, (840, 360) 400×200, (0, 584) 640×92, and 2 more',
    );
  });

  it('says nothing more when the words meet every region, and counts one region in the singular', () => {
    const explained = explainChange(layoutRecord(home(true)), layoutRecord(home(false)), SEVEN.slice(0, 1), []);
    expect([explained.unexplained, unexplainedWords(explained)]).toEqual([[], '']);
    expect(unexplainedWords({ unexplained: [SEVEN[6]], regionCount: 1 })).toBe(
      '1 of 1 changed region not explained: at (1100, 692) 120×18',
    );
  });

  it('names every region when a side has no layout record', () => {
    const explanation = explainChange(null, layoutRecord(home(false)), SEVEN, []);
    expect([explanation.unexplained, explanation.regionCount]).toEqual([SEVEN, 7]);
  });

  it('keeps, of more changes than it lists, one for each region first: a footer after 14 restyled cards is still named', () => {
    const cards = (background: string): Drawn[] =>
      Array.from({ length: 14 }, (_, i) => ({
        path: `html>body>main>div.card:${i + 1}`,
        box: [(i % 7) * 180, 80 + Math.floor(i / 7) * 200, 170, 190],
        text: `Card ${i + 1}`,
        style: { 'background-color': background },
      }));
    const page = (background: string, footer: string): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>main', box: [0, 80, 1280, 400] },
      ...cards(background),
      { path: 'html>body>footer', box: [0, 680, 1280, 40], style: { color: footer } },
    ];
    const regions: Region[] = [
      { x: 0, y: 80, width: 1260, height: 390, kind: 'modified' },
      { x: 0, y: 680, width: 1280, height: 40, kind: 'modified' },
    ];
    const explanation = explainChange(
      layoutRecord(page('rgb(255, 255, 255)', 'rgb(0, 0, 0)')),
      layoutRecord(page('rgb(238, 255, 238)', 'rgb(51, 51, 51)')),
      regions,
      [],
    );
    expect(explanation.changes).toHaveLength(12);
    expect(explanation.changes.at(-1)?.element).toBe('footer');
    expect(explanation.unexplained).toEqual([]);
  });

  it('keeps every one of 15 different changes (a responsive rewrite: one rule per block), where it keeps 12 of one change repeated', () => {
    const blocks = (narrow: boolean): Drawn[] =>
      Array.from({ length: 15 }, (_, i) => ({
        path: `html>body>section.block-${i + 1}`,
        box: [0, i * 48, 1280, 48],
        style: { padding: narrow ? '8px 16px' : '8px 64px' },
      }));
    const page = (narrow: boolean): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      ...blocks(narrow),
    ];
    const regions: Region[] = [{ x: 0, y: 0, width: 1280, height: 720, kind: 'modified' }];
    const explanation = explainChange(layoutRecord(page(false)), layoutRecord(page(true)), regions, []);
    expect(explanation.changes.map((change) => change.element)).toEqual(Array.from({ length: 15 }, (_, i) => `.block-${i + 1}`));
  });

  it('says nothing of what a mask covers: a marquee that moved on and re-rendered its dividers is no change', () => {
    // The checkpoint masks `.ticker`: its track scrolls, and a divider between two items is cloned in and out as it does.
    const page = (offset: number, dividers: number, title: string): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>h1', box: [40, 20, 600, 40], text: 'Release notes', style: { color: title } },
      { path: 'html>body>div.ticker', box: [0, 80, 1280, 24], style: { overflow: 'hidden' }, masked: true },
      {
        path: 'html>body>div.ticker>div.track',
        box: [-offset, 80, 2560, 24],
        style: { display: 'flex', transform: `matrix(1, 0, 0, 1, ${-offset}, 0)` },
        masked: true,
      },
      ...Array.from(
        { length: dividers },
        (_, i): Drawn => ({
          path: `html>body>div.ticker>div.track>span.divider:${i + 1}`,
          box: [200 * (i + 1) - offset, 86, 14, 12],
          masked: true,
        }),
      ),
    ];
    const regions: Region[] = [
      { x: 40, y: 20, width: 600, height: 40, kind: 'modified' },
      // The mask's edge, repainted where the page around it re-rendered.
      { x: 0, y: 78, width: 1280, height: 28, kind: 'modified' },
    ];
    const explanation = explainChange(
      layoutRecord(page(0, 6, 'rgb(0, 0, 0)')),
      layoutRecord(page(340, 5, 'rgb(42, 109, 244)')),
      regions,
      [],
    );
    expect(explanation.changes.map((change) => change.element)).toEqual(['h1']);
    expect(explanation.changes.some((change) => change.words.includes('divider'))).toBe(false);
    // A region the mask covers is accounted for: nobody could change it, so nothing is left to read about.
    expect(explanation.unexplained).toEqual([]);
  });

  it('puts the content a removed block moved up down to that block, not to "not explained": its pictures redrawn at their new place', () => {
    // A 161 px notice above a gallery goes; the six pictures below move up 161 px, re-blended where they land.
    const page = (notice: boolean): Drawn[] => {
      const shift = notice ? 161 : 0;
      return [
        { path: 'html', box: [0, 0, 1280, 1200] },
        { path: 'html>body', box: [0, 0, 1280, 1200] },
        { path: 'html>body>header', box: [0, 0, 1280, 64], text: 'Photos' },
        ...(notice ? [{ path: 'html>body>section.notice', box: [0, 64, 1280, 161], text: 'We moved to a new server' } as Drawn] : []),
        { path: 'html>body>main.gallery', box: [0, 64 + shift, 1280, 620], style: { display: 'grid' } },
        ...Array.from(
          { length: 6 },
          (_, i): Drawn => ({
            path: `html>body>main.gallery>img:${i + 1}`,
            box: [(i % 3) * 420, 84 + shift + Math.floor(i / 3) * 300, 400, 280],
            style: { src: `/photos/${i + 1}.jpg`, image: 'loaded' },
          }),
        ),
        { path: 'html>body>footer', box: [0, 684 + shift, 1280, 40], text: '© Photos' },
      ];
    };
    const regions: Region[] = [
      { x: 0, y: 64, width: 1280, height: 161, kind: 'removed' },
      ...Array.from(
        { length: 6 },
        (_, i): Region => ({ x: (i % 3) * 420, y: 84 + Math.floor(i / 3) * 300, width: 400, height: 280, kind: 'modified' }),
      ),
    ];
    const explanation = explainChange(layoutRecord(page(true), 1280, 1200), layoutRecord(page(false), 1280, 1200), regions, []);
    expect(explanation.changes.map((change) => change.words)).toEqual([
      '.notice removed (1280×161); what is below it moved up 161 px — no changed file mentions this element',
    ]);
    expect(explanation.changes[0].regions).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(explanation.unexplained).toEqual([]);
  });

  it('puts rows the page gained down to the block that grew by as much, where the diff slid them up through a blank margin', () => {
    // A Vue section's subtitle gets 12 px of bottom padding; the rows the full page gains are placed in the blank margin above it.
    const page = (padding: number): Drawn[] => [
      { path: 'html', box: [0, 0, 1440, 900 + padding] },
      { path: 'html>body', box: [0, 0, 1440, 900 + padding] },
      // A header the page's layout puts 103 px down moves with the rows the page gains: it meets the band.
      { path: 'html>body>header.header', box: [0, 103 + padding, 1440, 70] },
      { path: 'html>body>main.projects', box: [0, 100, 1440, 800 + padding] },
      { path: 'html>body>main.projects>h2.section-title', box: [394, 380, 652, 40], text: 'Projects' },
      {
        path: 'html>body>main.projects>p.section-description',
        box: [394, 420, 652, 31 + padding],
        text: 'Things I built',
        style: { padding: padding ? `0px 0px ${padding}px` : '0px' },
      },
      { path: 'html>body>main.projects>div.cards', box: [394, 480 + padding, 652, 300] },
    ];
    const regions: Region[] = [
      { x: 0, y: 113, width: 1440, height: 12, kind: 'added' },
      { x: 394, y: 440, width: 652, height: 11, kind: 'modified' },
    ];
    const explanation = explainChange(layoutRecord(page(0), 1440, 900), layoutRecord(page(12), 1440, 912), regions, []);
    expect(explanation.changes.map((change) => change.words.split(' — ')[0])).toEqual([
      '.section-description: padding 0px → 0px 0px 12px; height 31 → 43 px; what is below it moved down 12 px',
    ]);
    expect(explanation.unexplained).toEqual([]);
  });

  it("says each of three todo items' buttons moved what is below it by its own growth, once for the three, not by where the content landed", () => {
    // A Vue todo list (issue #48): `.remove-btn` padding 5px 10px → 8px 16px makes each row (`align-items: center`) 6 px taller.
    // The checkbox and text of the 1st row sit centred (down 3 px); the 2nd row moves down 6 px, its content 9; the 3rd 12 and 15.
    const list = (padding: string, grown: number): Drawn[] => [
      { path: 'html', box: [-406, -137, 1280, 292 + 3 * grown] },
      { path: 'html>body', box: [-406, -137, 1280, 292 + 3 * grown] },
      { path: 'html>body>ul.todo-list', box: [0, 0, 468, 135 + 3 * grown] },
      ...[1, 2, 3].flatMap((n): Drawn[] => {
        const top = 20 + (n - 1) * (45 + grown);
        const item = `html>body>ul.todo-list>li.todo-item:${n}`;
        return [
          { path: item, box: [0, top, 468, 25 + grown], style: { display: 'flex', 'align-items': 'center', margin: '20px 0px 0px' } },
          { path: `${item}>div.check-group`, box: [0, top + 2 + grown / 2, 22, 22] },
          { path: `${item}>span.content`, box: [164 - grown, top + 4 + grown / 2, 60, 18], text: `Todo ${n}` },
          { path: `${item}>div.buttons`, box: [367 - 2 * grown, top, 101 + 2 * grown, 25 + grown], style: { display: 'flex' } },
          {
            path: `${item}>div.buttons>button.remove-btn`,
            box: [398 - 2 * grown, top, 70 + 2 * grown, 25 + grown],
            text: 'Remove',
            style: { padding },
          },
        ];
      }),
    ];
    // The changed regions of that run's capture.
    const regions = [
      [0, 20, 468, 18],
      [0, 38, 22, 64],
      [160, 38, 62, 13],
      [356, 38, 112, 115],
      [101, 81, 181, 21],
      [0, 128, 22, 23],
      [52, 132, 279, 16],
    ].map(([x, y, width, height], i): Region => ({ x, y, width, height, kind: i === 0 ? 'added' : 'modified' }));
    const explanation = explainChange(
      layoutRecord(list('5px 10px', 0), 1280, 292),
      layoutRecord(list('8px 16px', 6), 1280, 310),
      regions,
      [],
    );
    const said = '.remove-btn: padding 5px 10px → 8px 16px; width 70 → 82 px, height 25 → 31 px; what is below it moved down 6 px';
    expect(explanation.changes.map((change) => change.words.split(' — ')[0])).toEqual([said, said, said]);
    expect(explanation.summary.split(' — ')[0]).toBe(said.replace('.remove-btn', '.remove-btn ×3'));
    expect(explanation.unexplained).toEqual([]);
  });

  it('leaves a region where nothing moved unexplained, whatever was removed above it', () => {
    const page = (notice: boolean): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      ...(notice ? [{ path: 'html>body>div.notice', box: [0, 0, 1280, 40], style: { position: 'fixed' } } as Drawn] : []),
      { path: 'html>body>canvas#chart', box: [0, 100, 1280, 400] },
    ];
    const regions: Region[] = [
      { x: 0, y: 0, width: 1280, height: 40, kind: 'modified' },
      { x: 200, y: 200, width: 100, height: 100, kind: 'modified' },
    ];
    const explanation = explainChange(layoutRecord(page(true)), layoutRecord(page(false)), regions, []);
    expect(explanation.unexplained).toEqual([regions[1]]);
  });

  it('says a footer capture that moved half a pixel on the page is a sub-pixel move, and counts its regions as said', () => {
    // Content above the footer grew by half a pixel: the footer's text is drawn again at another sub-pixel place.
    const footer = (y: number) => ({
      ...layoutRecord(
        [
          { path: 'html', box: [0, -680, 1280, 720] },
          { path: 'html>body', box: [0, -680, 1280, 720] },
          { path: 'html>body>footer', box: [0, 0, 1280, 40] },
          { path: 'html>body>footer>span', box: [48, 12, 200, 16], text: '© 2026 Acme' },
        ],
        1280,
        40,
      ),
      at: [0, y] as [number, number],
    });
    const regions: Region[] = [{ x: 48, y: 11, width: 201, height: 18, kind: 'modified' }];
    const moved = explainChange(footer(680), footer(680.5), regions, []);
    expect(moved.changes).toEqual([]);
    expect(moved.note).toBe(
      'the captured element moved 0.5 px down on the page (a sub-pixel move): its text and edges are drawn again, nothing in it changed',
    );
    expect(moved.unexplained).toEqual([]);
    // At the same place on the page, the change is inside it: nothing said of a move.
    const still = explainChange(footer(680), footer(680), regions, []);
    expect(still.note).toMatch(/^no element was added, removed or restyled/);
    expect(still.unexplained).toEqual(regions);
  });
});
