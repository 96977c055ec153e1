import type { ChangedLine, CodeChange, ElementTarget, StyleTarget, VariableUse } from '../git/code-change';
import { escapeRegExp } from '../util/text';
import { isScopingClass } from './generated-classes';
import { generatedBy, hashOwners, isModuleFile, looksHashed, sourceClass } from './css-modules';
import { recordedBy, related } from './properties';
import { selectorMatches, stepsOf, type Step } from './selector';
import {
  addressProof,
  keepsText,
  lastRemoval,
  PALETTE_PROOF,
  renderedTextProof,
  provesOutright,
  rewritesTag,
  showsFile,
  textProof,
  writesPicture,
  writesShownColour,
  type Element,
} from './line-proofs';
import { classCounts, stepsOfPage, undoneLines } from './page-and-diff';
import { writesInlineStyle } from './inline-style';
import { isSize, sizeSetter, styledBy } from './rule-match';
import {
  guardOfRenderer,
  isComponent,
  itemOfLoop,
  optionOfRenderer,
  placesComponent,
  rendersNamed,
  WRITES_NOTHING,
} from './renderer-proofs';

/** The file and commit behind an element's change. */
export interface Attribution {
  file: string;
  /** `<short sha> <subject>`; null: the working tree's uncommitted changes. */
  commit: string | null;
  /** The changed line that proves it. */
  line: string;
  /** The CSS-in-JS component (`StyledDiv`) whose own rule that line is in: the element's name in its source. */
  component?: string;
}

/** What the branch's diff is searched for: the element on either side, its texts, what changed in it. */
export interface ElementClues {
  kind: 'added' | 'removed' | 'changed';
  /** Its path on each side it is on (a changed element's base path first when it differs). */
  paths: string[];
  texts: string[];
  /** The properties that changed (`padding`, `text`, `width`); none for an added or removed element. */
  properties: string[];
  /** The addresses of the picture it shows on either side (`/logo.svg`), if it is one. */
  pictures?: string[];
  /** For an added or removed element: the texts of the elements inside it, which a data file may hold (`"title": "Python"`). */
  innerTexts?: string[];
  /** For a changed element: the value each changed style property now has, as the words write it (`color` → `#687eeb`). */
  shown?: Record<string, string>;
}

/** The cause the diff proves; else none, and why in words (null: the whole diff was read and no changed file mentions the element). */
export type Attributed = { cause: Attribution; why: null } | { cause: null; why: string | null };

/**
 * Whether a template's element writes the element's text itself; one whose text an expression gives (`<p>{description}</p>`, the same tag
 * on every card) shows whatever a prop or data says, so a line that writes the text is the stronger proof.
 */
const writesText = (target: ElementTarget, element: Element) =>
  target.text.length >= 3 && element.texts.some((text) => text.replace(/\s+/g, ' ').trim() === target.text);

/** Whether only an element's text changed (its size follows it). */
const onlyText = (element: Element) => element.properties.every((property) => ['text', 'width', 'height'].includes(property));

/** More elements of the page (both sides) than this carrying a class make it a shared one: about three on each side. */
const SHARED_BY = 4;

/** A variable's uses on the branch, followed through variables defined by it (`--link: var(--brand)`), with the file each is in. */
function usesOf(
  name: string,
  uses: readonly (VariableUse & { file: string })[],
  seen = new Set<string>(),
): (VariableUse & { file: string })[] {
  if (seen.has(name)) return [];
  seen.add(name);
  return uses
    .filter((use) => use.name === name)
    .flatMap((use) =>
      use.property.startsWith('--') || use.property.startsWith('$') || use.property.startsWith('@')
        ? usesOf(use.property, uses, seen)
        : [use],
    );
}

/**
 * How strongly a changed line of a style sheet proves the element's change: 2 when a rule that
 * applies to it sets a property that changed, 1 when it sets one that moves its box (for a new
 * size) or decides whether it shows (added, removed), 0 when it proves nothing. A variable or a
 * mixin proves through the rules read on the branch that use it; a custom property only where it
 * is defined on the element or above it.
 */
function styleProof(target: StyleTarget, file: string, element: Element, uses: readonly (VariableUse & { file: string })[]): number {
  const [best, owners] = [(ranks: number[]) => Math.max(0, ...ranks), element.moduleOwners];
  if (target.defines) {
    const custom = target.defines.startsWith('--');
    const inScope = (steps: Step[]) =>
      !custom || target.selectors.length === 0 || steps.some((_, i) => styledBy(target.selectors, file, steps.slice(0, i + 1), owners));
    const viaUses = usesOf(target.defines, uses);
    return best(
      element.sides.flatMap((steps) =>
        viaUses
          .filter((use) => styledBy(use.selectors, use.file, steps, owners) && inScope(steps))
          .map((use) => related(target.defines!.startsWith('@mixin') ? target.properties : [use.property], element)),
      ),
    );
  }
  if (target.selectors.length === 0) return 0;
  return element.sides.some((steps) => styledBy(target.selectors, file, steps, owners)) ? related(target.properties, element) : 0;
}

/**
 * Whether a template's element is the page's element: the same tag, id and class list (each token
 * whole), and its parent when the template has it. A component's tag with a `class` prop is the
 * element it renders, which carries the prop's classes beside its own. Classes many elements share
 * (`items-center`) tell nothing apart: with only those, its id, its text or its parent's own class must.
 * A line that came or went with the element (`cameOrWent`) need only name it: a script may have
 * added classes no line writes (`is-visible`).
 */
function isElement(target: ElementTarget, steps: Step[], element: Element, cameOrWent = false): boolean {
  const own = steps[steps.length - 1];
  const component = isComponent(target.tag);
  if (component ? target.classes.length === 0 : target.tag !== own.tag) return false;
  if (target.id && target.id !== own.id) return false;
  if (!carriesModuleClasses(target, own)) return false;
  const written = new Set(target.classes);
  const classes = own.classes.filter((name) => !isScopingClass(name));
  if (!target.classes.every((name) => classes.includes(name))) return false;
  const named = target.classes.length > 0 || target.id !== null || (target.moduleClasses?.length ?? 0) > 0;
  if (!component && !target.dynamicClasses && !(cameOrWent && named) && classes.some((name) => !written.has(name))) return false;
  const parent = steps[steps.length - 2];
  const parentMatches =
    !target.parent || !parent || (target.parent.tag === parent.tag && target.parent.classes.every((name) => parent.classes.includes(name)));
  if (!parentMatches) return false;
  if (target.id || target.classes.length === 0 || target.classes.some((name) => !element.shared(name))) return true;
  const ownText = target.text.length >= 3 && element.texts.includes(target.text);
  return ownText || (target.parent?.classes.some((name) => !element.shared(name)) ?? false);
}

/** Whether the element carries every class a line names through a CSS Modules import (`styles.links`), read back from its generated names. */
const carriesModuleClasses = (target: ElementTarget, own: Step) =>
  (target.moduleClasses ?? []).every((local) => own.classes.some((name) => name === local || sourceClass(name, [])?.local === local));

/** A word or class as a whole token of a line: not a piece of a longer one (`flex` in `flex-col`, `#1E1A2E` in `bg-[#1E1A2E]`). */
const token = (word: string) => new RegExp(`(^|[\\s"'\`{}(),>=])${escapeRegExp(word)}(?=$|[\\s"'\`{}(),<=])`);

function proof(change: CodeChange, line: ChangedLine, element: Element, uses: readonly (VariableUse & { file: string })[]): number {
  const target = line.target;
  if (showsFile(element, change.file) || addressProof(line, element)) return 2;
  if (target?.kind === 'element' && WRITES_NOTHING.test(line.text.trim())) return 0;
  if (target?.kind === 'style') return styleProof(target, change.file, element, uses);
  if (target?.kind === 'element' && rendersNamed(target, element)) return element.kind === 'changed' ? 1 : 2;
  if (target?.kind === 'element' && writesPicture(target, line, element)) return 2;
  // Its own line explains a class, a text, a picture, or its coming and going outright; a style only
  // through what the line may hold (an inline style, an attribute a rule selects), so a rule that
  // sets that style wins.
  const cameOrWent = element.kind !== 'changed' && line.added === (element.kind === 'added');
  if (target?.kind === 'element' && element.sides.some((steps) => isElement(target, steps, element, cameOrWent))) {
    if (element.kind === 'changed' && onlyText(element)) return keepsText(change, line, element) ? 0 : writesText(target, element) ? 2 : 1;
    if (cameOrWent && rewritesTag(change, line, target)) return textProof(change, line, element) ? 2 : 1;
    // A line that went names an element that came no better than a copy of its tag elsewhere (`<div className={s.top}>` moved to a new
    // component): the line that came with it is its proof.
    if (element.kind !== 'changed') return cameOrWent ? 2 : 1;
    return provesOutright(line, element) ? 2 : 1;
  }
  if (optionOfRenderer(change, line, element) || guardOfRenderer(change, line, element) || itemOfLoop(change, line, element)) return 1;
  if (writesInlineStyle(line, element) || placesComponent(line, element)) return 1;
  if (textProof(change, line, element)) return 2;
  if (renderedTextProof(change, line, element)) return 1;
  return writesShownColour(line, element) ? PALETTE_PROOF : 0;
}

/** The element's names a line may mention without proving anything: its classes (those a framework adds aside), its id. */
function mentionedName(line: ChangedLine, element: Element): string | null {
  const names = element.sides.flatMap((steps) => {
    const own = steps[steps.length - 1];
    return [...own.classes.filter((name) => !isScopingClass(name)), ...(own.id ? [own.id] : [])];
  });
  return names.find((name) => name.length >= 3 && !element.shared(name) && token(name).test(line.text)) ?? null;
}

const commitWords = (commit: string | null) =>
  commit ? `commit ${commit.length > 70 ? `${commit.slice(0, 69)}…` : commit}` : 'uncommitted changes';

/** Why nothing proves a cause, from what comes closest; null when the whole diff was read and no changed file mentions the element. */
function whyNot(element: Element, code: readonly CodeChange[], page: readonly string[]): string | null {
  for (const change of [...code].reverse())
    for (const line of change.lines) {
      const target = line.target;
      if (
        target?.kind === 'style' &&
        !target.defines &&
        target.selectors.length &&
        element.sides.some((steps) => styledBy(target.selectors, change.file, steps, element.moduleOwners))
      ) {
        const sets = target.properties.length ? target.properties.join(', ') : 'nothing';
        return `not attributed: ${change.file} changes \`${target.selectors.join(', ')}\`, which matches it, but what it sets (${sets}) is not what changed here`;
      }
    }
  for (const change of [...code].reverse())
    for (const line of change.lines) {
      const name = mentionedName(line, element);
      if (name)
        return `not attributed: ${change.file} changes a line with \`${name}\`, but not this element's own rule, tag, attributes or text`;
    }
  const variable = [...code]
    .reverse()
    .flatMap((change) =>
      change.lines.flatMap((line) =>
        line.target?.kind === 'style' && line.target.defines ? [{ change, name: line.target.defines, target: line.target }] : [],
      ),
    )
    .find(({ change, name, target }) => mayStyle(name, target, change.file, element, code));
  if (variable)
    return `not attributed: ${variable.change.file} changes ${variable.name}, and no rule read on the branch applies it to this element (the layout record does not say which elements use a variable or mixin)`;
  const module = [...code]
    .reverse()
    .find(
      (change) =>
        isModuleFile(change.file) &&
        element.sides.some((steps) =>
          steps[steps.length - 1].classes.some((name) => generatedBy(name, change.file, element.moduleOwners) && writes(change, name)),
        ),
    );
  if (module)
    return `not attributed: its classes are generated by CSS Modules and ${module.file} changed (a module's generated names change with its text), but none of its changed rules applies to this element`;
  const unmatched = element.sides.some((steps) => steps[steps.length - 1].classes.some(looksHashed)) ? unmatchedModules(code, page) : [];
  if (unmatched.length) return `not attributed: the changed rules in ${unmatched.slice(0, 2).join(', ')} match no element here`;
  const unread = code.find((change) => change.unread && (!PICTURE_FILE.test(change.file) || element.pictures.length > 0));
  if (unread) return `not attributed: ${unread.file} ${unread.unread}`;
  return null;
}

/** A picture or media file: unread, it may be what an element's picture shows, never another element's colour, size or text. */
const PICTURE_FILE = /\.(png|jpe?g|gif|webp|avif|bmp|ico|tiff?|mp4|webm|mov|mp3|wav|ogg|pdf)$/i;

/** Whether a CSS Module's rules write the class a generated name reads back to (all of them when its classes are not known). */
const writes = (change: CodeChange, generated: string) => {
  const local = sourceClass(generated, [])?.local;
  return !change.classes || !local || change.classes.includes(local);
};

/**
 * Whether a changed variable may be what changed on the element though no rule read applies it: a
 * use read on the branch sets a property that can make such a change (anywhere: the record does not
 * say which elements use it), or, with no use read, a custom property defined on the element or
 * above it. A `--gradient-angle` only a background uses cannot widen a gutter.
 */
function mayStyle(name: string, target: StyleTarget, file: string, element: Element, code: readonly CodeChange[]): boolean {
  const uses = usesOf(
    name,
    code.flatMap((change) => change.uses.map((use) => ({ ...use, file: change.file }))),
  );
  if (uses.length) return uses.some((use) => related([use.property], element) > 0);
  if (!name.startsWith('--') || target.selectors.length === 0) return true;
  return element.sides.some((steps) => steps.some((_, i) => styledBy(target.selectors, file, steps.slice(0, i + 1), element.moduleOwners)));
}

/**
 * The CSS Modules files whose changed rules apply to no element of the page: their generated
 * names may follow a pattern not recognised (a hash alone), so their silence proves nothing.
 */
function unmatchedModules(code: readonly CodeChange[], page: readonly string[]): string[] {
  const steps = stepsOfPage(page);
  const modules = [...new Set(code.filter((change) => isModuleFile(change.file)).map((change) => change.file))];
  return modules.filter((file) => {
    const selectors = code
      .filter((change) => change.file === file)
      .flatMap((change) => change.lines.flatMap((line) => (line.target?.kind === 'style' ? line.target.selectors : [])));
    return selectors.length > 0 && !steps.some((element) => styledBy(selectors, file, element));
  });
}

/**
 * The change the branch's diff proves caused what an element shows: a changed line of a style
 * sheet whose rule (nesting resolved, CSS Modules names read back) applies to the element and sets
 * what changed, or a variable or mixin such a rule uses; a changed line of a template that is the
 * element's own tag, attributes or text; or a line that holds its changed text whole. Of those, the
 * strongest, then the last (the working tree after every commit). Where none proves one, why.
 * `page`: the paths of every element of both records, to tell a CSS Module whose rules match none.
 */
export function attribute(clues: ElementClues, code: readonly CodeChange[], page: readonly string[] = []): Attributed {
  const counts = page.length ? classCounts(page) : null;
  const shared = (name: string) => (counts?.get(name) ?? 0) > SHARED_BY;
  const element: Element = {
    kind: clues.kind,
    sides: clues.paths.map(stepsOf),
    texts: clues.texts,
    properties: clues.properties,
    pictures: clues.pictures ?? [],
    innerTexts: clues.innerTexts ?? [],
    shown: clues.shown ?? {},
    shared,
    moduleOwners: counts ? hashOwners(page, counts.keys(), code) : undefined,
  };
  const uses = code.flatMap((change) => change.uses.map((use) => ({ ...use, file: change.file })));
  let found: { change: CodeChange; line: ChangedLine; rank: number } | null = null;
  const undone = undoneLines(code);
  for (const change of code)
    for (const line of change.lines) {
      if (undone.has(line)) continue;
      const rank = proof(change, line, element, uses);
      if (rank > 0 && rank >= (found?.rank ?? 0)) found = { change, line, rank };
    }
  if (!found) return { cause: null, why: whyNot(element, code, page) };
  const { change, line } = element.kind === 'removed' ? lastRemoval(code, found.change, found.line) : found;
  return { cause: { file: change.file, commit: change.commit, line: line.text.trim(), ...componentOfLine(line) }, why: null };
}

/**
 * A changed element's properties split by the commit and file that prove each (`color` by "css",
 * `font-size` by "small css change"): one part per cause, in the order their properties come; a
 * new size with the part whose cause proves it, else with the first, as what nothing proves; a part
 * of its own when a line of another cause sets the size outright (`width: 100vw` by "responsive",
 * where a later commit only changed the transform). One part when one cause (or none) proves them all.
 */
export function propertiesByCause(clues: ElementClues, code: readonly CodeChange[], page: readonly string[] = []): string[][] {
  if (clues.kind !== 'changed' || clues.properties.length < 2) return [clues.properties];
  const causeOf = (properties: string[]) => attribute({ ...clues, properties }, code, page).cause;
  const keyOf = (cause: Attribution | null) => (cause ? `${cause.file}\0${cause.commit}` : null);
  const parts = new Map<string, string[]>();
  const unproven: string[] = [];
  for (const property of clues.properties.filter((name) => !isSize(name))) {
    const key = keyOf(causeOf([property]));
    if (key) parts.set(key, [...(parts.get(key) ?? []), property]);
    else unproven.push(property);
  }
  const sizes = clues.properties.filter(isSize);
  const sizeCause = sizes.length && (parts.size > 1 || (parts.size === 1 && sizeSetter(code)(clues.paths))) ? causeOf(sizes) : null;
  const sized = keyOf(sizeCause);
  const setsSize = sized !== null && !parts.has(sized) && recordedBy(sizeCause!.line.match(/^\s*([\w-]+)\s*:/)?.[1] ?? '').some(isSize);
  if (parts.size + (setsSize ? 1 : 0) < 2) return [clues.properties];
  const split = [...parts.values()];
  split[0].push(...unproven);
  if (setsSize) split.push(sizes);
  else (sized && parts.has(sized) ? parts.get(sized)! : split[0]).push(...sizes);
  return split;
}

/** The CSS-in-JS component a proving line's rule is the own rule of, as an Attribution's part. */
const componentOfLine = (line: ChangedLine) =>
  line.target?.kind === 'style' && line.target.component ? { component: line.target.component } : {};

/** What the words say after an element's change: the file and commit, else why none is named. */
export function causeWords(attributed: Attributed): string {
  if (attributed.cause) return `${attributed.cause.file} (${commitWords(attributed.cause.commit)})`;
  return attributed.why ?? 'no changed file mentions this element';
}

/** Whether a rule's selector list applies to the element at the end of `path` (plain class names). */
export function selectorNames(selector: string, path: string): boolean {
  return selectorMatches(selector, stepsOf(path));
}
