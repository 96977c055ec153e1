import { describe, expect, it } from 'vitest';
import { explainChange, type InteractionSides } from '../../../src/explain';
import { interactionOnly } from '../../../src/explain/unsteady';
import type { CodeChange } from '../../../src/git/code-change';
import type { InteractionState } from '../../../src/types';
import { layoutRecord, type Drawn } from './records';

/**
 * A portfolio's Services menu, opened by the test, which leaves the pointer over one of its items:
 * the 1st on one side, the 2nd on the other (the pointer stayed where the toggle was clicked, and
 * the menu sat a few pixels apart). `.dropdown-item:hover` tints the item under it.
 */
const ITEM = 'html>body>nav.navbar>ul.dropdown-menu>li>a.dropdown-item';
const TINT = 'rgb(233, 236, 239)';

function menu(hovered: number | null, tint = TINT): Drawn[] {
  return [
    { path: 'html', box: [0, 0, 800, 600] },
    { path: 'html>body', box: [0, 0, 800, 600] },
    { path: 'html>body>nav.navbar', box: [0, 0, 800, 86] },
    { path: 'html>body>nav.navbar>ul.dropdown-menu', box: [100, 60, 160, 100] },
    ...[1, 2, 3].map(
      (n): Drawn => ({
        path: `${ITEM}:${n}`,
        box: [100, 60 + n * 28, 160, 28],
        text: ['Branding', 'Web design', 'Workshops'][n - 1],
        style: n === hovered ? { 'background-color': tint } : {},
      }),
    ),
  ];
}

const state = (over: Partial<InteractionState> = {}): InteractionState => ({
  hovered: null,
  focused: null,
  focusVisible: false,
  open: [],
  rules: [],
  ...over,
});
const hoverRule = (n: number) => ({ selector: '.dropdown-item:hover', properties: ['background-color'], elements: [`${ITEM}:${n}`] });
const ITEM_REGIONS = [1, 2].map((n) => ({ x: 100, y: 60 + n * 28, width: 160, height: 28 }));

describe('a difference only the pointer or focus made', () => {
  it('gives the states in words when a one-sided hover rule accounts for every changed region', () => {
    const sides: InteractionSides = {
      base: state({ hovered: `${ITEM}:1`, rules: [hoverRule(1)] }),
      current: state({ hovered: `${ITEM}:2`, rules: [hoverRule(2)] }),
    };
    const explanation = explainChange(layoutRecord(menu(1)), layoutRecord(menu(2)), ITEM_REGIONS, [], {}, undefined, sides);
    expect(interactionOnly(explanation)).toEqual([
      'pointer over the 1st `.dropdown-item` on the base side only',
      'pointer over the 2nd `.dropdown-item` on the current side only',
    ]);
  });

  it('is null when a region is left that the states do not explain (a real change beside the pointer)', () => {
    const sides: InteractionSides = {
      base: state({ hovered: `${ITEM}:1`, rules: [hoverRule(1)] }),
      current: state({ hovered: `${ITEM}:2`, rules: [hoverRule(2)] }),
    };
    const explanation = explainChange(
      layoutRecord(menu(1)),
      layoutRecord(menu(2)),
      [...ITEM_REGIONS, { x: 400, y: 300, width: 50, height: 50 }],
      [],
      {},
      undefined,
      sides,
    );
    expect(interactionOnly(explanation)).toBeNull();
  });

  it("is null for a `:hover` rule the branch changed, seen in the same state on both sides: that is the app's change", () => {
    const code: CodeChange[] = [
      {
        file: 'public/styles.css',
        commit: 'abc1234 Menu: a blue hover',
        lines: [
          {
            text: '  background-color: #cfe2ff;',
            added: true,
            target: { kind: 'style', selectors: ['.dropdown-item:hover'], properties: ['background-color'], defines: null },
          },
        ],
        uses: [],
        unread: null,
      },
    ];
    const sides: InteractionSides = {
      base: state({ hovered: `${ITEM}:1`, rules: [hoverRule(1)] }),
      current: state({ hovered: `${ITEM}:1`, rules: [hoverRule(1)] }),
    };
    const explanation = explainChange(
      layoutRecord(menu(1)),
      layoutRecord(menu(1, 'rgb(207, 226, 255)')),
      ITEM_REGIONS.slice(0, 1),
      code,
      {},
      undefined,
      sides,
    );
    expect(explanation.changes.map((change) => change.cause?.file)).toEqual(['public/styles.css']);
    expect(interactionOnly(explanation)).toBeNull();
  });

  it('is null when a state only may explain the change (no rule needing it was recorded), or nothing differs in words', () => {
    const unproven: InteractionSides = { base: state({ hovered: `${ITEM}:1` }), current: state({ hovered: `${ITEM}:2` }) };
    expect(
      interactionOnly(explainChange(layoutRecord(menu(1)), layoutRecord(menu(2)), ITEM_REGIONS, [], {}, undefined, unproven)),
    ).toBeNull();
    expect(interactionOnly(null)).toBeNull();
  });
});
