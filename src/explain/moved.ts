import type { LayoutElement, LayoutRecord } from '../types';
import type { Matched, Matching } from './match';

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
  const step = (element.path.split('>').pop() ?? '').replace(/:\d+$/, '');
  const [head, ...classes] = step.split('.');
  return head.includes('#') || classes.length ? [head, ...classes.sort()].join('.') : null;
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
  const byIdentity = (record: LayoutRecord, indexes: readonly number[]) => {
    const found = new Map<string, number[]>();
    for (const i of indexes) {
      const key = identity(record.elements[i]);
      if (key !== null) found.set(key, [...(found.get(key) ?? []), i]);
    }
    return found;
  };
  const [removedBy, unpairedBy] = [byIdentity(base, matching.removed), byIdentity(current, unpaired)];
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
