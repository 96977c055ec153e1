import type { ChangedLine, CodeChange } from '../git/code-change';
import { stepsOf, type Step } from './selector';

/** What the attribution reads once per page or per diff: the page's elements as steps, its classes' counts, the lines undone. */

const pageSteps = new WeakMap<readonly string[], Step[][]>();

/** The elements of the page, as selector steps, read once per page. */
export function stepsOfPage(page: readonly string[]): Step[][] {
  let steps = pageSteps.get(page);
  if (!steps) {
    steps = page.map(stepsOf);
    pageSteps.set(page, steps);
  }
  return steps;
}

const pageClasses = new WeakMap<readonly string[], Map<string, number>>();

/** How many elements of the page (both sides) carry each class. */
export function classCounts(page: readonly string[]): Map<string, number> {
  let counts = pageClasses.get(page);
  if (!counts) {
    counts = new Map();
    for (const steps of stepsOfPage(page))
      for (const name of steps[steps.length - 1]?.classes ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);
    pageClasses.set(page, counts);
  }
  return counts;
}

const undoneOf = new WeakMap<readonly CodeChange[], Set<ChangedLine>>();

/**
 * The changed lines a later commit of the branch undid: a line one commit adds and a later one
 * removes as it was (or removes and a later one writes back), in the same rule or element. Between
 * the base and the working tree they changed nothing, so they prove nothing (`margin-left: 2rem`
 * added by one commit and dropped by a "minor fix").
 */
export function undoneLines(code: readonly CodeChange[]): Set<ChangedLine> {
  let undone = undoneOf.get(code);
  if (undone) return undone;
  undone = new Set();
  const open = new Map<string, ChangedLine[]>();
  for (const change of code)
    for (const line of change.lines) {
      const key = (added: boolean) => JSON.stringify([change.file, added, line.text.trim(), line.target]);
      const earlier = open.get(key(!line.added))?.find((other) => !undone!.has(other) && !change.lines.includes(other));
      if (earlier) {
        undone.add(earlier).add(line);
        continue;
      }
      open.set(key(line.added), [...(open.get(key(line.added)) ?? []), line]);
    }
  undoneOf.set(code, undone);
  return undone;
}
