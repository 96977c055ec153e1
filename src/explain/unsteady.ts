import type { ElementChange, Explanation } from './explain';

/** `(`.card:hover` sets background-color)`: the words a state rule that proves an element's whole change ends with (explain.ts causeOf). */
const RULE_WORDS = / \(`[^`]+` sets [^)]*\)$/;

/** A pointer or focus state explains this element's whole change: no commit, nothing the state's rule does not set. */
function byPointerOrFocusAlone(change: ElementChange): boolean {
  const state = change.interaction;
  if (!state || change.cause || !(state.startsWith('pointer over') || state.startsWith('focus'))) return false;
  const words = change.words.slice(change.words.indexOf(' — ') + 3);
  return words.startsWith(state) && RULE_WORDS.test(words.slice(state.length)) && !words.slice(state.length).includes(';');
}

/**
 * The words of the pointer and focus states that account for every changed region of a
 * difference, when they do: each listed change is a style a rule needing the pointer or focus
 * sets, on one side only, and no region is left unexplained. The test left the page so; the app
 * did not change (a `:hover` rule the branch changed, seen in the same state on both sides, is
 * no one-sided state and stays a change). Null otherwise.
 */
export function interactionOnly(explanation: Explanation | null): string[] | null {
  if (!explanation?.changes.length || explanation.unexplained.length !== 0) return null;
  if (!explanation.changes.every(byPointerOrFocusAlone)) return null;
  const states = new Set(explanation.changes.map((change) => change.interaction!));
  // Said in the order the explanation says its states: base side first.
  return [
    ...(explanation.interaction ?? []).filter((words) => states.has(words)),
    ...[...states].filter((words) => !explanation.interaction?.includes(words)),
  ];
}
