import type { LayoutRecord, Region } from '../types';
import type { Matching } from './match';
import { movesBox, OUT_OF_FLOW } from './properties';
import { shiftsBelow, type Block } from './shift';
import { sizeChanges, type PropertyChange } from './visible';

/**
 * A size follows its cause. An element whose styles changed only in how it looks (a colour, a
 * shadow) cannot have changed its own size by them: when something inside it came, went or
 * changed size, that explains its new size, which is left out (the element inside is listed with
 * its own cause); otherwise its new size is a change of its own, proven apart. A later commit that
 * recoloured a page never takes the height a removed hero took from it.
 */

const SIZE = new Set(['width', 'height']);

/** Each element's changes with its size kept apart from styles that cannot make it. */
export function sizesApart(
  changed: { index: number; properties: PropertyChange[] }[],
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
): { index: number; properties: PropertyChange[] }[] {
  const resized = new Set(
    changed.filter((change) => change.properties.some((p) => SIZE.has(p.property))).map((change) => current.elements[change.index].path),
  );
  const inside = [
    ...matching.added.map((i) => current.elements[i].path),
    ...matching.removed.map((i) => base.elements[i].path),
    ...resized,
  ];
  return changed.flatMap((change) => {
    const sizes = change.properties.filter((p) => SIZE.has(p.property));
    const styles = change.properties.filter((p) => !SIZE.has(p.property));
    if (sizes.length === 0 || styles.some((p) => movesBox(p.property))) return [change];
    const paths = [current.elements[change.index].path, base.elements[matching.baseOf.get(change.index) ?? -1]?.path];
    const explained = inside.some((other) => paths.some((path) => path && other.startsWith(`${path}>`)));
    return explained
      ? [{ index: change.index, properties: styles }]
      : [
          { index: change.index, properties: styles },
          { index: change.index, properties: sizes },
        ];
  });
}

/** How far two sizes may differ and be the same (boxes are rounded to whole pixels on each side). */
const ROUNDING = 1;

type Edges = [number, number, number, number];

/** The box around `boxes` (x, y, width, height), or null when there are none. */
function around(boxes: readonly Edges[]): Edges | null {
  if (boxes.length === 0) return null;
  const [left, top] = [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1]))];
  const [right, bottom] = [Math.max(...boxes.map((b) => b[0] + b[2])), Math.max(...boxes.map((b) => b[1] + b[3]))];
  return [left, top, right - left, bottom - top];
}

/**
 * Whether an element's width follows what is inside it: an inline box, one taken out of the flow, an
 * item of a flex row. A block's width follows its container (a gutter's lines fill the gutter), its
 * height what is inside it.
 */
function fitsContent(record: LayoutRecord, index: number): boolean {
  const element = record.elements[index];
  const style = record.styles[element.style] ?? {};
  const parent = record.elements[element.parent];
  const parentStyle = parent ? (record.styles[parent.style] ?? {}) : {};
  return (
    /^inline|^table/.test(style.display ?? '') ||
    OUT_OF_FLOW.has(style.position ?? '') ||
    (/flex$/.test(parentStyle.display ?? '') && !(parentStyle['flex-direction'] ?? 'row').startsWith('column'))
  );
}

/** Listed changes that lay out what is inside an element (a max-width, a padding, a font), beside a new size or an overflow. */
const LAYS_OUT_INSIDE = (property: string) =>
  property !== 'width' && property !== 'height' && property !== 'overflow' && property !== 'z-index' && movesBox(property);

/**
 * The elements that changed size on their own, where the images show it (`shows`): not one whose
 * new size is its content's (something inside it came, went or changed size, and what is inside
 * grew or shrank by as much: a nav that shrank with its logo), whose place is then taken by what
 * inside it did change (the logo, `nav img: width 100 → 70 px`); nor one inside another such
 * element, or inside a listed element whose change lays out its content (a `max-width` reflows the
 * text inside). A listed element's own ancestor grows with it, and is left out the same way; one
 * that grew by more or otherwise (a column widened by its rule, `.skills: width 230 → 346 px`, around
 * skills that were added) is its own change. `listed` are the paths and properties of the
 * changes already said.
 */
export function ownSizes(
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
  listed: readonly { path: string; properties: readonly PropertyChange[] }[],
  shows: (b: number, c: number) => boolean,
  setByRule: (c: number) => boolean = () => false,
): { index: number; properties: PropertyChange[] }[] {
  const said = new Set(listed.map((change) => change.path));
  const sized = new Map<number, PropertyChange[]>();
  for (const { base: b, current: c } of matching.matched) {
    const properties = sizeChanges(base.elements[b], current.elements[c]);
    if (properties.length && !said.has(current.elements[c].path) && shows(b, c)) sized.set(c, properties);
  }
  if (sized.size === 0) return [];
  const childrenOf = (record: LayoutRecord) => {
    const map = new Map<number, number[]>();
    record.elements.forEach((element, i) => {
      const siblings = map.get(element.parent);
      if (siblings) siblings.push(i);
      else map.set(element.parent, [i]);
    });
    return map;
  };
  const [baseChildren, currentChildren] = [childrenOf(base), childrenOf(current)];
  const added = new Set(matching.added);
  const removed = new Set(matching.removed);
  const contents = (c: number): boolean => {
    const b = matching.baseOf.get(c)!;
    const [inBase, inCurrent] = [baseChildren.get(b) ?? [], currentChildren.get(c) ?? []];
    const changedInside =
      inCurrent.some((i) => added.has(i) || sized.has(i) || said.has(current.elements[i].path)) || inBase.some((i) => removed.has(i));
    // What is taken out of the flow (a positioned overlay) does not size its parent.
    const inFlow = (record: LayoutRecord, indexes: number[]) =>
      around(
        indexes.filter((i) => !OUT_OF_FLOW.has(record.styles[record.elements[i].style]?.position ?? '')).map((i) => record.elements[i].box),
      );
    const [before, after] = [inFlow(base, inBase), inFlow(current, inCurrent)];
    if (!changedInside || !before || !after) return false;
    return sized.get(c)!.every(({ property, before: was, after: is }) => {
      const axis = property === 'width' ? 2 : 3;
      if (axis === 2 && !fitsContent(current, c)) return false;
      return Math.abs(Number(is) - Number(was) - (after[axis] - before[axis])) <= ROUNDING;
    });
  };
  const own = new Set([...sized.keys()].filter((c) => setByRule(c) || !contents(c)));
  const layingOut = new Set(
    listed.filter((change) => change.properties.some((p) => LAYS_OUT_INSIDE(p.property))).map((change) => change.path),
  );
  const insideOther = (c: number) => {
    if (setByRule(c)) return false;
    for (let parent = current.elements[c].parent; parent >= 0; parent = current.elements[parent].parent)
      if (own.has(parent) || layingOut.has(current.elements[parent].path)) return true;
    return false;
  };
  return [...own]
    .filter((c) => !insideOther(c))
    .sort((a, b) => a - b)
    .map((index) => ({ index, properties: sized.get(index)! }));
}

/**
 * Of the elements that changed size on their own (`ownSizes`, made into changes, in document
 * order), those the words need: each that meets a changed region nothing explains yet. A listed
 * ancestor explains nothing of its descendant's size unless its change lays out what is inside it
 * (a `body` listed for its `overflow` does not say why the logo in its nav shrank); a region whose
 * content an earlier such size moved, along an axis this one did not change in, is that size's
 * shift (the links beside a shrunk logo moved up with the nav; the list that holds them, which took
 * the width the logo gave up, is not said).
 */
export function sizesToSay<T extends Block & { regions?: number[]; properties: PropertyChange[] }>(
  sizes: readonly T[],
  listed: readonly T[],
  records: { base: LayoutRecord; current: LayoutRecord; matching: Matching; regions: readonly Region[] },
  setByRule: (size: T) => boolean = () => false,
): T[] {
  const said: T[] = [];
  for (const size of sizes) {
    if (setByRule(size) && size.regions?.length) {
      said.push(size);
      continue;
    }
    const explaining = listed.filter(
      (change) => !size.path.startsWith(`${change.path}>`) || change.properties.some((p) => LAYS_OUT_INSIDE(p.property)),
    );
    const explained = new Set([...explaining, ...said].flatMap((change) => change.regions ?? []));
    const open = (size.regions ?? []).filter((i) => !explained.has(i));
    if (listed.length > 0 && open.length === 0) continue;
    const { base, current, matching, regions } = records;
    // Content moved across the axis it changed size in is its own to explain (a card its neighbour stretched centres its title lower).
    const axes = size.properties.map((p) => (p.property === 'width' ? 'x' : 'y'));
    const shifted = new Set(
      [...shiftsBelow(said, base, current, matching, regions, open).values()].flatMap((shift) =>
        axes.includes(shift.axis) ? [] : shift.regions,
      ),
    );
    if (open.length === 0 || open.some((i) => !shifted.has(i))) said.push(size);
  }
  return said;
}
