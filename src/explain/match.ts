import type { LayoutElement, LayoutRecord } from '../types';
import { isScopingClass, writtenClasses } from './generated-classes';
import { pathSteps, sourcePath, stepParts } from './words';

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

const tagsOf = (record: LayoutRecord) => record.elements.map((element) => stepParts(element.path).tag);

/**
 * A path as its source writes it: each step without the classes a build generated
 * (`div.sc-gsDKAQ.jVRBrf` → `div`, `img.pic.svelte-1x2y3z` → `img.pic`), whose hash changes with the
 * component's CSS and a styled-components id with the order components are made in. Two sides'
 * elements are paired by it, so a restyled component is compared, not removed and added.
 */
function writtenPath(path: string): string {
  if (!/\b(sc|css|s|svelte|astro)-/.test(path)) return path;
  return pathSteps(path)
    .map((step) => {
      const { tag, id, classes } = stepParts(step);
      const nth = step.match(/:\d+$/)?.[0] ?? '';
      return `${tag}${id ? `#${id}` : ''}${writtenClasses(classes)
        .map((name) => `.${name}`)
        .join('')}${nth}`;
    })
    .join('>');
}

type PlaceTest = 'kin' | 'text' | 'order';

/**
 * Pairs what is left under parents already paired: the same tag, first the siblings that hold an
 * element of the same written name as one does (the hero's `div` with the hero's, when a
 * component's generated classes no longer tell two `div`s apart), then those with the same text
 * (`Blog` with `Blog`, though `Changelog` was inserted before it), then the rest in order where they may be one element renamed (mayBeRenamed). Each
 * parent's children are paired once, when its first child comes in document order (a page of
 * 1,500 elements took 30 s when each child paired its siblings again).
 */
function pairByPlace(
  base: LayoutRecord,
  current: LayoutRecord,
  baseOf: Map<number, number>,
  usedBase: Set<number>,
  tests: readonly PlaceTest[] = ['kin', 'text', 'order'],
): void {
  const children = new Map<number, number[]>();
  base.elements.forEach((element, i) => {
    if (!usedBase.has(i)) children.set(element.parent, [...(children.get(element.parent) ?? []), i]);
  });
  const [baseKin, currentKin] = [kinOf(base), kinOf(current)];
  const [baseTagsIn, currentTagsIn] = [childTagsOf(base), childTagsOf(current)];
  const [baseTags, currentTags] = [tagsOf(base), tagsOf(current)];
  const siblings = new Map<number, number[]>();
  current.elements.forEach((element, c) => siblings.set(element.parent, [...(siblings.get(element.parent) ?? []), c]));
  const pairedUnder = new Set<number>();
  current.elements.forEach((element, c) => {
    const parent = baseOf.get(element.parent);
    if (baseOf.has(c) || parent === undefined || pairedUnder.has(element.parent)) return;
    pairedUnder.add(element.parent);
    const unpaired = (siblings.get(element.parent) ?? []).filter((s) => !baseOf.has(s));
    for (const by of tests)
      for (const s of unpaired) {
        if (baseOf.has(s)) continue;
        const open = (children.get(parent) ?? []).filter((b) => !usedBase.has(b) && baseTags[b] === currentTags[s]);
        const held = currentKin.get(s);
        const b =
          by === 'kin'
            ? open.find((i) => [...(baseKin.get(i) ?? [])].some((name) => held?.has(name)))
            : by === 'text'
              ? open.find((i) => current.elements[s].text !== '' && base.elements[i].text === current.elements[s].text)
              : open.find(
                  (i) =>
                    mayBeRenamed(base.elements[i].path, current.elements[s].path) && holdAlike(baseTagsIn.get(i), currentTagsIn.get(s)),
                );
        if (b === undefined) continue;
        baseOf.set(s, b);
        usedBase.add(b);
      }
  });
}

/**
 * Whether two elements of the same tag in the same place, whose children and text tell nothing, may
 * be one element whose classes changed: a class of its source name is on both (`.card` →
 * `.card.active`), or a side has none. `nav.navbar` and `nav.navbar-small` share none: a new
 * component rendered in the old one's place, said as one removed and one added.
 */
function mayBeRenamed(basePath: string, currentPath: string): boolean {
  const [was, is] = [basePath, currentPath].map((path) => stepParts(writtenStep(path)).classes);
  return was.length === 0 || is.length === 0 || was.some((name) => is.includes(name));
}

/** Each element's children's tags. */
function childTagsOf(record: LayoutRecord): Map<number, Set<string>> {
  const tags = tagsOf(record);
  const held = new Map<number, Set<string>>();
  record.elements.forEach((element, i) => {
    if (element.parent >= 0) held.set(element.parent, (held.get(element.parent) ?? new Set()).add(tags[i]));
  });
  return held;
}

/**
 * Whether two elements in one place may hold the same content: one holds nothing, or a tag is among both's children. A bare `article`
 * holding a new `section` where `article.skillset` held a `div.card` is another element, the card's removed and the section added.
 */
const holdAlike = (base: Set<string> | undefined, current: Set<string> | undefined) =>
  !base || !current || [...base].some((tag) => current.has(tag));

/** Each element's children by their written names (writtenStep). */
function kinOf(record: LayoutRecord): Map<number, Set<string>> {
  const kin = new Map<number, Set<string>>();
  record.elements.forEach((element) => {
    if (element.parent >= 0) kin.set(element.parent, (kin.get(element.parent) ?? new Set()).add(writtenStep(element.path)));
  });
  return kin;
}

/** A path's last step as its source writes it, without its position: CSS Modules' classes read back, CSS-in-JS classes left out. */
const writtenStep = (path: string) => loosePath(sourcePath(writtenPath(pathSteps(path).pop() ?? path)));

/**
 * Pairs an element a new wrapper now holds (`div.cardWrapper>div.container`) with the element of
 * the same written name, unpaired, that sat in the wrapper's place (`div.container` under the
 * same parent), and likewise an element a removed wrapper held: what is inside is compared, and
 * only the wrapper came or went. Same text first, else the first in order of those where one side
 * has no text of its own: two columns of `<p>`s replaced by one `<p>` saying something else is a
 * paragraph added where the columns were removed, not a column's paragraph restyled.
 */
function pairThroughWrappers(base: LayoutRecord, current: LayoutRecord, baseOf: Map<number, number>, usedBase: Set<number>): void {
  const currentOf = new Map([...baseOf].map(([c, b]) => [b, c]));
  const open = (record: LayoutRecord, parent: number, taken: (i: number) => boolean) =>
    record.elements.flatMap((element, i) => (element.parent === parent && !taken(i) ? [i] : []));
  const pair = (c: number, b: number) => {
    baseOf.set(c, b);
    currentOf.set(b, c);
    usedBase.add(b);
  };
  // One side's element under an unpaired parent whose own parent is paired: the other side's unpaired children of that pair, same name.
  const through = (
    record: LayoutRecord,
    other: LayoutRecord,
    paired: Map<number, number>,
    taken: (i: number) => boolean,
    join: (mine: number, theirs: number) => void,
  ) =>
    record.elements.forEach((element, i) => {
      const wrapper = record.elements[element.parent];
      if (paired.has(i) || !wrapper || paired.has(element.parent) || !paired.has(wrapper.parent)) return;
      const name = writtenStep(element.path);
      const candidates = open(other, paired.get(wrapper.parent)!, taken).filter((j) => writtenStep(other.elements[j].path) === name);
      const found =
        candidates.find((j) => other.elements[j].text === element.text) ?? candidates.find((j) => !other.elements[j].text || !element.text);
      if (found !== undefined) join(i, found);
    });
  through(current, base, baseOf, (b) => usedBase.has(b), pair);
  through(
    base,
    current,
    currentOf,
    (c) => baseOf.has(c),
    (b, c) => pair(c, b),
  );
}

/**
 * Whether the other side's elements sit inside an element of this path: it is still on the page
 * there, only unrecorded (a box of no size: a wrapper whose one child became `position: fixed`),
 * so it neither came nor went.
 */
const holdsOnOtherSide = (path: string, other: LayoutRecord) => other.elements.some((element) => element.path.startsWith(`${path}>`));

/**
 * Pairs the elements of two records: by path and text first, then by path without sibling positions
 * and text (an item inserted among same-named siblings shifts the positions of those after it), then
 * by path, then by the loose path alone when it is unique on both sides, then through a wrapper
 * added or removed around them, then (a class added or removed renames an
 * element and everything under it) by tag under parents already paired, same text first. What is
 * left over was added or removed;
 * only the outermost such element is reported (its children came with it).
 */
export function matchElements(base: LayoutRecord, current: LayoutRecord): Matching {
  const baseOf = new Map<number, number>();
  const usedBase = new Set<number>();
  // The same text before the same place: an item inserted before `Contact` takes its place, and `Contact` moves on one.
  const keys: ((element: LayoutElement) => string | null)[] = [
    (element) => `${writtenPath(element.path)}\u0000${element.text}`,
    (element) => `${loosePath(writtenPath(element.path))}\u0000${element.text}`,
    (element) => writtenPath(element.path),
    (element) => loosePath(writtenPath(element.path)),
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
  // An element whose class list changed holds what it held (`<div>` → `<div class="w-[75px]">` over the same two lines): it is
  // paired with its old self before its children are taken for what a new wrapper holds.
  pairByPlace(base, current, baseOf, usedBase, ['kin']);
  pairThroughWrappers(base, current, baseOf, usedBase);
  pairByPlace(base, current, baseOf, usedBase);
  const matched = [...baseOf].map(([current, base]) => ({ base, current })).sort((a, b) => a.current - b.current);
  const outermost = (elements: LayoutElement[], paired: (i: number) => boolean, other: LayoutRecord) =>
    elements.flatMap((element, i) =>
      !paired(i) && (element.parent < 0 || paired(element.parent)) && !holdsOnOtherSide(element.path, other) ? [i] : [],
    );
  return {
    matched,
    added: outermost(current.elements, (i) => baseOf.has(i), base),
    removed: outermost(base.elements, (i) => usedBase.has(i), current),
    baseOf,
  };
}

/**
 * What an added or removed element is said as: itself, or, where it has no name of its own (a bare `article`, only a framework's
 * scoping class, no text) and holds one element, what it holds: `<article><About /></article>` added is the component's
 * `section.skillset` added.
 */
export function saidAs(record: LayoutRecord, index: number): number {
  const { id, classes } = stepParts(record.elements[index].path);
  if (id || !classes.every(isScopingClass) || record.elements[index].text) return index;
  let only = -1;
  for (let i = index + 1; i < record.elements.length && record.elements[i].path.startsWith(`${record.elements[index].path}>`); i++) {
    if (record.elements[i].parent !== index) continue;
    if (only >= 0) return index;
    only = i;
  }
  return only >= 0 ? saidAs(record, only) : index;
}
