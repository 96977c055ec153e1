import type { LayoutElement, LayoutRecord } from '../types';
import { writtenClasses } from './generated-classes';
import type { Matched, Matching } from './match';
import { stepParts } from './words';

/**
 * An element is one element when it is the same on both sides where it is: what matching left as
 * removed on one side and added on the other (an editor that re-renders its gutter puts
 * `.current-line` under another line, beside a second one for a moment) is a change of that
 * element, not a removal and an addition, when it has the same name (tag, id, classes) and the
 * two boxes overlap, each the only such box the other overlaps; on the current side, also an
 * element inside what was added (moved under a new parent). Only a name that says something
 * pairs (an id or a class): two bare `div`s are not one.
 */

/** The last step of a path without its sibling position, its classes in order; null for a bare tag. */
function identity(element: LayoutElement): string | null {
  const { tag, id, classes } = stepParts(element.path);
  return id || classes.length ? [`${tag}${id ? `#${id}` : ''}`, ...[...classes].sort()].join('.') : null;
}

/**
 * Whether an element its template moved under a parent that was there before is still itself: it has a name its source writes, or it
 * is the root of another component (a framework's scoping class its parent lacks: `<Header />` now rendered by the page, not the
 * layout). A tag moved inside its own component's template (the logo taken out of the nav into the header, both of Header.svelte)
 * was removed there and added here.
 */
function keepsItself(record: LayoutRecord, element: LayoutElement): boolean {
  const { id, classes } = stepParts(element.path);
  const parent = record.elements[element.parent];
  const parentClasses = parent ? stepParts(parent.path).classes : [];
  return id !== null || writtenClasses(classes).length > 0 || classes.some((name) => !parentClasses.includes(name));
}

function overlap(a: LayoutElement, b: LayoutElement): boolean {
  const [ax, ay, aw, ah] = a.box;
  const [bx, by, bw, bh] = b.box;
  return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

/** The matching with the added and removed elements that are one element paired, and those pairs. */
export function pairMoved(base: LayoutRecord, current: LayoutRecord, matching: Matching): { matching: Matching; moved: Matched[] } {
  // What was added holds its elements too: a header a component now renders inside a `main` the base's capture did not meet.
  const unpaired = current.elements.flatMap((_, c) => (matching.baseOf.has(c) ? [] : [c]));
  const added = new Set(matching.added);
  const byIdentity = (record: LayoutRecord, indexes: readonly number[], isCurrent: boolean) => {
    const found = new Map<string, number[]>();
    for (const i of indexes) {
      const key = isCurrent && added.has(i) && !keepsItself(record, record.elements[i]) ? null : identity(record.elements[i]);
      if (key !== null) found.set(key, [...(found.get(key) ?? []), i]);
    }
    return found;
  };
  const [removedBy, unpairedBy] = [byIdentity(base, matching.removed, false), byIdentity(current, unpaired, true)];
  const moved = [...unpairedBy]
    .flatMap(([key, currents]) =>
      currents.flatMap((c) => {
        const candidates = (removedBy.get(key) ?? []).filter((b) => overlap(base.elements[b], current.elements[c]));
        const only =
          candidates.length === 1 &&
          currents.filter((other) => overlap(base.elements[candidates[0]], current.elements[other])).length === 1;
        return only ? [{ base: candidates[0], current: c }] : [];
      }),
    )
    .sort((a, b) => a.current - b.current);
  if (moved.length === 0) return { matching, moved };
  const baseOf = new Map(matching.baseOf);
  for (const pair of moved) baseOf.set(pair.current, pair.base);
  return {
    matching: {
      matched: [...matching.matched, ...moved].sort((a, b) => a.current - b.current),
      added: matching.added.filter((c) => !moved.some((pair) => pair.current === c)),
      removed: matching.removed.filter((b) => !moved.some((pair) => pair.base === b)),
      baseOf,
    },
    moved,
  };
}
