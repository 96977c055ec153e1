import { describe, expect, it } from 'vitest';
import type { ChangePrint } from '../../../src/compare';
import { explainChange } from '../../../src/explain';
import { partExplanation, type Seen } from '../../../src/group';
import type { CodeChange } from '../../../src/git/code-change';
import type { Region } from '../../../src/types';
import { layoutRecord, type Drawn } from '../explain/records';
import { flatRegion, grouped } from './prints';

/**
 * One edit is one group: the checkpoints whose words put their change down to the same file,
 * commit and line are one change, whatever their pixels, the elements it shows on, or the other
 * words. The pages are explained by the product's own explainChange; each changed element's box is
 * its changed region.
 */

const rule = (commit: string, selector: string, property: string, value: string): CodeChange => ({
  file: 'src/styles/theme.scss',
  commit,
  lines: [
    {
      text: `${property}: ${value};`,
      added: true,
      target: { kind: 'style', selectors: [selector], properties: [property], defines: null },
    },
  ],
  uses: [],
  unread: null,
});
const CODE = [
  rule('a1b2c3d Theme: the brand in violet', '.brand', 'background-color', '#6d28d9'),
  rule('e4f5a6b Footer: darker', 'footer', 'color', '#111'),
  rule('c7d8e9f Header: quieter label', '.label', 'color', '#555'),
];

interface Part {
  path: string;
  box: [number, number, number, number];
  property: string;
  before: string;
  after: string;
  /** The grey its region's print is drawn in (another colour, another print). */
  level: number;
}

const HEADER = {
  path: 'html>body>header.brand',
  box: [0, 0, 1280, 64],
  property: 'background-color',
  before: 'rgb(42, 109, 244)',
  after: 'rgb(109, 40, 217)',
  level: 60,
} satisfies Part;
const BUTTON = {
  path: 'html>body>main>button.brand',
  box: [40, 300, 160, 40],
  property: 'background-color',
  before: 'rgb(42, 109, 244)',
  after: 'rgb(109, 40, 217)',
  level: 60,
} satisfies Part;
const FOOTER = {
  path: 'html>body>footer',
  box: [0, 660, 1280, 60],
  property: 'color',
  before: 'rgb(51, 51, 51)',
  after: 'rgb(17, 17, 17)',
  level: 20,
} satisfies Part;

/** A label inside HEADER, restyled by an edit of its own. */
const LABEL = {
  path: 'html>body>header.brand>span.label',
  box: [120, 22, 40, 18],
  property: 'color',
  before: 'rgb(255, 255, 255)',
  after: 'rgb(85, 85, 85)',
  level: 40,
} satisfies Part;

/**
 * A checkpoint of `project` whose changed parts are `parts`: its print, and its words with its
 * regions; `unexplained`, regions besides them that no element in the records meets.
 */
function checkpoint(project: string, parts: Part[], unexplained: Region[] = []): { change: ChangePrint; seen: Seen } {
  const page = (side: 'before' | 'after'): Drawn[] => [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720] },
    { path: 'html>body>main', box: [0, 64, 1280, 596] },
    ...parts.map((part): Drawn => ({ path: part.path, box: part.box, style: { [part.property]: part[side] } })),
  ];
  const regions: Region[] = [
    ...parts.map(({ box: [x, y, width, height] }): Region => ({ x, y, width, height, kind: 'modified' })),
    ...unexplained,
  ];
  const explanation = explainChange(layoutRecord(page('before')), layoutRecord(page('after')), regions, CODE);
  const prints = [
    ...parts.map((part) => flatRegion(part.box[2], part.box[3], part.level)),
    ...unexplained.map((r) => flatRegion(r.width, r.height, 90)),
  ].sort((a, b) => b.width * b.height - a.width * a.height);
  return { change: { threshold: 0.1, regions: prints, lines: [] }, seen: { project, explanation, regions } };
}

describe('one edit, one group', () => {
  it('is what the fixture says: each element put down to its own line', () => {
    const { seen } = checkpoint('desktop', [HEADER, BUTTON, FOOTER]);
    expect(seen.explanation!.changes.map((change) => [change.path, change.cause?.commit, change.regions])).toEqual([
      [HEADER.path, 'a1b2c3d Theme: the brand in violet', [0]],
      [BUTTON.path, 'a1b2c3d Theme: the brand in violet', [1]],
      [FOOTER.path, 'e4f5a6b Footer: darker', [2]],
    ]);
  });

  it('makes a token that recolours a header on one page, a button on another and both on a third one group, each checkpoint once', () => {
    const { groups, groupsOf, partsOf } = grouped(
      checkpoint('desktop', [HEADER]),
      checkpoint('desktop', [BUTTON]),
      checkpoint('desktop', [HEADER, BUTTON]),
    );
    expect(groups.map((group) => [group.id, group.members, group.alsoIn])).toEqual([['g1', [0, 1, 2], []]]);
    expect(groupsOf).toEqual([['g1'], ['g1'], ['g1']]);
    // The third checkpoint's part is its whole change: both regions.
    expect(partsOf[2].get('g1')!.regions).toHaveLength(2);
  });

  it('makes one group of one edit seen in two projects on other elements, whatever the pixels', () => {
    const { groups } = grouped(checkpoint('desktop', [HEADER]), checkpoint('mobile', [{ ...BUTTON, box: [16, 400, 358, 48] }]));
    expect(groups.map((group) => [group.members, [...group.projects.keys()]])).toEqual([
      [
        [0, 1],
        ['desktop', 'mobile'],
      ],
    ]);
  });

  it("puts a checkpoint with two edits in each edit's group, and keeps two edits apart", () => {
    const { groups, groupsOf } = grouped(
      checkpoint('desktop', [HEADER]),
      checkpoint('desktop', [FOOTER]),
      checkpoint('desktop', [HEADER, FOOTER]),
      checkpoint('desktop', [BUTTON]),
    );
    expect(groups.map((group) => [...group.members, ...group.alsoIn].sort())).toEqual([
      [0, 2, 3],
      [1, 2],
    ]);
    expect(groupsOf[2]).toHaveLength(2);
  });

  it("says for each group of a checkpoint with two edits that group's part only, so neither edit is named twice", () => {
    const both = checkpoint('desktop', [HEADER, FOOTER]);
    const { groupsOf, partsOf } = grouped(checkpoint('desktop', [HEADER]), checkpoint('desktop', [FOOTER]), both);
    const words = groupsOf[2].map((id) => {
      const part = partExplanation(partsOf[2].get(id)!, both.change, both.seen.explanation, both.seen.regions);
      const commits = ['a1b2c3d', 'e4f5a6b'].filter((commit) => part!.summary.includes(commit));
      return [part!.changes.map((change) => change.path), commits, part!.regionCount];
    });
    expect(words).toEqual([
      [[HEADER.path], ['a1b2c3d'], 1],
      [[FOOTER.path], ['e4f5a6b'], 1],
    ]);
    // The part that is the whole change is said whole; without the regions, too.
    const alone = checkpoint('desktop', [HEADER]);
    expect(partExplanation(alone.change, alone.change, alone.seen.explanation, alone.seen.regions)).toBe(alone.seen.explanation);
    const header = partsOf[2].get(groupsOf[2][0])!;
    expect(partExplanation(header, both.change, both.seen.explanation, undefined)).toBe(both.seen.explanation);
  });

  it("makes no group of an edit whose every part is already another group's (a region two edits meet)", () => {
    // The label's region lies inside the header's: the header's edit meets it too, so the label's
    // edit is a part of the header's group and no group of its own with no member.
    const { groups, groupsOf } = grouped(checkpoint('desktop', [HEADER]), checkpoint('mobile', [HEADER, LABEL]));
    expect(groups.map((group) => [group.id, group.members, group.alsoIn])).toEqual([['g1', [0, 1], []]]);
    expect(groupsOf).toEqual([['g1'], ['g1']]);
  });

  it('keeps a checkpoint with a region nobody explains in the group of the edit its other regions show', () => {
    // As on a Vue app (noah-more): the same `.reveal` rule of main.css moved cards on the hero and the
    // projects checkpoints, in other pixels; the hero's capture also held the dev tools' 76×30 overlay,
    // which no element of the records meets. The edit was g1 on one checkpoint and g3 on the other.
    const overlay: Region = { x: 682, y: 660, width: 76, height: 30, kind: 'modified' };
    const hero = checkpoint('desktop', [HEADER], [overlay]);
    expect(hero.seen.explanation!.unexplained).toEqual([overlay]);
    const { groups, groupsOf } = grouped(hero, checkpoint('desktop', [BUTTON]));
    expect(groups.map((group) => [group.id, group.members, group.alsoIn])).toEqual([['g1', [0, 1], []]]);
    expect(groupsOf).toEqual([['g1'], ['g1']]);
  });

  it('keeps two edits apart though a region nobody explains sits beside one of them', () => {
    const overlay: Region = { x: 682, y: 660, width: 76, height: 30, kind: 'modified' };
    const { groups } = grouped(checkpoint('desktop', [HEADER], [overlay]), checkpoint('desktop', [FOOTER]));
    expect(groups.map((group) => group.members)).toEqual([[0], [1]]);
  });

  it('keeps one edit one group where a page shares only ARIA lines with a capture of its header (their pixels differ)', () => {
    // As on a SvelteKit app (tristan-skilltree): the layout's new background shows under the header capture, the about capture and
    // the whole page, each one region of its own; the header's navigation lines are in the page's ARIA snapshot too. The page's
    // part of the header's change was lines alone, which no cause is read from: the edit was split over two groups.
    const nav = ['- link "Skills"', '+ link "Skill tree"'];
    const withLines = (seen: { change: ChangePrint; seen: Seen }, lines: string[]) => ({ ...seen, change: { ...seen.change, lines } });
    const { groups, groupsOf } = grouped(
      withLines(checkpoint('desktop', [HEADER]), nav),
      checkpoint('desktop', [BUTTON]),
      withLines(checkpoint('desktop', [{ ...HEADER, box: [0, 0, 1280, 700], level: 70 }]), [...nav, '+ heading "Skill tree"']),
    );
    expect(groups.map((group) => [group.id, group.members, group.alsoIn])).toEqual([['g1', [0, 1, 2], []]]);
    expect(groupsOf).toEqual([['g1'], ['g1'], ['g1']]);
  });

  it('leaves a part that no cause accounts for to its pixels', () => {
    const unexplained = checkpoint('desktop', [BUTTON]);
    const withoutCause = {
      ...unexplained,
      seen: { ...unexplained.seen, explanation: explainChange(null, null, unexplained.seen.regions!, CODE) },
    };
    expect(grouped(checkpoint('desktop', [HEADER]), withoutCause).groups.map((group) => group.members)).toEqual([[0], [1]]);
  });
});
