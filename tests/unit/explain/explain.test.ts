import { describe, expect, it } from 'vitest';
import { decodeLayout, encodeLayout } from '../../../src/files/run-folder';
import type { BaseCapture } from '../../../src/capture';
import { explainChange } from '../../../src/explain';
import { baseLayoutGap } from '../../../src/report/assess';
import { selectorNames } from '../../../src/explain/attribute';
import { quotedChange, valueWord } from '../../../src/explain/words';
import { parseDiff } from '../../../src/git/diff';
import { withoutQueryValues } from '../../../src/util/text';
import type { CodeChange } from '../../../src/git/code-change';
import type { LayoutElement, LayoutRecord } from '../../../src/types';

const STYLE = {
  display: 'block',
  color: 'rgb(29, 36, 51)',
  'background-color': 'rgba(0, 0, 0, 0)',
  'flex-direction': 'row',
  padding: '0px',
  'letter-spacing': 'normal',
};

type Drawn = Omit<LayoutElement, 'style'> & { style: Record<string, string> };

function el(path: string, parent: number, box: [number, number, number, number], style: Record<string, string> = {}, text = ''): Drawn {
  return { path, parent, box, text, style: { ...STYLE, ...style } };
}

/** A record as capture stores it: each element's styles in the shared table. */
function record(elements: Drawn[]): LayoutRecord & { drawn: Drawn[] } {
  const styles = elements.map((element) => element.style);
  return {
    version: 1,
    width: 1280,
    height: 400,
    elements: elements.map((element, i) => ({ ...element, style: i })),
    styles,
    truncated: false,
    hidden: [],
    drawn: elements,
  };
}

const FULL = [{ x: 0, y: 0, width: 1280, height: 400 }];

/** A file's patch as `git diff` writes it, its lines given with their signs. */
const patch = (file: string, lines: string[]) => [`diff --git a/${file} b/${file}`, '@@ -1 +1 @@', ...lines].join('\n');

const BASE = record([
  el('html', -1, [0, 0, 1280, 400]),
  el('html>body', 0, [0, 0, 1280, 400]),
  el('html>body>h1', 1, [0, 0, 1280, 40], {}, 'Plans'),
  el('html>body>div.plans', 1, [0, 40, 1280, 300], { display: 'flex' }),
  el('html>body>div.plans>div.plan:1', 3, [0, 40, 400, 300], { 'background-color': 'rgb(255, 255, 255)' }),
  el('html>body>div.plans>div.plan:1>p.price', 4, [0, 60, 400, 30], {}, 'Pro $12'),
  el('html>body>div.plans>div.plan:2', 3, [400, 40, 400, 300], { 'background-color': 'rgb(255, 255, 255)' }),
  el('html>body>div.plans>div.plan:2>p.price', 6, [400, 60, 400, 30], {}, 'Team $30'),
  el('html>body>footer', 1, [0, 340, 1280, 52], { display: 'flex', padding: '16px 48px' }),
  el('html>body>footer>span', 8, [48, 356, 200, 20], {}, '© 2026 Acme'),
]);

describe('explainChange', () => {
  it('names a restyled element, its properties as CSS reads them and its new height', () => {
    const current = record(
      BASE.drawn.map((e) =>
        e.path === 'html>body>footer'
          ? {
              ...e,
              box: [0, 340, 1280, 60] as [number, number, number, number],
              style: { ...e.style, 'flex-direction': 'column', padding: '8px 48px' },
            }
          : e,
      ),
    );
    const explanation = explainChange(BASE, current, [{ x: 0, y: 340, width: 1280, height: 60 }], []);
    expect(explanation.changes).toHaveLength(1);
    expect(explanation.changes[0].words).toBe(
      'footer: flex-direction row → column, padding 16px 48px → 8px 48px; height 52 → 60 px — no changed file mentions this element',
    );
    expect(explanation.note).toBeNull();
  });

  it('names elements that changed alike once in its summary line, each still a change of its own', () => {
    const tinted = { 'background-color': 'rgb(238, 255, 238)' };
    const current = record(BASE.drawn.map((e) => (/div\.plan:\d$/.test(e.path) ? { ...e, style: { ...e.style, ...tinted } } : e)));
    const explanation = explainChange(BASE, current, FULL, []);
    expect(explanation.changes.map((change) => change.element)).toEqual(['.plan', '.plan']);
    expect(explanation.summary).toBe('.plan ×2: background-color #fff → #efe — no changed file mentions this element');
  });

  it('pairs an element whose class was added, and tells its colour and text apart (the class attribute itself renders nothing)', () => {
    const current = record(
      BASE.drawn.map((e) => {
        if (e.path === 'html>body>div.plans>div.plan:1')
          return { ...e, path: 'html>body>div.plans>div.plan.pro', style: { ...e.style, 'background-color': 'rgb(238, 255, 238)' } };
        if (e.path === 'html>body>div.plans>div.plan:1>p.price')
          return { ...e, path: 'html>body>div.plans>div.plan.pro>p.price', text: 'Pro $15' };
        if (e.path === 'html>body>div.plans>div.plan:2') return { ...e, path: 'html>body>div.plans>div.plan' };
        if (e.path === 'html>body>div.plans>div.plan:2>p.price') return { ...e, path: 'html>body>div.plans>div.plan>p.price' };
        return e;
      }),
    );
    const words = explainChange(BASE, current, FULL, []).changes.map((c) => c.words.split(' — ')[0]);
    expect(words).toEqual(['.plan.pro: background-color #fff → #efe', ".price: text 'Pro $12' → 'Pro $15'"]);
  });

  it('says an added element where it sits, and leaves out what it brought inside it', () => {
    const current = record([
      ...BASE.drawn.slice(0, 2),
      el('html>body>div.promo', 1, [0, 0, 1280, 200]),
      el('html>body>div.promo>strong', 2, [48, 20, 100, 20], {}, 'Sale'),
      ...BASE.drawn.slice(2).map((e) => ({ ...e, parent: e.parent >= 2 ? e.parent + 2 : e.parent })),
    ]);
    const explanation = explainChange(BASE, current, [{ x: 0, y: 0, width: 1280, height: 200 }], []);
    expect(explanation.changes.map((c) => c.words.split(' — ')[0])).toEqual(['.promo added (1280×200) above h1']);
  });

  it('names the property that hid an element a style now hides (still in the page, display none) and the rule that set it; an element the page lost is removed', () => {
    const withoutPlans = (hidden?: string[]) => ({
      ...record([...BASE.drawn.slice(0, 3), ...BASE.drawn.slice(8).map((e) => ({ ...e, parent: e.parent === 8 ? 3 : e.parent }))]),
      ...(hidden ? { hidden } : {}),
    });
    const code = parseDiff(patch('public/site.css', [' .plans {', '-  display: flex;', '+  display: none;', ' }']), 'a1 Hide the plans');
    const [hidden] = explainChange(BASE, withoutPlans(['html>body>div.plans']), FULL, code).changes;
    expect(hidden.words).toBe('.plans hidden: display flex → none (1280×300) — public/site.css (commit a1 Hide the plans)');
    expect(hidden.properties).toEqual([{ property: 'display', before: 'flex', after: 'none' }]);
    expect(hidden.cause?.line).toBe('display: none;');
    const shown = explainChange(withoutPlans(['html>body>div.plans']), BASE, FULL, []).changes[0];
    expect(shown.words).toBe('.plans shown: display none → flex (1280×300) above footer — no changed file mentions this element');
    expect(explainChange(BASE, withoutPlans(), FULL, []).changes[0].words).toBe(
      '.plans removed (1280×300) — no changed file mentions this element',
    );
  });

  it("keeps an inherited change on the element that made it: a child's equal change is its parent's", () => {
    const spaced = (e: Drawn) => ({ ...e, style: { ...e.style, 'letter-spacing': '0.4px' } });
    const current = record(BASE.drawn.map((e) => (e.path.startsWith('html>body>footer') ? spaced(e) : e)));
    expect(explainChange(BASE, current, FULL, []).changes.map((c) => c.element)).toEqual(['footer']);
  });

  it('attributes a change to the last commit whose diff proves it: a rule that matches the element and sets what changed', () => {
    const current = record(
      BASE.drawn.map((e) => (e.path === 'html>body>footer' ? { ...e, style: { ...e.style, padding: '8px 48px' } } : e)),
    );
    const code: CodeChange[] = [
      ...parseDiff(patch('public/site.css', ['+footer { padding: 8px 48px; }']), 'a1 Footer spacing'),
      ...parseDiff(patch('public/site.css', [' footer {', '+  color: #333;', ' }']), 'b2 Footer colour'),
      ...parseDiff(patch('public/index.html', ['+<div class="plans">']), 'c3 Plans'),
    ];
    expect(explainChange(BASE, current, FULL, code).changes[0].cause).toEqual({
      file: 'public/site.css',
      commit: 'a1 Footer spacing',
      line: 'footer { padding: 8px 48px; }',
    });
    expect(explainChange(BASE, current, FULL, code.slice(1)).changes[0].words).toMatch(
      / — not attributed: public\/site\.css changes `footer`, which matches it, but what it sets \(color\) is not what changed here$/,
    );
    expect(explainChange(BASE, current, FULL, code.slice(2)).changes[0].words).toMatch(/ — no changed file mentions this element$/);
  });

  it('says why it cannot explain: no record on a side, nothing restyled where the pixels changed', () => {
    expect(explainChange(null, BASE, FULL, []).note).toMatch(/^no layout record on the base side/);
    expect(explainChange(BASE, null, FULL, []).note).toMatch(/^no layout record on the current side/);
    expect(explainChange(BASE, BASE, FULL, [])).toEqual({
      changes: [],
      summary: '',
      note: expect.stringMatching(/^no element was added, removed or restyled/),
      unexplained: FULL,
      regionCount: 1,
    });
  });

  it('says what is known of why the base side has no layout record', () => {
    const base = (capture: BaseCapture | null, file: string | null = null) =>
      explainChange(null, BASE, FULL, [], { base: baseLayoutGap(capture, file) }).note;
    const failed: BaseCapture = {
      testStatus: 'timedOut',
      error: 'Test timeout of 30000ms exceeded.',
      taken: true,
      settled: true,
      layout: false,
    };
    expect(base(failed)).toBe('no layout record on the base side: the base test failed and its capture wrote none');
    expect(base({ ...failed, testStatus: 'passed', error: null })).toBe(
      'no layout record on the base side: the page could not be read after the capture',
    );
    expect(base({ ...failed, layout: true })).toBe('no layout record on the base side: its file is missing');
    expect(base(failed, '/entry/plans.layout.json.gz')).toBe('no layout record on the base side: its file is unreadable');
    expect(base(null)).toBe('no layout record on the base side');
    expect(explainChange(null, null, FULL, [], { base: 'page-unreadable', current: 'page-unreadable' }).note).toBe(
      'no layout record on either side: the page could not be read after the capture',
    );
    expect(explainChange(null, null, FULL, [], { base: 'base-test-failed', current: 'unreadable' }).note).toBe(
      'no layout record on the base side: the base test failed and its capture wrote none; none on the current side: its file is unreadable',
    );
  });
});

describe('attribution and words', () => {
  it("matches a rule's last compound to the element: tag, classes and id all its own", () => {
    expect(selectorNames('.plan.pro', 'html>body>div.plan.pro')).toBe(true);
    expect(selectorNames('.plan.pro', 'html>body>div.plan')).toBe(false);
    expect(selectorNames('header a, footer', 'html>body>footer')).toBe(true);
    expect(selectorNames('footer span', 'html>body>footer')).toBe(false);
    expect(selectorNames('a#buy.cta:hover', 'html>body>a#buy.cta.big')).toBe(true);
  });

  it('quotes a text change from a little before where the texts part, so a change late in a long sentence shows', () => {
    expect(quotedChange('Pro $12', 'Pro $15')).toEqual(["'Pro $12'", "'Pro $15'"]);
    expect(
      quotedChange(
        'New in v2.3: streaming uploads and resumable downloads',
        'New in v2.3: streaming uploads, resumable downloads and more',
      ),
    ).toEqual(["'…ming uploads and resumable downloads'", "'…ming uploads, resumable downloads and …'"]);
    expect(quotedChange('A short heading that grows much longer than forty', 'Another')).toEqual([
      "'A short heading that grows much longer …'",
      "'Another'",
    ]);
  });

  it('writes colours as hex, a transparent one as transparent', () => {
    expect(valueWord('rgb(255, 255, 255)')).toBe('#fff');
    expect(valueWord('rgb(42, 109, 244)')).toBe('#2a6df4');
    expect(valueWord('rgba(0, 0, 0, 0)')).toBe('transparent');
    expect(valueWord('1px solid rgb(215, 219, 227)')).toBe('1px solid #d7dbe3');
  });

  it("reads git's patches into changed lines, each with the rule or element a parser places it in", () => {
    const log = [
      '\u0001abc1234 Restyle the footer',
      'diff --git a/public/site.css b/public/site.css',
      '--- a/public/site.css',
      '+++ b/public/site.css',
      '@@ -1,5 +1,5 @@',
      ' footer {',
      '   display: flex;',
      '-  padding: 16px 48px;',
      '+  padding: 8px 48px;',
      ' }',
      '-.old { color: red; }',
      'diff --git a/public/index.html b/public/index.html',
      '@@ -1 +1 @@',
      '+<div class="promo">',
    ].join('\n');
    const footer = { kind: 'style', selectors: ['footer'], properties: ['padding'], defines: null };
    expect(parseDiff(log)).toEqual([
      {
        file: 'public/site.css',
        commit: 'abc1234 Restyle the footer',
        lines: [
          { text: '  padding: 16px 48px;', added: false, target: footer },
          { text: '  padding: 8px 48px;', added: true, target: footer },
          {
            text: '.old { color: red; }',
            added: false,
            target: { kind: 'style', selectors: ['.old'], properties: ['color'], defines: null },
          },
        ],
        uses: [],
        unread: null,
      },
      {
        file: 'public/index.html',
        commit: 'abc1234 Restyle the footer',
        lines: [
          {
            text: '<div class="promo">',
            added: true,
            target: { kind: 'element', tag: 'div', id: null, classes: ['promo'], dynamicClasses: false, text: '', parent: null },
          },
        ],
        uses: [],
        unread: null,
      },
    ]);
  });

  it('keeps no URL query value of a changed line: tokens live there', () => {
    const log = [
      'diff --git a/public/index.html b/public/index.html',
      '@@ -1 +1 @@',
      "+loadAll(['/api/recommendations?token=s3cr3t-abc&page=2#top']);",
    ].join('\n');
    expect(parseDiff(log, 'abc1234 Recommendations')[0].lines).toEqual([
      { text: "loadAll(['/api/recommendations?token=…&page=…#top']);", added: true, target: null },
    ]);
    expect(withoutQueryValues('<img src="https://cdn.test/a.png?sig=AbC%2F1&w=80"> and a?b c=d')).toBe(
      '<img src="https://cdn.test/a.png?sig=…&w=…"> and a?b c=d',
    );
  });

  it('stores a layout record as gzip, and refuses a damaged one', () => {
    const { drawn: _drawn, ...stored } = BASE;
    expect(decodeLayout(encodeLayout(stored))).toEqual(stored);
    expect(decodeLayout(Buffer.from('not gzip'))).toBeNull();
  });
});
