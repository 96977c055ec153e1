import type { LayoutRecord } from '../types';
import type { ChangedLine, CodeChange, ElementTarget } from '../git/code-change';
import { escapeRegExp } from '../util/text';
import { utilityProperties } from '../git/utility-classes';
import type { HashOwners } from './css-modules';
import { related } from './properties';
import type { Step } from './selector';

/** Proofs a changed line gives by what it writes of an element: its texts, its picture, its picture's address. */

/** An element as the attribution reads it: its kind, its paths' steps on each side, what it shows. */
export interface Element {
  kind: 'added' | 'removed' | 'changed';
  sides: Step[][];
  texts: string[];
  properties: string[];
  pictures: string[];
  innerTexts: string[];
  /** The value each changed style property now has, as the words write it (`color` → `#687eeb`). */
  shown: Record<string, string>;
  /** Whether a class is on many elements of the page (`flex`, `items-center`): on a changed line, no evidence on its own. */
  shared: (name: string) => boolean;
  /** The module each hash of the page's Vite-generated classes is (css-modules.ts hashOwners); absent: not known. */
  moduleOwners?: HashOwners;
}

/** A picture's file name without its query or a bundler's hash (`/assets/logo-3fA2b1c9.svg` → `logo.svg`). */
const pictureName = (address: string) => (address.split(/[?#]/)[0].split('/').pop() ?? '').replace(/-[\w]{8}(\.\w+)$/, '$1').toLowerCase();

/** Whether a changed file is the picture the element shows (an SVG, an image). */
export const showsFile = (element: Element, file: string) => element.pictures.some((address) => pictureName(address) === pictureName(file));

/**
 * Whether a changed line of an element's own tag writes the picture it shows (`src="adshotel.webp"` for `/adshotel.webp`): its new
 * picture's line, though the element's classes are on many others (a grid of cards).
 */
export function writesPicture(target: ElementTarget, line: ChangedLine, element: Element): boolean {
  if (element.kind === 'changed' && !element.properties.some((property) => property === 'src' || property === 'image')) return false;
  if (!element.sides.some((steps) => steps[steps.length - 1].tag === target.tag)) return false;
  return element.pictures.some((address) => {
    const name = pictureName(address);
    return name.length > 0 && new RegExp(`(^|[\\s"'\`(/=])${escapeRegExp(name)}(?=$|[\\s"'\`)?#])`, 'i').test(line.text);
  });
}

/** Whether a line holds a text whole: not a piece of a longer word. */
const holdsText = (line: ChangedLine, text: string) =>
  text.length >= 3 && new RegExp(`(^|[>"'\`\\s])${escapeRegExp(text)}(?=$|[<"'\`\\s])`).test(line.text.trim());

/**
 * Whether a commit's line holds the element's texts as a line on its other side holds them: `<a href="/new">Eryn Craig</a>` for
 * `<a href="/old">Eryn Craig</a>` changed the link, not the text (`Lumen Cloud` for `Lumen` did change it). The other line must be
 * the same tag where a parser placed both: `<img alt="Home Background">` added keeps no `<div>Home</div>` that went.
 */
export function keepsText(change: CodeChange, line: ChangedLine, element: Element): boolean {
  const held = (other: ChangedLine) => element.texts.filter((text) => holdsText(other, text)).join('\u0000');
  const own = held(line);
  return own !== '' && change.lines.some((other) => other.added !== line.added && held(other) === own && sameTag(line, other));
}

/** Whether two lines may write the same element: the same tag, or a line no parser placed in an element. */
const sameTag = (line: ChangedLine, other: ChangedLine) =>
  line.target?.kind !== 'element' || other.target?.kind !== 'element' || line.target.tag === other.target.tag;

/**
 * Whether a changed line holds one of the element's texts whole, and changed it, for an element whose text is what changed, or that came
 * (an added line) or went (a removed one).
 */
export function textProof(change: CodeChange, line: ChangedLine, element: Element): boolean {
  if (element.kind === 'changed' ? !element.properties.includes('text') : line.added !== (element.kind === 'added')) return false;
  return element.texts.some((text) => holdsText(line, text)) && !keepsText(change, line, element);
}

/**
 * Whether a line that came (for an added element) or went (a removed one) holds a text of an
 * element inside it whole: the data that renders it (`"title": "Python"` in skills.json for a new
 * skill tile). Weaker than its own tag's line, which a template that renders the data holds.
 */
export function renderedTextProof(change: CodeChange, line: ChangedLine, element: Element): boolean {
  if (element.kind === 'changed' || line.added !== (element.kind === 'added') || line.target?.kind === 'style') return false;
  return textProof(change, line, { ...element, texts: element.innerTexts });
}

/** How many texts of the elements inside an added or removed one its clues carry. */
const INNER_TEXTS = 20;

/** The texts of the elements inside a record's element (they follow it in document order), for ElementClues.innerTexts. */
export function textsInside(record: LayoutRecord, index: number): string[] {
  const inside = `${record.elements[index].path}>`;
  const texts: string[] = [];
  for (let i = index + 1; i < record.elements.length && texts.length < INNER_TEXTS && record.elements[i].path.startsWith(inside); i++)
    if (record.elements[i].text) texts.push(record.elements[i].text);
  return texts;
}

/**
 * Whether a changed line that is no style writes the address of the picture the element shows, for
 * a picture that changed (`"imageSrc": "projects/cartoonDB.png"` in a data file that renders the
 * card's `img` of `/assets/projects/cartoonDB.png`), or an element that came with the line (an
 * entry a list gained, `'/assets/images/gallery/fighter.webp',`) or went with it: its file name at
 * least, whole, and the path before it where the line has one.
 */
export function addressProof(line: ChangedLine, element: Element): boolean {
  if (line.target?.kind === 'style') return false;
  if (element.kind === 'changed' ? !element.properties.includes('src') : line.added !== (element.kind === 'added')) return false;
  const written = line.text.match(/[\w@~./-]+\.[A-Za-z0-9]{2,5}\b/g) ?? [];
  return written.some((address) => {
    const path = address.replace(/^\.?\//, '');
    return element.pictures.some((shown) => {
      const at = shown.split(/[?#]/)[0];
      return at.endsWith(`/${path}`) || at === path;
    });
  });
}

/**
 * What a palette entry that writes the colour an element now shows proves (writesShownColour): less than any line of the element. The
 * entry holds the colour of every element of its class; the element's own line that gave it the class (`text-forth` added beside
 * `forth: '#4F4F4F'`) is where it changed.
 */
export const PALETTE_PROOF = 0.5;

/**
 * Whether a changed line that is no style rule writes, whole, a colour the element now shows for a
 * property that changed (`800: '#687eeb',` in tailwind.config.cjs, the palette entry its
 * `text-frog-800` reads). Weaker than a rule that applies: the way from the line to the element is
 * not read. Six hex digits only: a colour that precise on a changed line is no coincidence.
 */
export function writesShownColour(line: ChangedLine, element: Element): boolean {
  if (element.kind !== 'changed' || !line.added || line.target?.kind === 'style') return false;
  return element.properties.some((property) => {
    const colour = element.shown[property];
    return colour !== undefined && /^#[0-9a-f]{6}$/.test(colour) && new RegExp(`(^|[^\\w#])${colour}(?![\\w])`, 'i').test(line.text);
  });
}

/**
 * Whether the commit wrote the element's tag again: it removed a line of the same tag (its id, or a
 * class in common) and added one. The tag was there before (an `{#each}` that renders every
 * picture); what made one more element come is what changed its data, not the rewrite (a class
 * dropped from the loop's `<img>`).
 */
export const rewritesTag = (change: CodeChange, line: ChangedLine, target: ElementTarget) =>
  change.lines.some(
    (other) =>
      other.added !== line.added &&
      other.target?.kind === 'element' &&
      other.target.tag === target.tag &&
      (target.id ? other.target.id === target.id : other.target.classes.some((name) => target.classes.includes(name))),
  );

/** A tag as a line writes it with its attributes (`<img alt="logo" src={Logo}>`), or null: a bare `<li>` is written everywhere. */
const tagMarkup = (text: string, tag: string) => text.match(new RegExp(`<${escapeRegExp(tag)}\\s[^>]+>`))?.[0] ?? null;

/**
 * Where an element went, from the line that proves its removal: a commit that removed its tag and wrote the same tag again on a line it
 * added (`<img alt="logo" src={Logo}>` wrapped in `<a href="/">`) kept the element; the last later commit that removed that tag, in
 * the same file, took it away (moved it out of the nav).
 */
export function lastRemoval(code: readonly CodeChange[], change: CodeChange, line: ChangedLine): { change: CodeChange; line: ChangedLine } {
  const markup = line.added || line.target?.kind !== 'element' ? null : tagMarkup(line.text, line.target.tag);
  if (!markup || !change.lines.some((other) => other.added && other.text.includes(markup))) return { change, line };
  const later = code.slice(code.indexOf(change) + 1).filter((other) => other.file === change.file);
  for (const next of later.reverse()) {
    const removed = next.lines.find((other) => !other.added && other.text.includes(markup));
    if (removed) return { change: next, line: removed };
  }
  return { change, line };
}

/** What only an element's own tag, attributes or text change: its classes, its text, its picture. */
const OWN_LINE = new Set(['class', 'text', 'src', 'image']);

/**
 * Whether an element's own line proves its change outright: it came or went with it, or what changed is its own (a class, a text, a
 * picture), or the line gave it (an added line) or took from it (a removed one) a utility class that sets a property that changed
 * (`px-8` added: its padding), as a rule would. Otherwise it proves a style only through what it may hold, and a rule setting it wins.
 */
export function provesOutright(line: ChangedLine, element: Element): boolean {
  if (element.kind !== 'changed' || element.properties.some((property) => OWN_LINE.has(property))) return true;
  if (line.target?.kind !== 'element' || element.sides.length < 2) return false;
  const [was, is] = element.sides.map((steps) => steps[steps.length - 1].classes);
  const [from, to] = line.added ? [was, is] : [is, was];
  const changed = line.target.classes.filter((name) => to.includes(name) && !from.includes(name));
  return (
    related(
      changed.flatMap((name) => utilityProperties(name) ?? []),
      element,
    ) === 2
  );
}
