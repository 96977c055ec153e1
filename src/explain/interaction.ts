import type { InteractionState, StateRule } from '../types';
import { related } from './properties';
import { elementName, pathSteps } from './words';

/**
 * Differences that come from how a test left the page (the pointer over a card, an input focused,
 * a menu open) rather than from the code: a state one side was captured in and the other was not.
 */

/** Each side's pointer and focus state at capture (CapturedSignals.interaction); null: not known (the page could not be read). */
export interface InteractionSides {
  base: InteractionState | null;
  current: InteractionState | null;
}

export const NO_INTERACTION: InteractionSides = { base: null, current: null };

type Side = keyof InteractionSides;
type StateKind = 'pointer' | 'focus' | 'open';

/** A state one side was captured in and the other was not: the pointer over an element, focus on one, one open. */
export interface OneSidedState {
  kind: StateKind;
  side: Side;
  path: string;
  /** The words: "pointer over the 2nd `.card` on the current side only". */
  words: string;
}

/** The selector part each state kind is written with in a style sheet. */
const STATE_SELECTOR: Record<StateKind, RegExp> = {
  pointer: /:hover\b/,
  focus: /:focus(-visible|-within)?\b/,
  open: /:popover-open\b|:open\b|\[open\]/,
};

const ORDINAL = ['th', 'st', 'nd', 'rd'];
const ordinal = (n: number) => `${n}${ORDINAL[n % 100 >= 11 && n % 100 <= 13 ? 0 : n % 10 <= 3 ? n % 10 : 0]}`;

/** An element as the state's words name it: the 2nd of same-named siblings says which card. */
function stateName(path: string): string {
  const name = `\`${elementName(path)}\``;
  const place = pathSteps(path)
    .pop()
    ?.match(/:(\d+)$/);
  return place && !name.includes('nth-of-type') ? `the ${ordinal(Number(place[1]))} ${name}` : name;
}

function stateWords(kind: StateKind, side: Side, path: string, focusVisible: boolean): string {
  const name = stateName(path);
  const what =
    kind === 'pointer' ? `pointer over ${name}` : kind === 'focus' ? `focus${focusVisible ? ' (shown)' : ''} on ${name}` : `${name} open`;
  return `${what} on the ${side} side only`;
}

/** What a side's state holds of one kind: the element under the pointer, the focused one, the open ones. */
function held(state: InteractionState, kind: StateKind): string[] {
  if (kind === 'pointer') return state.hovered ? [state.hovered] : [];
  if (kind === 'focus') return state.focused ? [state.focused] : [];
  return state.open;
}

/** What a side is in of one kind: the pointer is over every ancestor of the element under it too (the whole `:hover` chain). */
function holds(state: InteractionState, kind: StateKind): Set<string> {
  if (kind !== 'pointer' || !state.hovered) return new Set(held(state, kind));
  const steps = pathSteps(state.hovered);
  return new Set(steps.map((_, i) => steps.slice(0, i + 1).join('>')));
}

/**
 * The states one side was captured in and the other was not, base side first. Nothing when a
 * side's state is not known: a claim needs both. An element the other side holds by the same name
 * (its path moved: an element added above it) is held on both sides: saying it "on the base side
 * only" and "on the current side only" at once would contradict itself.
 */
export function oneSidedStates(sides: InteractionSides): OneSidedState[] {
  const { base, current } = sides;
  if (!base || !current) return [];
  const states: OneSidedState[] = [];
  for (const kind of ['pointer', 'focus', 'open'] as const)
    for (const [side, own, other] of [
      ['base', base, current],
      ['current', current, base],
    ] as const) {
      const theirs = holds(other, kind);
      const theirNames = new Set([...theirs].map(stateName));
      const visibleDiffers = kind === 'focus' && own.focusVisible && !other.focusVisible;
      for (const path of held(own, kind))
        if ((!theirs.has(path) && !theirNames.has(stateName(path))) || visibleDiffers)
          states.push({ kind, side, path, words: stateWords(kind, side, path, kind === 'focus' && own.focusVisible) });
    }
  return states;
}

/** What the explanation asks of an element: its paths (base first when it differs), what changed in it. */
export interface StateClues {
  kind: 'added' | 'removed' | 'changed';
  paths: string[];
  properties: string[];
}

/** Why a one-sided state explains an element's change: proven by a state rule, or only near it. */
export interface StateCause {
  state: OneSidedState;
  /** The state rule that applies to the element on that side and sets what changed; null: none found (the words say it may explain it). */
  rule: StateRule | null;
  words: string;
}

const within = (path: string, outer: string) => path === outer || path.startsWith(`${outer}>`);

/** The page itself (`html`, `body`): a pointer over it or focus on it says nothing about one element. */
const isPage = (path: string) => pathSteps(path).length <= 2;

/**
 * The one-sided state that explains an element's change, if any. Proven when a rule of that side's
 * style sheets that needs the state (`.card:hover`) applied to the element at capture and sets a
 * property that changed (or, for an element that came or went, one that decides whether it
 * shows); else, for the element under the pointer or focused (or inside or around it, the page
 * itself aside), said as a state that may explain it.
 */
export function stateCause(clues: StateClues, sides: InteractionSides, states: readonly OneSidedState[]): StateCause | null {
  // A changed element needs a rule that sets what changed; one that came or went, a rule that decides whether it shows.
  const proves = (properties: readonly string[]) => related(properties, clues) >= (clues.kind === 'changed' ? 2 : 1);
  for (const state of states) {
    const rules = sides[state.side]?.rules ?? [];
    const rule = rules.find(
      (candidate) =>
        STATE_SELECTOR[state.kind].test(candidate.selector) &&
        candidate.elements.some((path) => clues.paths.includes(path)) &&
        proves(candidate.properties),
    );
    if (rule) {
      const sets = rule.properties.filter((property) => proves([property]));
      return { state, rule, words: `${state.words} (\`${rule.selector}\` sets ${[...new Set(sets)].slice(0, 4).join(', ')})` };
    }
  }
  const near = (state: OneSidedState) =>
    !isPage(state.path) && clues.paths.some((path) => within(path, state.path) || within(state.path, path));
  const close = states.find(near);
  return close ? { state: close, rule: null, words: `${close.words}; may explain this` } : null;
}
