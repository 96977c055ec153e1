import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { realCases, scoreRealCases, setOf, type RealCase, type RealChange } from '../../../../scripts/attribution-corpus/real-commits';
import type { ElementChange } from '../../../../src/explain';

/** The real-commit corpus's score, on a results folder written by hand: generated names, unrelated files, one edit split over groups, and the sets. */

const FEED = 'Feed: calmer cards';
const label = (id: string, checkpoint: string, element: string, property: string, file: string): RealChange => ({
  id,
  checkpoint,
  element,
  source: element,
  property,
  cause: { file, commit: FEED },
  set: setOf(id),
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

/** Ids whose hash puts them in the set asked for, so the test scores what it writes. */
const idsIn = (set: 'working' | 'held-out', prefix: string, count: number) =>
  Array.from({ length: 40 }, (_, i) => `${prefix}/${i}`)
    .filter((id) => setOf(id) === set)
    .slice(0, count);

describe('real-commit corpus score', () => {
  const [cardId, titleId] = idsIn('working', 'feed-app', 2);
  const [badgeId] = idsIn('held-out', 'feed-app', 1);
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
      label(badgeId, 'feed › list', '^\\.badge \\(card\\.module\\.scss\\)$', 'color', 'src/card.module.scss'),
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

  it('says which cases the folder holds no results for, and scores the others', () => {
    const folder = resultsFolder('other-app', {});
    const score = scoreRealCases([feed], folder, 'working');
    expect(score.notRun).toEqual([`feed-app (2 labelled changes): no results at ${path.join(folder, 'feed-app', 'latest.json')}`]);
    expect(score).toMatchObject({ cases: 0, labelled: 0 });
  });

  it('refuses a labels file whose change was moved out of the set its hash chose', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'real-labels-')), 'labels.json');
    folders.push(path.dirname(file));
    const moved = { ...feed, changes: [{ ...feed.changes[0], set: 'held-out' }] };
    fs.writeFileSync(file, JSON.stringify({ cases: [moved] }));
    expect(() => realCases(file)).toThrow(`${cardId} is marked held-out, but its hash puts it in working`);
  });

  it('labels every committed change with the set its hash chose, and keeps about a third aside', () => {
    const changes = realCases().flatMap((c) => c.changes);
    const heldOut = changes.filter((c) => c.set === 'held-out').length;
    expect(changes.length).toBeGreaterThanOrEqual(40);
    expect(heldOut / changes.length).toBeGreaterThan(0.2);
    expect(heldOut / changes.length).toBeLessThan(0.45);
  });
});
