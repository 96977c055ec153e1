import type { ChangedLine, CodeChange } from '../git/code-change';
import { utilityProperties } from '../git/utility-classes';
import { cssInJsClass } from './css-in-js';
import { generatedFrom, isModuleFile, type HashOwners } from './css-modules';
import { undoneLines } from './page-and-diff';
import { recordedBy } from './properties';
import { selectorMatches, stepsOf, type ClassTest, type Step } from './selector';

/** Whether a changed rule applies to an element (CSS Modules' and CSS-in-JS names read back), and the rules that set a size. */

/** How a rule of `file` matches a page's classes: a CSS Module's read back (`owners`: its Vite hashes), else CSS-in-JS's. */
const classTest = (file: string, owners?: HashOwners): ClassTest =>
  isModuleFile(file) ? (named, has) => has === named || generatedFrom(has, named, file, owners) : cssInJsClass;

/** Whether a rule of `file` (one of its selectors) applies to the element at the end of `steps`. */
export const styledBy = (selectors: readonly string[], file: string, steps: Step[], owners?: HashOwners) =>
  selectors.some((selector) => selectorMatches(selector, steps, classTest(file, owners)));

export const isSize = (property: string) => property === 'width' || property === 'height';

/**
 * Whether a changed rule that applies to an element sets its width or height outright (`.hero {
 * height: 100vh }`), or a template's line gave its tag a size utility (`<div class="w-[75px]">`):
 * a new size the diff proves, said though what changed inside the element meets every region its
 * box does. The predicate takes the element's path on each side.
 */
export function sizeSetter(code: readonly CodeChange[]): (paths: readonly string[]) => boolean {
  const rules = sizeRulesOf(code);
  if (rules.length === 0) return () => false;
  return (paths) =>
    paths.some((path) => {
      const steps = stepsOf(path);
      return rules.some(({ file, selectors }) => styledBy(selectors, file, steps));
    });
}

const sizeRules = new WeakMap<readonly CodeChange[], { file: string; selectors: string[] }[]>();

/**
 * The selectors of what a changed line sets the width or height of: its rule's, or, for a template's tag it gave a size utility
 * (`<div class="w-[75px]">`), that tag with its classes.
 */
function sizeSelectors(line: ChangedLine): string[] {
  const target = line.target;
  if (target?.kind === 'style') return !target.defines && target.properties.some((p) => recordedBy(p).some(isSize)) ? target.selectors : [];
  if (target?.kind !== 'element' || !line.added || !target.classes.some((name) => utilityProperties(name)?.some(isSize))) return [];
  return [`${target.tag}${target.classes.map((name) => `.${name.replace(/[^\w-]/g, '\\$&')}`).join('')}`];
}

/** The changed rules (their file and selectors) that set a width or height, read once per diff. */
function sizeRulesOf(code: readonly CodeChange[]): { file: string; selectors: string[] }[] {
  const known = sizeRules.get(code);
  if (known) return known;
  const undone = undoneLines(code);
  const rules = code.flatMap((change) =>
    change.lines.flatMap((line) => {
      const selectors = undone.has(line) ? [] : sizeSelectors(line);
      return selectors.length ? [{ file: change.file, selectors }] : [];
    }),
  );
  sizeRules.set(code, rules);
  return rules;
}
