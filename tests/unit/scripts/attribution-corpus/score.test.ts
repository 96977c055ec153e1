import { describe, expect, it } from 'vitest';
import type { CorpusLabels } from '../../../../scripts/attribution-corpus/corpus';
import { scoreApps } from '../../../../scripts/attribution-corpus/score';
import type { ElementChange } from '../../../../src/explain';
import type { RunResult } from '../../../../src/report';

/** The attribution corpus's score, on results written by hand: what counts as right, a false silence, an invisible change listed. */

const labels: CorpusLabels = {
  branch: 'feature/x',
  changes: [
    {
      checkpoint: 'home › navbar',
      element: '>nav\\.[^>]*$',
      property: 'background-color',
      cause: { file: 'src/Navbar.jsx', commit: 'Navbar: violet' },
    },
    { checkpoint: 'home › board', element: '>div\\.tile$', property: 'background-color', cause: 'interaction state' },
  ],
  invisible: [{ checkpoint: 'home › hero', element: '>section\\.hero$', what: 'a class rename' }],
};

const change = (path: string, property: string, cause: ElementChange['cause'], words: string): ElementChange => ({
  kind: 'changed',
  element: path.split('>').pop()!,
  path,
  box: { x: 0, y: 0, width: 10, height: 10 },
  properties: [{ property, before: 'a', after: 'b' }],
  cause,
  words,
});

const results = (explained: Record<string, ElementChange[]>): RunResult =>
  ({
    tests: [
      {
        title: 'home',
        checkpoints: Object.entries(explained).map(([name, changes]) => ({ name, explanation: { changes, summary: '', note: null } })),
      },
    ],
  }) as unknown as RunResult;

describe('attribution corpus score', () => {
  it('counts a change right only with its element, property, file and commit, and an interaction state only when no commit is named', () => {
    const right = results({
      navbar: [
        change(
          'html>body>nav.flex.bg-[#4C1D95]',
          'background-color',
          { file: 'src/Navbar.jsx', commit: '1a2b3c4 Navbar: violet', line: '' },
          '… — src/Navbar.jsx',
        ),
      ],
      board: [change('html>body>div.tile', 'background-color', null, '.tile: … — pointer over .tile on the current side only')],
    });
    expect(scoreApps([{ fixture: 'app', labels, results: right, changedLines: [] }])).toMatchObject({ labelled: 2, right: 2, misses: [] });

    const wrong = results({
      navbar: [
        change(
          'html>body>nav.flex.bg-[#4C1D95]',
          'background-color',
          { file: 'src/Footer.jsx', commit: '5d6e7f8 Footer: larger', line: '' },
          '… — src/Footer.jsx',
        ),
      ],
      board: [
        change(
          'html>body>div.tile',
          'background-color',
          { file: 'src/App.jsx', commit: '1a2b3c4 Board: no notice', line: '' },
          '… — src/App.jsx',
        ),
      ],
    });
    const score = scoreApps([{ fixture: 'app', labels, results: wrong, changedLines: [] }]);
    expect(score.right).toBe(0);
    expect(score.misses.map((miss) => [miss.checkpoint, miss.kind])).toEqual([
      ['home › navbar', 'wrong file'],
      ['home › board', 'pointer not named'],
    ]);
  });

  it('matches a label on the name the words give an element (its source name) as on its path, and says which part of a miss was wrong', () => {
    const named = (element: string, property: string, cause: ElementChange['cause']) => ({
      ...change('html>body>nav._navbar_1goyx_41', property, cause, ''),
      element,
    });
    const bySource = { ...labels, changes: [{ ...labels.changes[0], element: '^\\.navbar \\(Navbar\\.module\\.scss\\)$' }] };
    const cause = { file: 'src/Navbar.jsx', commit: '1a2b3c4 Navbar: violet', line: '' };
    const score = (navbar: ElementChange[]) =>
      scoreApps([{ fixture: 'app', labels: bySource, results: results({ navbar }), changedLines: [] }]);
    expect(score([named('.navbar (Navbar.module.scss)', 'background-color', cause)]).right).toBe(1);
    expect(score([named('._navbar_1goyx_41', 'background-color', cause)]).misses[0].kind).toBe('element not listed');
    // A label on the source class: a change named by the module's generated class only is still a miss, and says what else was wrong.
    const byClass = { ...labels, changes: [{ ...labels.changes[0], element: '>nav\\.navbar$' }] };
    const hashedOnly = (cause: ElementChange['cause']) =>
      scoreApps([
        {
          fixture: 'app',
          labels: byClass,
          results: results({ navbar: [change('html>body>nav._navbar_1goyx_41', 'background-color', cause, '')] }),
          changedLines: [],
        },
      ]).misses[0];
    expect(hashedOnly(cause)).toMatchObject({ kind: 'element not listed', behindTheName: 'right' });
    expect(hashedOnly({ ...cause, file: 'src/Footer.jsx' })).toMatchObject({ kind: 'element not listed', behindTheName: 'wrong file' });
    expect(score([named('.navbar (Navbar.module.scss)', 'color', cause)]).misses[0].kind).toBe('property not named');
    expect(score([named('.navbar (Navbar.module.scss)', 'background-color', null)]).misses[0].kind).toBe('not attributed');
    expect(
      score([named('.navbar (Navbar.module.scss)', 'background-color', { ...cause, commit: '9f8e7d6 Footer: larger' })]).misses[0].kind,
    ).toBe('wrong commit');
  });

  it('finds "no changed file mentions" where a changed line names the element, and an invisible difference listed', () => {
    const silent = results({
      hero: [change('html>body>section.hero', 'height', null, 'section.hero: height — no changed file mentions this element')],
      navbar: [change('html>body>nav.flex.bg-[#4C1D95]', 'color', null, 'nav: color — no changed file mentions this element')],
    });
    const score = scoreApps([{ fixture: 'app', labels, results: silent, changedLines: ['<section className="hero">'] }]);
    expect(score.invisibleListed.map((miss) => miss.checkpoint)).toEqual(['home › hero']);
    // The hero's class is on a changed line; the navbar's change is labelled with a file.
    expect(score.falseSilences.map((miss) => miss.checkpoint)).toEqual(['home › navbar', 'home › hero']);
  });
});
