import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  realCases,
  scoreRealCases,
  type CorpusSet,
  type RealCase,
  type RealChange,
} from '../../../../scripts/attribution-corpus/real-commits';
import type { ElementChange } from '../../../../src/explain';

/** The real-commit corpus's score, on a results folder written by hand: generated names, unrelated files, one edit split over groups, and the sets. */

const FEED = 'Feed: calmer cards';
const label = (
  id: string,
  checkpoint: string,
  element: string,
  property: string,
  file: string,
  set: CorpusSet = 'working',
): RealChange => ({
  id,
  checkpoint,
  element,
  source: element,
  property,
  cause: { file, commit: FEED },
  set,
});

const change = (element: string, property: string, cause: ElementChange['cause'], words: string): ElementChange => ({
  kind: 'changed',
  element,
  path: `html>body>${element}`,
  box: { x: 0, y: 0, width: 10, height: 10 },
  properties: [{ property, before: 'a', after: 'b' }],
  cause,
  words,
});

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A results folder with one case, its checkpoints' changes and groups as given. */
function resultsFolder(
  id: string,
  checkpoints: Record<string, { changes: ElementChange[]; group: string; otherGroups?: string[] }>,
): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'real-corpus-'));
  folders.push(folder);
  fs.mkdirSync(path.join(folder, id));
  const tests = [
    {
      title: 'feed',
      checkpoints: Object.entries(checkpoints).map(([name, c]) => ({
        name,
        group: c.group,
        otherGroups: c.otherGroups ?? [],
        explanation: { changes: c.changes, summary: '', note: null },
      })),
    },
  ];
  fs.writeFileSync(path.join(folder, id, 'latest.json'), JSON.stringify({ tests }));
  return folder;
}

/** A labels file outside the repository, as the held-out set's are kept. */
function labelsFile(cases: RealCase[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'real-labels-'));
  folders.push(dir);
  const file = path.join(dir, 'labels.json');
  fs.writeFileSync(file, JSON.stringify({ cases }));
  return file;
}

describe('real-commit corpus score', () => {
  const [cardId, titleId, badgeId] = ['feed-app/card-list', 'feed-app/card-page', 'feed-app/badge'];
  const feed: RealCase = {
    id: 'feed-app',
    repository: 'someone/feed-app',
    stack: 'Vite, CSS Modules + SCSS',
    base: 'a'.repeat(40),
    commits: [{ sha: 'b'.repeat(40), subject: FEED }],
    checkpoints: { 'feed › list': '.list', 'feed › page': 'fullPage' },
    changes: [
      label(cardId, 'feed › list', '^\\.card \\(card\\.module\\.scss\\)$', 'padding', 'src/card.module.scss'),
      label(titleId, 'feed › page', '^\\.card \\(card\\.module\\.scss\\)$', 'padding', 'src/card.module.scss'),
      label(badgeId, 'feed › list', '^\\.badge \\(card\\.module\\.scss\\)$', 'color', 'src/card.module.scss', 'held-out'),
    ],
    invisible: [],
  };
  const cause = { file: 'src/card.module.scss', commit: `1a2b3c4 ${FEED}`, line: '' };

  it('scores the set it is asked for: the cause by the source name, one group across checkpoints, no generated names, no unrelated file', () => {
    const folder = resultsFolder('feed-app', {
      list: {
        changes: [
          change('.card (card.module.scss)', 'padding', cause, '.card (card.module.scss): padding 8px → 16px — src/card.module.scss'),
          change(
            '.badge (card.module.scss)',
            'color',
            null,
            '.badge (card.module.scss): color — not attributed: src/Footer.svelte changes `flex`',
          ),
        ],
        group: 'g1',
      },
      page: {
        changes: [
          change('.card (card.module.scss)', 'padding', cause, '.card (card.module.scss): padding 8px → 16px — src/card.module.scss'),
        ],
        group: 'g2',
        otherGroups: ['g1'],
      },
    });
    // The held-out badge's words are neither scored nor printed with the working set.
    expect(scoreRealCases([feed], folder, 'working')).toMatchObject({
      labelled: 2,
      right: 2,
      hashedNames: [],
      unrelatedFiles: [],
      unlabelled: [],
      multiCheckpoint: 1,
      splitGroups: [],
    });
    expect(scoreRealCases([feed], folder, 'held-out')).toMatchObject({ cases: 1, labelled: 1, right: 0 });
  });

  it('counts a generated class name in the words, a "not attributed" of a labelled element that names an unrelated file, and one edit split over groups', () => {
    const unrelated = '.card (card.module.scss): padding 8px → 16px — not attributed: src/Footer.svelte changes a line with `flex`';
    const folder = resultsFolder('feed-app', {
      list: {
        changes: [
          change('.card (card.module.scss)', 'padding', null, unrelated),
          // Not labelled: whether its file is related is not known, so it is not counted.
          change('.footer', 'color', null, '.footer: color — not attributed: src/Footer.svelte changes `flex`'),
        ],
        group: 'g1',
      },
      page: { changes: [change('._card_x1y2z_3', 'padding', cause, '._card_x1y2z_3: padding — src/card.module.scss')], group: 'g2' },
    });
    const score = scoreRealCases([feed], folder, 'working');
    expect(score.right).toBe(0);
    expect(score.misses.map((miss) => miss.kind)).toEqual(['not attributed', 'element not listed']);
    expect(score.hashedNames.map((miss) => miss.checkpoint)).toEqual(['feed › page']);
    expect(score.unrelatedFiles.map((miss) => miss.said)).toEqual([unrelated]);
    expect(score.splitGroups.map((miss) => miss.said)).toEqual(['feed › list: g1; feed › page: g2']);
  });

  it('counts the CSS Module names Create React App generates (lowercase file names too), and not a BEM name', () => {
    const folder = resultsFolder('feed-app', {
      list: {
        changes: [
          change('img.nav_title__AbC1d', 'width', cause, 'img.nav_title__AbC1d: width 100 → 135 px — src/card.module.scss'),
          change('li.navbar__item--main', 'margin', cause, 'li.navbar__item--main: margin 0 → 8px — src/card.module.scss'),
        ],
        group: 'g1',
      },
      page: { changes: [], group: 'g1' },
    });
    expect(scoreRealCases([feed], folder, 'working').hashedNames.map((miss) => miss.said)).toEqual([
      'img.nav_title__AbC1d: width 100 → 135 px — src/card.module.scss',
    ]);
  });

  it('says which cases the folder holds no results for, and scores the others', () => {
    const folder = resultsFolder('other-app', {});
    const score = scoreRealCases([feed], folder, 'working');
    expect(score.notRun).toEqual([`feed-app (2 labelled changes): no results at ${path.join(folder, 'feed-app', 'latest.json')}`]);
    expect(score).toMatchObject({ cases: 0, labelled: 0 });
  });

  it('reads held-out labels from files outside the repository, several at once, and refuses a set it does not know or a case id used twice', () => {
    const elsewhere: RealCase = { ...feed, id: 'shop-app', changes: [{ ...feed.changes[2], id: 'shop-app/badge' }] };
    const cases = realCases([labelsFile([feed]), labelsFile([elsewhere])]);
    expect(cases.map((c) => c.id)).toEqual(['feed-app', 'shop-app']);
    const folder = resultsFolder('shop-app', {
      list: {
        changes: [
          change('.badge (card.module.scss)', 'color', cause, '.badge (card.module.scss): color red → blue — src/card.module.scss'),
        ],
        group: 'g1',
      },
    });
    expect(scoreRealCases(cases, folder, 'held-out')).toMatchObject({
      cases: 1,
      labelled: 1,
      right: 1,
      notRun: [expect.stringContaining('feed-app (1 labelled changes)')],
    });

    const unknown = labelsFile([{ ...feed, changes: [{ ...feed.changes[0], set: 'aside' as CorpusSet }] }]);
    expect(() => realCases([unknown])).toThrow(`${unknown}: ${cardId} has set "aside": mark it working or held-out`);
    const twice = labelsFile([feed]);
    expect(() => realCases([labelsFile([feed]), twice])).toThrow(`${twice}: case feed-app is also in another labels file`);
  });

  it('keeps every committed label in the working set: the held-out labels are not in the repository', () => {
    const changes = realCases().flatMap((c) => c.changes);
    expect(changes.length).toBeGreaterThanOrEqual(40);
    expect(changes.filter((c) => c.set !== 'working')).toEqual([]);
  });
});
