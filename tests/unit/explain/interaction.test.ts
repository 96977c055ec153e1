import { describe, expect, it } from 'vitest';
import { explainChange, type ElementChange, type InteractionSides } from '../../../src/explain';
import { oneSidedStates } from '../../../src/explain/interaction';
import type { CodeChange } from '../../../src/git/code-change';
import type { InteractionState } from '../../../src/types';
import { layoutRecord, type Drawn } from './records';

/**
 * A shop's card grid, captured by a test that leaves the pointer over the second card on the
 * branch only (its test hovers a card before the checkpoint): the card's hover style shows on the
 * current side, and a `.card:hover` rule is what sets it, not the branch's commit.
 */
const CARD = 'html>body>main.grid>div.card';
const WHITE = 'rgb(255, 255, 255)';
const TINT = 'rgb(238, 238, 255)';
const SHADOW = 'rgba(0, 0, 0, 0.27) 0px 2px 8px 0px';

function page(options: { hovered?: number; title?: string } = {}): Drawn[] {
  return [
    { path: 'html', box: [0, 0, 800, 600] },
    { path: 'html>body', box: [0, 0, 800, 600] },
    { path: 'html>body>h1.title', box: [0, 0, 800, 40], text: 'Products', style: { 'font-size': options.title ?? '24px' } },
    { path: 'html>body>main.grid', box: [0, 40, 800, 200], style: { display: 'flex' } },
    ...[1, 2, 3].map(
      (n): Drawn => ({
        path: `${CARD}:${n}`,
        box: [(n - 1) * 220, 40, 200, 120],
        text: `Card ${n}`,
        style: n === options.hovered ? { 'background-color': TINT, 'box-shadow': SHADOW } : { 'background-color': WHITE },
      }),
    ),
    { path: 'html>body>form>input#email', box: [0, 300, 200, 30] },
  ];
}

const REGIONS = [
  { x: 0, y: 0, width: 800, height: 40 },
  { x: 220, y: 40, width: 200, height: 120 },
];

function state(over: Partial<InteractionState> = {}): InteractionState {
  return { hovered: null, focused: null, focusVisible: false, open: [], rules: [], ...over };
}

const HOVER_RULE = { selector: '.card:hover', properties: ['background-color', 'box-shadow'], elements: [`${CARD}:2`] };

/** The branch: a commit that changes the title's size and the cards' background (a line a rule of `.card` sets). */
const CODE: CodeChange[] = [
  {
    file: 'src/shop.css',
    commit: 'a1b2c3d Larger title, new card colour',
    lines: [
      {
        text: '  font-size: 32px;',
        added: true,
        target: { kind: 'style', selectors: ['.title'], properties: ['font-size'], defines: null },
      },
      {
        text: '  background-color: #fafafa;',
        added: true,
        target: { kind: 'style', selectors: ['.card'], properties: ['background-color'], defines: null },
      },
    ],
    uses: [],
    unread: null,
  },
];

const changeOf = (changes: ElementChange[], element: string) => changes.find((change) => change.path.endsWith(element))!;

describe('a difference the pointer or focus state makes is put down to it', () => {
  it('credits the hover style of the card under the pointer on the current side only to the pointer, and the real change beside it to its commit', () => {
    const sides: InteractionSides = {
      base: state({ hovered: 'html>body' }),
      current: state({ hovered: `${CARD}:2>p`, rules: [HOVER_RULE] }),
    };
    const explanation = explainChange(
      layoutRecord(page()),
      layoutRecord(page({ hovered: 2, title: '32px' })),
      REGIONS,
      CODE,
      {},
      undefined,
      sides,
    );
    const card = changeOf(explanation.changes, 'div.card:2');
    expect(card.cause).toBeNull();
    expect(card.interaction).toBe('pointer over `.card p` on the current side only');
    expect(card.words).toBe(
      '.card: background-color #fff → #eef, box-shadow none → #00000045 0px 2px 8px 0px — pointer over `.card p` on the current side only (`.card:hover` sets background-color, box-shadow)',
    );
    const title = changeOf(explanation.changes, 'h1.title');
    expect(title.cause).toMatchObject({ file: 'src/shop.css', commit: 'a1b2c3d Larger title, new card colour' });
    expect(title.interaction).toBeUndefined();
    // The pointer is over the body on the current side too: only the card is the current side's alone.
    expect(explanation.interaction).toEqual(['pointer over `.card p` on the current side only']);
    expect(explanation.note).toBeNull();
  });

  it('says a state no listed change is put down to in the note: the pointer on a card on one side, on the page below it on the other', () => {
    const sides: InteractionSides = { base: state({ hovered: `${CARD}:3` }), current: state({ hovered: 'html>body' }) };
    const explanation = explainChange(layoutRecord(page()), layoutRecord(page({ title: '32px' })), REGIONS, CODE, {}, undefined, sides);
    expect(explanation.note).toBe('the captures differ in pointer or focus: pointer over the 3rd `.card` on the base side only');
  });

  it('credits what the hover rule does not set on the same element to the commit that proves it', () => {
    const padded = (drawn: Drawn[]) =>
      drawn.map((one) => (one.path === `${CARD}:2` ? { ...one, style: { ...one.style, padding: '24px' } } : one));
    const code: CodeChange[] = [
      {
        ...CODE[0],
        lines: [
          {
            text: '  padding: 24px;',
            added: true,
            target: { kind: 'style', selectors: ['.card'], properties: ['padding'], defines: null },
          },
        ],
      },
    ];
    const sides: InteractionSides = { base: state(), current: state({ hovered: `${CARD}:2`, rules: [HOVER_RULE] }) };
    const explanation = explainChange(
      layoutRecord(page()),
      layoutRecord(padded(page({ hovered: 2 }))),
      REGIONS,
      code,
      {},
      undefined,
      sides,
    );
    const card = changeOf(explanation.changes, 'div.card:2');
    expect(card.cause?.line).toBe('padding: 24px;');
    expect(card.interaction).toBe('pointer over the 2nd `.card` on the current side only');
    expect(card.words).toMatch(
      / — pointer over the 2nd `\.card` on the current side only \(`\.card:hover` sets background-color, box-shadow\); padding: src\/shop\.css \(commit a1b2c3d Larger title, new card colour\)$/,
    );
  });

  it('never lets a state rule replace a cause the diff proves: a changed line that sets the property to the value now shown', () => {
    const code: CodeChange[] = [
      {
        ...CODE[0],
        lines: [
          {
            text: '  background-color: #eef;',
            added: true,
            target: { kind: 'style', selectors: ['.card'], properties: ['background-color'], defines: null },
          },
        ],
      },
    ];
    const sides: InteractionSides = { base: state(), current: state({ hovered: `${CARD}:2`, rules: [HOVER_RULE] }) };
    const card = changeOf(
      explainChange(layoutRecord(page()), layoutRecord(page({ hovered: 2 })), REGIONS, code, {}, undefined, sides).changes,
      'div.card:2',
    );
    expect(card.cause).toEqual({ file: 'src/shop.css', commit: 'a1b2c3d Larger title, new card colour', line: 'background-color: #eef;' });
    expect(card.words).toMatch(
      / — src\/shop\.css \(commit a1b2c3d Larger title, new card colour\); pointer over the 2nd `\.card` on the current side only \(`\.card:hover` sets background-color, box-shadow\) too$/,
    );
  });

  it('names which of same-named siblings is under the pointer', () => {
    const states = oneSidedStates({ base: state(), current: state({ hovered: `${CARD}:2` }) });
    expect(states.map((one) => one.words)).toEqual(['pointer over the 2nd `.card` on the current side only']);
  });

  it('never says one element is under the pointer on the base side only and on the current side only: moved, it is held on both', () => {
    // A banner added above the navbar on the branch: the same menu item, one step further down the page's tree.
    const item = (section: number) =>
      `html>body>nav.navbar>div.container:${section}>ul.navbar-nav>li.dropdown>ul.dropdown-menu>li:1>a.dropdown-item`;
    expect(oneSidedStates({ base: state({ hovered: item(1) }), current: state({ hovered: item(2) }) })).toEqual([]);
    const focus = oneSidedStates({ base: state({ focused: item(1) }), current: state({ focused: item(2), focusVisible: true }) });
    expect(focus.map((one) => one.words)).toEqual(['focus (shown) on `.dropdown-item` on the current side only']);
  });

  it('says a state may explain a change no rule it recorded proves, and keeps a commit that proves it', () => {
    const unproven: InteractionSides = { base: state(), current: state({ hovered: `${CARD}:2` }) };
    const alone = explainChange(layoutRecord(page()), layoutRecord(page({ hovered: 2 })), REGIONS, [], {}, undefined, unproven);
    expect(changeOf(alone.changes, 'div.card:2').words).toMatch(
      / — not attributed: pointer over the 2nd `\.card` on the current side only; may explain this$/,
    );
    const withCommit = explainChange(layoutRecord(page()), layoutRecord(page({ hovered: 2 })), REGIONS, CODE, {}, undefined, unproven);
    const card = changeOf(withCommit.changes, 'div.card:2');
    expect(card.cause?.file).toBe('src/shop.css');
    expect(card.words).toMatch(
      / — src\/shop\.css \(commit a1b2c3d Larger title, new card colour\); pointer over the 2nd `\.card` on the current side only; may explain this too$/,
    );
  });

  it('puts a focus ring shown on the base side only down to the focus, by the rule that draws it', () => {
    const focused = page().map((drawn) =>
      drawn.path.endsWith('#email') ? { ...drawn, style: { 'box-shadow': 'rgb(0, 0, 255) 0px 0px 0px 2px' } } : drawn,
    );
    const sides: InteractionSides = {
      base: state({
        focused: 'html>body>form>input#email',
        focusVisible: true,
        rules: [{ selector: 'input:focus-visible', properties: ['box-shadow'], elements: ['html>body>form>input#email'] }],
      }),
      current: state(),
    };
    const explanation = explainChange(
      layoutRecord(focused),
      layoutRecord(page()),
      [{ x: 0, y: 300, width: 200, height: 30 }],
      CODE,
      {},
      undefined,
      sides,
    );
    expect(explanation.changes.map((change) => [change.cause, change.words.split(' — ')[1]])).toEqual([
      [null, 'focus (shown) on `#email` on the base side only (`input:focus-visible` sets box-shadow)'],
    ]);
    expect(explanation.note).toBeNull();
  });

  it('claims nothing when a side does not know its state (an older capture), or both sides share it', () => {
    const hovered = page({ hovered: 2 });
    for (const sides of [
      { base: null, current: state({ hovered: `${CARD}:2`, rules: [HOVER_RULE] }) },
      { base: state({ hovered: `${CARD}:2`, rules: [HOVER_RULE] }), current: state({ hovered: `${CARD}:2`, rules: [HOVER_RULE] }) },
    ]) {
      const explanation = explainChange(layoutRecord(page()), layoutRecord(hovered), REGIONS, CODE, {}, undefined, sides);
      expect(changeOf(explanation.changes, 'div.card:2').cause?.file).toBe('src/shop.css');
      expect([explanation.interaction, explanation.note]).toEqual([undefined, null]);
    }
  });

  it('puts an element a hover shows (a tooltip) down to the rule that shows it', () => {
    const tooltip: Drawn = { path: `${CARD}:2>span.tip`, box: [230, 140, 120, 20], text: 'Add to cart' };
    const sides: InteractionSides = {
      base: state(),
      current: state({
        hovered: `${CARD}:2`,
        rules: [{ selector: '.card:hover .tip', properties: ['display'], elements: [tooltip.path] }],
      }),
    };
    const explanation = explainChange(layoutRecord(page()), layoutRecord([...page(), tooltip]), REGIONS, [], {}, undefined, sides);
    expect(changeOf(explanation.changes, 'span.tip').words).toBe(
      '.tip added (120×20) in .card — pointer over the 2nd `.card` on the current side only (`.card:hover .tip` sets display)',
    );
  });
});
