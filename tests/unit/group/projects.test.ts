import { describe, expect, it } from 'vitest';
import type { ChangePrint } from '../../../src/compare';
import { explainChange, type Explanation } from '../../../src/explain';
import { groupChanges, type Seen } from '../../../src/group';
import type { CodeChange } from '../../../src/git/code-change';
import type { Region } from '../../../src/types';
import { layoutRecord, type Drawn } from '../explain/records';
import { flatRegion, grouped } from './prints';

/**
 * One change across Playwright projects is one decision: the same header edit at a desktop and a
 * mobile viewport has other pixels (other sizes) but the same words, and is one group; any
 * difference in the words (another value, another property, another element, another cause)
 * leaves the pixels to decide, as within one project; a region nobody explained does not take a
 * checkpoint from the edit its other regions show (one edit, one group).
 */

const DESKTOP = { width: 1280, height: 720 };
const MOBILE = { width: 390, height: 844 };
const NAVY = 'rgb(20, 33, 61)';
const GREEN = 'rgb(11, 122, 59)';
const GREY = 'rgb(238, 240, 244)';

const code = (commit: string, property: string, value: string): CodeChange[] => [
  {
    file: 'public/styles.css',
    commit,
    lines: [
      {
        text: `header { ${property}: ${value}; }`,
        added: true,
        target: { kind: 'style', selectors: ['header'], properties: [property], defines: null },
      },
    ],
    uses: [],
    unread: null,
  },
];
const NAVY_HEADER = code('a1b2c3d Navy header', 'background-color', '#14213d');

interface Edit {
  viewport: { width: number; height: number };
  /** The header's styles before and after. */
  before: Record<string, string>;
  after: Record<string, string>;
  /** The header's height after (a taller header pushes nothing here: it is the page's last element). */
  heightAfter?: number;
  code?: CodeChange[];
  /** Changed regions besides the header's. */
  elsewhere?: Region[];
}

/** A page with a header as wide as the viewport, explained by the product's own explainChange. */
function explained(edit: Edit): { explanation: Explanation; regions: Region[] } {
  const { width } = edit.viewport;
  const page = (style: Record<string, string>, height: number): Drawn[] => [
    { path: 'body', box: [0, 0, width, 200] },
    { path: 'body>header', box: [0, 0, width, height], style },
  ];
  const base = layoutRecord(page(edit.before, 60), width, edit.viewport.height);
  const current = layoutRecord(page(edit.after, edit.heightAfter ?? 60), width, edit.viewport.height);
  const regions: Region[] = [{ x: 0, y: 0, width, height: edit.heightAfter ?? 60, kind: 'modified' }, ...(edit.elsewhere ?? [])];
  return { explanation: explainChange(base, current, regions, edit.code ?? NAVY_HEADER), regions };
}

/** A checkpoint of a project: its change's pixels (a grey per colour) and its words. */
function checkpoint(project: string, edit: Edit, level = 40): { change: ChangePrint; seen: Seen } {
  const { explanation, regions } = explained(edit);
  return {
    change: { threshold: 0.1, regions: regions.map((r) => flatRegion(r.width, r.height, level)), lines: [] },
    seen: { project, explanation, regions },
  };
}

const navy = (viewport: Edit['viewport'], more: Partial<Edit> = {}): Edit => ({
  viewport,
  before: { 'background-color': GREY },
  after: { 'background-color': NAVY },
  ...more,
});

describe('groupChanges across Playwright projects', () => {
  it('explains the header alike in both viewports (the fixture the cases below vary)', () => {
    const [desktop, mobile] = [explained(navy(DESKTOP)), explained(navy(MOBILE))];
    for (const { explanation } of [desktop, mobile]) {
      expect(explanation).toMatchObject({ note: null, unexplained: [] });
      expect(explanation.changes.map((c) => [c.path, c.properties, c.cause?.commit])).toEqual([
        ['body>header', [{ property: 'background-color', before: GREY, after: NAVY }], 'a1b2c3d Navy header'],
      ]);
    }
  });

  const cases: { name: string; desktop: Edit; mobile: Edit; mobileLevel?: number; groups: number[][] }[] = [
    { name: 'the same change in two viewports is one group', desktop: navy(DESKTOP), mobile: navy(MOBILE), groups: [[0, 1]] },
    {
      name: 'the same style change that makes the header taller by other amounts is one group',
      desktop: { viewport: DESKTOP, before: { padding: '16px' }, after: { padding: '24px' }, heightAfter: 76 },
      mobile: { viewport: MOBILE, before: { padding: '16px' }, after: { padding: '24px' }, heightAfter: 92 },
      groups: [[0, 1]],
    },
    {
      name: 'another value from another line is another change',
      desktop: navy(DESKTOP),
      mobile: { ...navy(MOBILE), after: { 'background-color': GREEN }, code: code('a1b2c3d Navy header', 'background-color', '#0b7a3b') },
      mobileLevel: 120,
      groups: [[0], [1]],
    },
    {
      name: 'the same element with another property is another change',
      desktop: navy(DESKTOP),
      mobile: { viewport: MOBILE, before: { color: GREY }, after: { color: NAVY }, code: code('a1b2c3d Navy header', 'color', '#14213d') },
      groups: [[0], [1]],
    },
    {
      name: 'the same change from another commit is another change',
      desktop: navy(DESKTOP),
      mobile: navy(MOBILE, { code: code('e4f5a6b Navy header again', 'background-color', '#14213d') }),
      groups: [[0], [1]],
    },
    {
      name: 'a region nobody explained goes with the edit its checkpoint shows',
      desktop: navy(DESKTOP),
      mobile: navy(MOBILE, { elsewhere: [{ x: 0, y: 400, width: 390, height: 40, kind: 'modified' }] }),
      groups: [[0, 1]],
    },
    {
      name: 'a size change alone at the same size is one group',
      desktop: { viewport: DESKTOP, before: {}, after: {}, heightAfter: 70 },
      mobile: { viewport: MOBILE, before: {}, after: {}, heightAfter: 70 },
      groups: [[0, 1]],
    },
    {
      name: 'a size change alone is the same change only at the same size',
      desktop: { viewport: DESKTOP, before: {}, after: {}, heightAfter: 70 },
      mobile: { viewport: MOBILE, before: {}, after: {}, heightAfter: 80 },
      groups: [[0], [1]],
    },
  ];

  it.each(cases)('$name', ({ desktop, mobile, mobileLevel, groups }) => {
    const { groups: found } = grouped(checkpoint('desktop', desktop), checkpoint('mobile', mobile, mobileLevel));
    expect(found.map((group) => [...group.members, ...group.alsoIn])).toEqual(groups);
  });

  it('keeps what each project showed, and its representative in the first project', () => {
    const [desktop, mobile] = [checkpoint('desktop', navy(DESKTOP)), checkpoint('mobile', navy(MOBILE))];
    const { groups, groupsOf, partsOf } = grouped(desktop, mobile);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ id: 'g1', members: [0, 1], alsoIn: [], representative: 0, change: desktop.change });
    expect([...groups[0].projects]).toEqual([
      ['desktop', desktop.change],
      ['mobile', mobile.change],
    ]);
    expect(groupsOf).toEqual([['g1'], ['g1']]);
    expect(partsOf.map((parts) => parts.get('g1'))).toEqual([desktop.change, mobile.change]);
  });

  it("groups two changes on two projects' pages into two groups, not four", () => {
    const footer = (viewport: Edit['viewport']): Edit => ({
      viewport,
      before: { color: GREY },
      after: { color: NAVY },
      code: code('a1b2c3d Navy header', 'color', '#14213d'),
    });
    const pages = [
      checkpoint('desktop', navy(DESKTOP)),
      checkpoint('desktop', footer(DESKTOP), 90),
      checkpoint('mobile', navy(MOBILE)),
      checkpoint('mobile', footer(MOBILE), 90),
    ];
    expect(grouped(...pages).groups.map((group) => group.members)).toEqual([
      [0, 2],
      [1, 3],
    ]);
  });

  it('makes one edit one group in one project too, and leaves the same words with no cause to the pixels there', () => {
    const wide = checkpoint('desktop', navy(DESKTOP));
    const narrow = checkpoint('desktop', navy(MOBILE));
    expect(grouped(wide, narrow).groups.map((group) => group.members)).toEqual([[0, 1]]);
    const [wideUncaused, narrowUncaused] = [
      checkpoint('desktop', navy(DESKTOP, { code: [] })),
      checkpoint('desktop', navy(MOBILE, { code: [] })),
    ];
    expect(grouped(wideUncaused, narrowUncaused).groups.map((group) => group.members)).toEqual([[0], [1]]);
  });

  it('takes the words of the checkpoints that show the change alone; one that also shows another keeps its part by pixels', () => {
    const [desktop, mobile] = [checkpoint('desktop', navy(DESKTOP)), checkpoint('mobile', navy(MOBILE))];
    // A mobile page with the header and a banner of its own: its header region is the other mobile page's.
    const withBanner = {
      change: { ...mobile.change, regions: [flatRegion(390, 100, 200), ...mobile.change.regions] },
      seen: { project: 'mobile', explanation: null },
    };
    const { groups, groupsOf } = grouped(desktop, mobile, withBanner);
    expect(groups.map((group) => [group.id, group.members, group.alsoIn, [...group.projects.keys()]])).toEqual([
      ['g1', [0, 1], [2], ['desktop', 'mobile']],
      ['g2', [2], [], ['mobile']],
    ]);
    expect(groupsOf[2]).toEqual(['g2', 'g1']);
    // Each project's print is its checkpoint with the change alone.
    expect(groups[0].projects.get('mobile')).toEqual(mobile.change);
  });

  it('never merges a change every checkpoint of which shows another too', () => {
    const desktop = checkpoint('desktop', navy(DESKTOP));
    const mobile = checkpoint('mobile', navy(MOBILE));
    const withBanner = { change: { ...mobile.change, regions: [flatRegion(390, 100, 200), ...mobile.change.regions] }, seen: mobile.seen };
    const bannerAlone = {
      change: { ...mobile.change, regions: [flatRegion(390, 100, 200)] },
      seen: { project: 'mobile', explanation: null },
    };
    expect(grouped(desktop, withBanner, bannerAlone).groups.map((group) => [...group.members, ...group.alsoIn])).toEqual([
      [1, 2],
      [0],
      [1],
    ]);
  });

  it('groups by pixels alone without projects and words', () => {
    const [desktop, mobile] = [checkpoint('desktop', navy(DESKTOP)), checkpoint('mobile', navy(MOBILE))];
    expect(groupChanges([desktop.change, mobile.change]).groups.map((group) => [group.members, [...group.projects.keys()]])).toEqual([
      [[0], ['']],
      [[1], ['']],
    ]);
  });
});
