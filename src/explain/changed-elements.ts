import type { LayoutElement, LayoutRecord } from '../types';
import type { Matching } from './match';
import { sizeChanges, styleChanges, type PageOrigins, type PropertyChange } from './visible';
import { sourcePath } from './words';

/** Inherited properties: a child's change equal to its parent's is the parent's. */
const INHERITED = new Set([
  'color',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'letter-spacing',
  'text-align',
  'text-transform',
  'visibility',
]);

/** Each matched element's own changes, those its parent already explains (an inherited value) left out. */
export function changedElements(
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
  origins: PageOrigins,
): { index: number; properties: PropertyChange[] }[] {
  const own = new Map<number, PropertyChange[]>();
  for (const { base: b, current: c } of matching.matched) own.set(c, styleChanges(base, b, current, c, origins));
  return matching.matched.flatMap(({ base: b, current: c }) => {
    const parentChanges = own.get(current.elements[c].parent) ?? [];
    const inherited = (change: PropertyChange) =>
      INHERITED.has(change.property) &&
      parentChanges.some((p) => p.property === change.property && p.before === change.before && p.after === change.after);
    const properties = own.get(c)!.filter((change) => !inherited(change));
    return properties.length ? [{ index: c, properties: [...properties, ...sizeChanges(base.elements[b], current.elements[c])] }] : [];
  });
}

/**
 * The path an element has on a side whose style hides it (`display: none`, LayoutRecord.hidden),
 * its CSS Module classes read back (an edit of the module renamed them); null: the side lost it.
 */
export function hiddenPaths(): (record: LayoutRecord, path: string) => string | null {
  const read = new Map<LayoutRecord, Map<string, string>>();
  return (record, path) => {
    if (!record.hidden.length) return null;
    let paths = read.get(record);
    if (!paths) read.set(record, (paths = new Map(record.hidden.map((hidden) => [sourcePath(hidden), hidden]))));
    return paths.get(sourcePath(path)) ?? null;
  };
}

/**
 * Whether an element's new size shows in the images: an edge that moved is inside the image on one
 * side. An ancestor of an element capture (the page's `html` under a `.usage` capture) grows or
 * shrinks past the image's edges, unseen there.
 */
export function sizeShows(base: LayoutRecord, b: LayoutElement, current: LayoutRecord, c: LayoutElement): boolean {
  const edges = (record: LayoutRecord, { box: [x, y, w, h] }: LayoutElement) => [
    { at: x, within: record.width },
    { at: x + w, within: record.width },
    { at: y, within: record.height },
    { at: y + h, within: record.height },
  ];
  const [before, after] = [edges(base, b), edges(current, c)];
  const inside = ({ at, within }: { at: number; within: number }) => at >= 0 && at <= within;
  return before.some((edge, i) => edge.at !== after[i].at && (inside(edge) || inside(after[i])));
}
