import type { LayoutElement, LayoutRecord, Region, StateRule } from '../types';
import type { CodeChange } from '../git/code-change';
import { textsInside } from './line-proofs';
import { attribute, causeWords, propertiesByCause, type Attributed, type Attribution, type ElementClues } from './attribute';
import { sizeSetter } from './rule-match';
import { NO_INTERACTION, oneSidedStates, stateCause, type InteractionSides, type StateCause } from './interaction';
import { recordedBy } from './properties';
import { matchElements, saidAs } from './match';
import { changedElements, hiddenPaths, sizeShows } from './changed-elements';
import { insideMask, withoutMasked } from './masks';
import { ownSizes, sizesApart, sizesToSay } from './geometry';
import { pairMoved } from './moved';
import { carriedRegions, changeKind, keptCovering, onCurrentRows, regionsMet } from './regions';
import { shiftsBelow, shiftWords, subpixelMove, type Shift } from './shift';
import { NO_ORIGINS, sizeChanges, type PageOrigins, type PropertyChange } from './visible';
import { summaryOf } from './summary';
import { elementName, namingOf, quotedChange, valueWord, type Naming } from './words';

export type { PageOrigins, PropertyChange } from './visible';
export type { InteractionSides } from './interaction';

/** An element's box in image pixels; an ancestor of an element capture extends past the image (negative x, y). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One element's part in a change: added, removed, or changed in its text, styles or size. */
export interface ElementChange {
  kind: 'added' | 'removed' | 'changed';
  /** How a person names it: `#id`, `.classes`, else the tag (with its parent's name). */
  element: string;
  path: string;
  /** Where it is on the image it is on (the current one; the base one for a removed element). */
  box: Box;
  properties: PropertyChange[];
  /**
   * The commit and file whose diff proves its change; null: none does, or the pointer or focus state one side was captured in does (its
   * words say why).
   */
  cause: Attribution | null;
  /**
   * The pointer, focus or open state on one side only that explains it (`pointer over the 2nd \`.card\` on the current side only`), proven
   * by a rule that needs the state; absent: none.
   */
  interaction?: string;
  words: string;
  /**
   * The checkpoint's changed regions its box meets: indexes into its diffMetrics.changedRegions (absent in results of versions before it).
   */
  regions?: number[];
}

/** What a changed checkpoint's difference is, in words, from the two layout records and the branch's diffs. */
export interface Explanation {
  changes: ElementChange[];
  /** One line: the first changes' words (elements that changed alike named together), and how many more. */
  summary: string;
  /** What could not be explained, and why; null when nothing is missing. */
  note: string | null;
  /** The checkpoint's changed regions no listed change meets, in their order. */
  unexplained: Region[];
  /** How many changed regions the checkpoint has. */
  regionCount: number;
  /**
   * The pointer, focus and open states one side was captured in and the other was not, in words (absent: none, or not known for a side).
   */
  interaction?: string[];
}

/**
 * How many element changes an explanation keeps: changes of different kinds up to `kinds`, more
 * alike ones (the same element, properties and cause) only up to `repeats`; and how many its summary names.
 */
const KEPT = { kinds: 16, repeats: 12 };

const boxOf = (element: LayoutElement): Box => ({ x: element.box[0], y: element.box[1], width: element.box[2], height: element.box[3] });

/** Changes the words say apart from the styles: the text, and the new size. */
const SAID_APART = new Set(['text', 'width', 'height']);

function propertyWords(changes: PropertyChange[]): string {
  const styles = changes.filter((c) => !SAID_APART.has(c.property));
  const sizes = changes.filter((c) => c.property === 'width' || c.property === 'height');
  const text = changes.find((c) => c.property === 'text');
  const parts = [
    styles.map((c) => `${c.property} ${valueWord(c.before) || 'none'} → ${valueWord(c.after) || 'none'}`).join(', '),
    text ? `text ${quotedChange(text.before, text.after).join(' → ')}` : '',
    sizes.map((c) => `${c.property} ${c.before} → ${c.after} px`).join(', '),
  ];
  return parts.filter(Boolean).join('; ');
}

/** Each changed style property's new value, as the words write it. */
const shownValues = (changes: readonly PropertyChange[]): Record<string, string> =>
  Object.fromEntries(changes.filter((c) => !SAID_APART.has(c.property)).map((c) => [c.property, valueWord(c.after)]));

function placeWords(record: LayoutRecord, index: number, naming: Naming): string {
  const element = record.elements[index];
  const next = record.elements.findIndex(
    (other, i) => i > index && other.parent === element.parent && !other.path.startsWith(`${element.path}>`),
  );
  if (next >= 0) return ` above ${elementName(record.elements[next].path, naming, record.elements[next].text)}`;
  return element.parent >= 0
    ? ` in ${elementName(record.elements[element.parent].path, naming, record.elements[element.parent].text)}`
    : '';
}

/**
 * Why a side has no layout record, as far as the run can tell: the base pass left no record of its
 * capture (unknown), the base test failed and its capture wrote none, the page could not be read after the capture, the record's file is missing, or it
 * does not decode.
 */
export type LayoutGap = 'base-test-failed' | 'page-unreadable' | 'file-missing' | 'unreadable' | 'unknown';

/** Each side's gap, for the side that has no record. */
export interface LayoutGaps {
  base?: LayoutGap;
  current?: LayoutGap;
}

const GAP_WORDS: Record<LayoutGap, string> = {
  'base-test-failed': 'the base test failed and its capture wrote none',
  'page-unreadable': 'the page could not be read after the capture',
  'file-missing': 'its file is missing',
  unreadable: 'its file is unreadable',
  unknown: '',
};

function missingNote(base: LayoutRecord | null, current: LayoutRecord | null, gaps: LayoutGaps): string | null {
  const why = (side: keyof LayoutGaps) => GAP_WORDS[gaps[side] ?? 'unknown'];
  const said = (note: string, words: string) => (words ? `${note}: ${words}` : note);
  if (!base && !current) {
    if (why('base') === why('current')) return said('no layout record on either side', why('base'));
    return `${said('no layout record on the base side', why('base'))}; ${said('none on the current side', why('current'))}`;
  }
  if (!base) return said('no layout record on the base side', why('base'));
  if (!current) return said('no layout record on the current side', why('current'));
  return null;
}

/**
 * The words after an element's change, and its cause. A pointer, focus or open state on one side
 * only that a rule needing it proves wins over the diff for what that rule sets: the test left the
 * page so, the code did not change it; what else changed is the diff's to prove (`prove`). A state
 * only near the element is said as one that may explain it.
 */
function causeOf(
  state: StateCause | null,
  changes: PropertyChange[],
  prove: (properties: string[]) => Attributed,
): { cause: Attribution | null; words: string; interaction?: string } {
  const properties = changes.map((change) => change.property);
  if (state?.rule) {
    const rest = unsetBy(state.rule, properties);
    // A changed line that sets what the rule sets to the value now shown is the diff's proof: the state is then said beside it.
    const proven = prove(properties);
    const byRule = changes.filter((change) => !rest.includes(change.property));
    if (proven.cause && setsShownValue(proven.cause.line, byRule))
      return { cause: proven.cause, words: `${causeWords(proven)}; ${state.words} too`, interaction: state.state.words };
    if (rest.length === 0) return { cause: null, words: state.words, interaction: state.state.words };
    const attributed = prove(rest);
    return {
      cause: attributed.cause,
      words: `${state.words}; ${rest.join(', ')}: ${causeWords(attributed)}`,
      interaction: state.state.words,
    };
  }
  const attributed = prove(properties);
  if (!state) return { cause: attributed.cause, words: causeWords(attributed) };
  return {
    cause: attributed.cause,
    words: attributed.cause ? `${causeWords(attributed)}; ${state.words} too` : `not attributed: ${state.words}`,
  };
}

/** Whether a style line (`background-color: #eef;`) sets a changed property to the value the element shows now. */
function setsShownValue(line: string, changes: readonly PropertyChange[]): boolean {
  const declared = line.match(/^\s*([\w-]+)\s*:\s*([^;{}]+?)\s*;?\s*$/);
  if (!declared) return false;
  const [property, value] = [recordedBy(declared[1]), declared[2].toLowerCase()];
  return changes.some(
    (change) =>
      property.includes(change.property) && [change.after, valueWord(change.after)].some((shown) => shown.toLowerCase() === value),
  );
}

/** The changed properties a state rule does not set, a size aside (a box follows its styles). */
function unsetBy(rule: StateRule, properties: readonly string[]): string[] {
  const set = new Set(rule.properties.flatMap(recordedBy));
  return properties.filter((property) => !set.has(property) && property !== 'width' && property !== 'height');
}

/**
 * Explains a changed checkpoint from its two layout records: the elements added, removed, or
 * changed in what renders (styles, with URLs compared without each side's page origin; text;
 * size) where the pixels changed, each with the commit and file whose diff proves it (or the
 * pointer or focus state one side only was captured in), and the changed regions no listed
 * element meets. Pure: the records, the regions, the diffs, the origins and the states are values;
 * `gaps` says why a side has no record, for the note.
 */
export function explainChange(
  base: LayoutRecord | null,
  current: LayoutRecord | null,
  regions: readonly Region[],
  code: readonly CodeChange[],
  gaps: LayoutGaps = {},
  origins: PageOrigins = NO_ORIGINS,
  interaction: InteractionSides = NO_INTERACTION,
): Explanation {
  const missing = missingNote(base, current, gaps);
  const states = oneSidedStates(interaction);
  const stateWords = states.length ? { interaction: states.map((state) => state.words) } : {};
  if (!base || !current)
    return { changes: [], summary: '', note: missing, unexplained: [...regions], regionCount: regions.length, ...stateWords };
  const { matching, moved } = withoutMasked(base, current, pairMoved(base, current, matchElements(base, current)));
  const page = [...base.elements, ...current.elements].map((element) => element.path);
  const hiddenOn = hiddenPaths();
  const naming = namingOf(
    [base, current],
    code.flatMap(({ file, classes }) => (classes ? [{ file, classes }] : [])),
  );
  // What each change's words say before its cause: a shift it made is said there.
  const whatOf = new WeakMap<ElementChange, string>();
  const made = (kind: ElementChange['kind'], record: LayoutRecord, index: number, found: PropertyChange[]): ElementChange => {
    const element = record.elements[index];
    // An element that came or went while a style hid it on the other side changed its display: that is what is named and proven.
    const toggled = kind === 'changed' ? null : hiddenOn(kind === 'removed' ? current : base, element.path);
    const display = record.styles[element.style]?.display ?? 'block';
    const properties = toggled
      ? [{ property: 'display', before: kind === 'removed' ? display : 'none', after: kind === 'removed' ? 'none' : display }]
      : found;
    const texts = [element.text, ...properties.filter((p) => p.property === 'text').flatMap((p) => [p.before, p.after])].filter(Boolean);
    const baseElement = kind === 'changed' ? base.elements[matching.baseOf.get(index) ?? -1] : undefined;
    const otherPath = kind === 'changed' ? baseElement?.path : (toggled ?? undefined);
    const paths = [...new Set(kind === 'removed' ? [element.path, otherPath ?? element.path] : [otherPath ?? element.path, element.path])];
    const changedProperties = properties.map((p) => p.property);
    const clueKind = toggled ? 'changed' : kind;
    const state = stateCause({ kind: clueKind, paths, properties: changedProperties }, interaction, states);
    const innerTexts = kind === 'changed' ? [] : textsInside(record, index);
    const pictures = [record.styles[element.style]?.src, baseElement && base.styles[baseElement.style]?.src].filter((src): src is string =>
      Boolean(src),
    );
    const clues: ElementClues = {
      kind: clueKind,
      paths,
      texts,
      properties: changedProperties,
      pictures,
      innerTexts,
      shown: shownValues(properties),
    };
    const {
      cause,
      words,
      interaction: byState,
    } = causeOf(state, properties, (proven) => attribute({ ...clues, properties: proven }, code, page));
    const name = elementName(element.path, naming, element.text, cause);
    const [w, h] = [element.box[2], element.box[3]];
    const place = kind === 'added' ? placeWords(record, index, naming) : '';
    const what =
      kind === 'changed'
        ? `${name}: ${propertyWords(properties)}`
        : toggled
          ? `${name} ${kind === 'removed' ? 'hidden' : 'shown'}: ${propertyWords(properties)} (${w}×${h})${place}`
          : `${name} ${kind} (${w}×${h})${place}`;
    const box = boxOf(element);
    const change: ElementChange = {
      kind,
      element: name,
      path: element.path,
      box,
      properties,
      cause,
      ...(byState ? { interaction: byState } : {}),
      words: `${what} — ${words}`,
      regions: regionsMet(kind === 'removed' ? onCurrentRows(box, regions) : box, regions),
    };
    whatOf.set(change, what);
    return change;
  };
  // A changed element whose properties different commits or files prove is one change per cause.
  const byCause = (index: number, properties: PropertyChange[]): PropertyChange[][] => {
    const element = current.elements[index];
    const baseElement = base.elements[matching.baseOf.get(index) ?? -1];
    const texts = [element.text, ...properties.filter((p) => p.property === 'text').flatMap((p) => [p.before, p.after])].filter(Boolean);
    const pictures = [current.styles[element.style]?.src, baseElement && base.styles[baseElement.style]?.src].filter((src): src is string =>
      Boolean(src),
    );
    const paths = [...new Set([baseElement?.path ?? element.path, element.path])];
    const clues: ElementClues = {
      kind: 'changed',
      paths,
      texts,
      properties: properties.map((p) => p.property),
      pictures,
      shown: shownValues(properties),
    };
    return propertiesByCause(clues, code, page).map((part) => properties.filter((p) => part.includes(p.property)));
  };
  const changed = sizesApart(changedElements(base, current, matching, origins), base, current, matching);
  // An element matching left removed and added is one element: its new size is its change.
  const movedSizes = moved
    .filter(({ current: c }) => !changed.some((change) => change.index === c))
    .map(({ base: b, current: c }) => ({ index: c, properties: sizeChanges(base.elements[b], current.elements[c]) }))
    .filter(({ properties }) => properties.length > 0);
  const elementChanges: ElementChange[] = [
    ...matching.added.map((i) => made('added', current, saidAs(current, i), [])),
    ...matching.removed.map((i) => made('removed', base, saidAs(base, i), [])),
    ...[...changed, ...movedSizes].flatMap(({ index, properties }) =>
      byCause(index, properties).map((part) => made('changed', current, index, part)),
    ),
  ];
  // A change that meets no changed region may still have moved what follows it (a nav made `position: fixed` drawn where it was, the
  // page slid up under it): the regions no change meets that its shift explains are its.
  const unmet = regions.flatMap((_, i) => (elementChanges.some((change) => change.regions?.includes(i)) ? [] : [i]));
  const unseenShifts = shiftsBelow(
    elementChanges.filter((change) => !change.regions?.length),
    base,
    current,
    matching,
    regions,
    unmet,
  );
  const placeShifts = new Map<ElementChange, Shift>();
  const listed = elementChanges.map((change) => {
    const shift = unseenShifts.get(change);
    if (!shift) return change;
    const moving = { ...change, regions: shift.regions };
    whatOf.set(moving, whatOf.get(change)!);
    placeShifts.set(moving, shift);
    return moving;
  });
  // An element that changed size on its own (a widened gutter, a card a taller neighbour stretched, a logo a rule shrank) is the change
  // in a region nothing listed meets.
  const shows = (b: number, c: number) => sizeShows(base, base.elements[b], current, current.elements[c]);
  // A size a changed rule sets outright (`.hero { height: 100vh }`) is said, whatever changed inside the element.
  const setsSize = sizeSetter(code);
  const setByRule = (c: number) => setsSize([base.elements[matching.baseOf.get(c) ?? -1]?.path ?? '', current.elements[c].path]);
  const sized = sizesToSay(
    ownSizes(base, current, matching, listed, shows, setByRule).map(({ index, properties }) => made('changed', current, index, properties)),
    listed,
    { base, current, matching, regions },
    (size) => setsSize([size.path]),
  );
  const changes = [...listed, ...sized];
  const inRegions = changes.filter((change) => change.regions?.length);
  const pool = inRegions.length ? inRegions : changes;
  const kept = keptCovering(pool, KEPT, changeKind);
  const carried = carriedRegions(pool, kept, changeKind);
  const met = new Set([...kept.flatMap((change) => change.regions ?? []), ...[...carried.values()].flat()]);
  const open = regions.flatMap((region, i) => (met.has(i) || insideMask(region, base, current) ? [] : [i]));
  const shifts = shiftsBelow(kept, base, current, matching, regions, open);
  const shown = kept.map((change) => {
    const shift = shifts.get(change) ?? placeShifts.get(change);
    const alike = carried.get(change) ?? [];
    if (!shift && alike.length === 0) return change;
    const what = whatOf.get(change)!;
    return {
      ...change,
      words: shift ? `${what}; ${shiftWords(shift.by, shift.axis)}${change.words.slice(what.length)}` : change.words,
      regions: [...new Set([...change.regions!, ...alike, ...(shift?.regions ?? [])])].sort((a, b) => a - b),
    };
  });
  const shifted = new Set([...shifts.values(), ...placeShifts.values()].flatMap((shift) => shift.regions));
  const subpixel = shown.length === 0 ? subpixelMove(base, current) : null;
  const unexplained = subpixel ? [] : open.filter((i) => !shifted.has(i)).map((i) => regions[i]);
  // A state no listed change is put down to is still said: it may be what an unexplained region shows (a focus ring is an outline, which
  // the record does not keep).
  const unsaid = states.filter((state) => !shown.some((change) => change.words.includes(state.words)));
  const notes = [
    shown.length === 0
      ? (subpixel ??
        'no element was added, removed or restyled where the pixels changed: the change is inside an element (an image, a canvas, a font) or outside what the layout record keeps')
      : null,
    base.truncated || current.truncated ? 'a layout record was cut at its element limit: an element past it is not seen' : null,
    unsaid.length ? `the captures differ in pointer or focus: ${unsaid.map((state) => state.words).join(', ')}` : null,
  ].filter((note): note is string => note !== null);
  return {
    changes: shown,
    summary: summaryOf(shown),
    note: notes.length ? notes.join('; ') : null,
    unexplained,
    regionCount: regions.length,
    ...stateWords,
  };
}
