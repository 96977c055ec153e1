import type { LayoutElement, LayoutRecord } from '../types';
import { stepParts } from './words';

/** One element on both sides: its index in each record. */
export interface Matched {
  base: number;
  current: number;
}

export interface Matching {
  matched: Matched[];
  /** Current elements with no base counterpart whose parent has one (the root of what was added). */
  added: number[];
  /** Base elements with no current counterpart whose parent has one. */
  removed: number[];
  /** Current index → base index. */
  baseOf: Map<number, number>;
}

/** A path without its sibling positions: what stays when a sibling of the same name is inserted before it. */
function loosePath(path: string): string {
  return path.replace(/:\d+(?=>|$)/g, '');
}

function byKey(elements: LayoutElement[], key: (element: LayoutElement) => string | null, taken: Set<number>): Map<string, number[]> {
  const map = new Map<string, number[]>();
  elements.forEach((element, i) => {
    const k = taken.has(i) ? null : key(element);
    if (k !== null) map.set(k, [...(map.get(k) ?? []), i]);
  });
  return map;
}

const tagOf = (path: string) => stepParts(path).tag;

/**
 * Pairs what is left under parents already paired: the same tag, the siblings with the same text first (`Blog` with `Blog`, though
 * `Changelog` was inserted before it), then the rest in order.
 */
function pairByPlace(base: LayoutRecord, current: LayoutRecord, baseOf: Map<number, number>, usedBase: Set<number>): void {
  const children = new Map<number, number[]>();
  base.elements.forEach((element, i) => {
    if (!usedBase.has(i)) children.set(element.parent, [...(children.get(element.parent) ?? []), i]);
  });
  const siblings = new Map<number, number[]>();
  current.elements.forEach((element, c) => siblings.set(element.parent, [...(siblings.get(element.parent) ?? []), c]));
  current.elements.forEach((element, c) => {
    const parent = baseOf.get(element.parent);
    if (baseOf.has(c) || parent === undefined) return;
    const unpaired = (siblings.get(element.parent) ?? []).filter((s) => !baseOf.has(s));
    for (const sameText of [true, false])
      for (const s of unpaired) {
        if (baseOf.has(s)) continue;
        const open = (children.get(parent) ?? []).filter(
          (b) => !usedBase.has(b) && tagOf(base.elements[b].path) === tagOf(current.elements[s].path),
        );
        const b = sameText ? open.find((i) => base.elements[i].text === current.elements[s].text) : open[0];
        if (b === undefined) continue;
        baseOf.set(s, b);
        usedBase.add(b);
      }
  });
}

/**
 * Pairs the elements of two records: by path and text first, then by path without sibling positions
 * and text (an item inserted among same-named siblings shifts the positions of those after it), then
 * by path, then by the loose path alone when it is unique on both sides, then (a class added or removed renames an
 * element and everything under it) by tag under parents already paired, same text first. What is
 * left over was added or removed;
 * only the outermost such element is reported (its children came with it).
 */
export function matchElements(base: LayoutRecord, current: LayoutRecord): Matching {
  const baseOf = new Map<number, number>();
  const usedBase = new Set<number>();
  // The same text before the same place: an item inserted before `Contact` takes its place, and `Contact` moves on one.
  const keys: ((element: LayoutElement) => string | null)[] = [
    (element) => `${element.path}\u0000${element.text}`,
    (element) => `${loosePath(element.path)}\u0000${element.text}`,
    (element) => element.path,
    (element) => `${loosePath(element.path)}\u0000${element.text}`,
    (element) => loosePath(element.path),
  ];
  for (const key of keys) {
    const baseKeys = byKey(base.elements, key, usedBase);
    const currentKeys = byKey(current.elements, key, new Set(baseOf.keys()));
    for (const [k, currentIndexes] of currentKeys) {
      const baseIndexes = baseKeys.get(k);
      if (!baseIndexes) continue;
      // Same key on both sides in the same count: pair them in order; otherwise only a unique one.
      if (baseIndexes.length !== currentIndexes.length && (baseIndexes.length > 1 || currentIndexes.length > 1)) continue;
      currentIndexes.forEach((c, i) => {
        baseOf.set(c, baseIndexes[i]);
        usedBase.add(baseIndexes[i]);
      });
    }
  }
  pairByPlace(base, current, baseOf, usedBase);
  const matched = [...baseOf].map(([current, base]) => ({ base, current })).sort((a, b) => a.current - b.current);
  const outermost = (elements: LayoutElement[], paired: (i: number) => boolean) =>
    elements.flatMap((element, i) => (!paired(i) && (element.parent < 0 || paired(element.parent)) ? [i] : []));
  return {
    matched,
    added: outermost(current.elements, (i) => baseOf.has(i)),
    removed: outermost(base.elements, (i) => usedBase.has(i)),
    baseOf,
  };
}
