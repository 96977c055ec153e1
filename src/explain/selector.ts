import selectorParser from 'postcss-selector-parser';
import { pathSteps, stepParts } from './words';

/** One step of an element's path: what a selector can be checked against. */
export type Step = ReturnType<typeof stepParts>;

/** Whether a class a selector names is one the element has: the same name, or (a CSS Module's) one generated from it. */
export type ClassTest = (named: string, has: string) => boolean;

interface Compound {
  tag: string | null;
  ids: string[];
  classes: { name: string; global: boolean }[];
  root: boolean;
  /** `:not(…)`: compounds none of which may hold. */
  not: Compound[];
  /** `:is(…)`, `:where(…)`: each a list of which one must hold. */
  any: Compound[][];
}

interface Complex {
  compounds: Compound[];
  /** Between compounds[i] and compounds[i + 1]: ' ', '>', '+', '~'. */
  combinators: string[];
}

const empty = (): Compound => ({ tag: null, ids: [], classes: [], root: false, not: [], any: [] });

/** The last compound of each selector of a list (what `:not()` and `:is()` are checked with). */
function lastCompounds(selectors: selectorParser.Container): Compound[] {
  return selectors.nodes.flatMap((selector) => {
    const complex = complexOf(selector as selectorParser.Selector);
    return complex.compounds.length ? [complex.compounds[complex.compounds.length - 1]] : [];
  });
}

function complexOf(selector: selectorParser.Selector, global = false): Complex {
  const compounds: Compound[] = [empty()];
  const combinators: string[] = [];
  for (const node of selector.nodes) {
    const compound = compounds[compounds.length - 1];
    if (node.type === 'combinator') {
      combinators.push(node.value.trim() || ' ');
      compounds.push(empty());
    } else if (node.type === 'tag') compound.tag = node.value;
    else if (node.type === 'id') compound.ids.push(node.value);
    else if (node.type === 'class') compound.classes.push({ name: node.value, global });
    else if (node.type === 'pseudo') {
      const name = node.value.toLowerCase();
      if (name === ':root') compound.root = true;
      else if ((name === ':global' || name === ':local') && node.nodes.length) {
        // CSS Modules: `:global(.x)` names the class as it is on the page.
        for (const inner of node.nodes) {
          const part = complexOf(inner as selectorParser.Selector, name === ':global').compounds[0];
          compound.classes.push(...part.classes);
          compound.ids.push(...part.ids);
          compound.tag ??= part.tag;
        }
      } else if (name === ':not') compound.not.push(...lastCompounds(node));
      else if ([':is', ':where', ':matches', ':-webkit-any'].includes(name)) compound.any.push(lastCompounds(node));
    }
  }
  return { compounds, combinators };
}

/** How many parsed selectors and paths are kept for the run: the same rules are checked against every element of every checkpoint. */
const MEMO_LIMIT = 50_000;
const parsed = new Map<string, Complex[] | null>();

/** A selector list read by postcss-selector-parser; null when it does not parse (a Sass interpolation). */
function complexes(selector: string): Complex[] | null {
  if (!parsed.has(selector)) {
    if (parsed.size > MEMO_LIMIT) parsed.clear();
    try {
      parsed.set(
        selector,
        selectorParser()
          .astSync(selector)
          .nodes.map((node) => complexOf(node)),
      );
    } catch {
      parsed.set(selector, null);
    }
  }
  return parsed.get(selector)!;
}

function holds(compound: Compound, step: Step, sameClass: ClassTest): boolean {
  if (compound.root && step.tag !== 'html') return false;
  if (compound.tag && compound.tag !== '*' && compound.tag.toLowerCase() !== step.tag.toLowerCase()) return false;
  if (compound.ids.some((id) => id !== step.id)) return false;
  if (!compound.classes.every(({ name, global }) => step.classes.some((has) => (global ? has === name : sameClass(name, has)))))
    return false;
  if (compound.not.some((inner) => holds(inner, step, sameClass))) return false;
  return compound.any.every((list) => list.some((inner) => holds(inner, step, sameClass)));
}

/**
 * Whether what is left of compound `at` holds from step `index`. The record keeps no siblings, so
 * a `+` or `~` sibling is taken to be there and the rest is read from the element's own place.
 */
function leftHolds(complex: Complex, at: number, steps: Step[], index: number, sameClass: ClassTest): boolean {
  if (at === 0) return true;
  const combinator = complex.combinators[at - 1];
  if (combinator === '>') return index > 0 && holdsAt(complex, at - 1, steps, index - 1, sameClass);
  if (combinator === '+' || combinator === '~') return leftHolds(complex, at - 1, steps, index, sameClass);
  for (let above = index - 1; above >= 0; above--) if (holdsAt(complex, at - 1, steps, above, sameClass)) return true;
  return false;
}

function holdsAt(complex: Complex, at: number, steps: Step[], index: number, sameClass: ClassTest): boolean {
  return holds(complex.compounds[at], steps[index], sameClass) && leftHolds(complex, at, steps, index, sameClass);
}

const stepsMemo = new Map<string, Step[]>();

/** The steps of an element's path, root first. */
export function stepsOf(path: string): Step[] {
  let steps = stepsMemo.get(path);
  if (!steps) {
    if (stepsMemo.size > MEMO_LIMIT) stepsMemo.clear();
    steps = pathSteps(path).map((step) => stepParts(step));
    stepsMemo.set(path, steps);
  }
  return steps;
}

export const sameName: ClassTest = (named, has) => named === has;

/**
 * Whether a selector (list) applies to the element at the end of `steps`: its tags, ids, classes,
 * `:root`, `:not()`, `:is()` and combinators are checked against the element and its ancestors;
 * what the record cannot tell (attributes, states such as `:hover`, positions, siblings) is taken
 * to hold. A pseudo-element (`::before`) styles a part of the element, so it counts as the element.
 */
export function selectorMatches(selector: string, steps: Step[], sameClass: ClassTest = sameName): boolean {
  if (steps.length === 0) return false;
  return (complexes(selector) ?? []).some((complex) => holdsAt(complex, complex.compounds.length - 1, steps, steps.length - 1, sameClass));
}
