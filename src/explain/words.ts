import type { LayoutRecord } from '../types';
import { sourceClass, type ModuleClasses } from './css-modules';
import { componentOf, isScopingClass, writtenClasses } from './generated-classes';

/** How values and elements read in an explanation: CSS as a person writes it, elements as their source names them. */

const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/** `rgb(255, 255, 255)` → `#fff`, `rgb(42, 109, 244)` → `#2a6df4`; a translucent colour keeps its alpha as `#rrggbbaa`. */
function colourWord(r: number, g: number, b: number, a: number): string {
  const digits = [r, g, b].map(hex);
  if (a < 1) return `#${digits.join('')}${hex(a * 255)}`;
  const short = digits.every((pair) => pair[0] === pair[1]);
  return `#${short ? digits.map((pair) => pair[0]).join('') : digits.join('')}`;
}

/** A colour as a layout record writes it (`rgb(248, 248, 246)`, `rgba(0, 0, 0, 0.1)`): its channels and opacity. */
export const RECORDED_COLOUR = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\s*\)/g;

/** A computed value as a person would write it: colours as hex, transparent as `transparent`. */
export function valueWord(value: string): string {
  return value.replace(RECORDED_COLOUR, (_, r, g, b, a) => {
    const alpha = a === undefined ? 1 : Number(a);
    return alpha === 0 ? 'transparent' : colourWord(Number(r), Number(g), Number(b), alpha);
  });
}

/**
 * The steps of an element's path (`html>body>nav.flex>a`). A `>` inside brackets belongs to a class
 * (Tailwind's `[&>svg]:size-4`), not between two steps.
 */
export function pathSteps(path: string): string[] {
  const steps: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    if (path[i] === '[') depth++;
    else if (path[i] === ']') depth = Math.max(0, depth - 1);
    else if (path[i] === '>' && depth === 0) {
      steps.push(path.slice(start, i));
      start = i + 1;
    }
  }
  return [...steps, path.slice(start)];
}

/**
 * A step's names split where a new one starts: a `.` or `#` outside brackets, except a `.` between
 * two digits (`py-0.5`). Class names keep everything else they may hold (`bg-[#1E1A2E]`, `md:flex`).
 */
function names(rest: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 1; i < rest.length; i++) {
    const char = rest[i];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (char === '#' || (char === '.' && !(/\d/.test(rest[i - 1]) && /\d/.test(rest[i + 1] ?? ''))))) {
      parts.push(rest.slice(start, i));
      start = i;
    }
  }
  return rest ? [...parts, rest.slice(start)] : parts;
}

/** The tag, id and classes of a path's last step (or of one step), each class whole. */
export function stepParts(path: string): { tag: string; id: string | null; classes: string[] } {
  const step = (pathSteps(path).pop() ?? path).replace(/:\d+$/, '');
  const tag = step.match(/^[a-z][\w-]*/i)?.[0] ?? '';
  const parts = names(step.slice(tag.length));
  const id = parts[0]?.startsWith('#') ? parts[0].slice(1) : null;
  const classes = parts.filter((part) => part.startsWith('.')).map((part) => part.slice(1));
  return { tag, id, classes };
}

/**
 * What naming an element needs beyond its path: the branch's CSS Modules, the ids that change from run to run, how common each class is on
 * the page.
 */
export interface Naming {
  modules: readonly ModuleClasses[];
  unstableIds: ReadonlySet<string>;
  /** How many elements of the records carry a class (counted when first asked). */
  classCount: (name: string) => number;
}

export const PLAIN_NAMING: Naming = { modules: [], unstableIds: new Set(), classCount: () => 0 };

/**
 * An id made at run time: a timestamp or counter (`viewport-1764309471123`), React's `useId`
 * (`:r3:`, `«r3»`), a hex run of a uuid. Such an id names a different element on every capture.
 */
const GENERATED_ID = /\d{5,}|[:«»]|(?=[0-9a-f]{0,7}\d)(?=[0-9a-f]{0,7}[a-f])[0-9a-f]{8,}/i;

/** The last step of a path with its id taken out, and that id (`div#pane-7f3a.editor` → `div.editor`, `pane-7f3a`). */
function withoutId(path: string): { key: string; id: string } | null {
  const last = path.lastIndexOf('>');
  if (path.indexOf('#', last) < 0) return null;
  const { id } = stepParts(path);
  return id ? { key: path.replace(`#${id}`, ''), id } : null;
}

/**
 * How the elements of these records are named: with the classes the branch's CSS Modules write,
 * and without the ids that differ between the records at the same place (a pane numbered on each
 * start) or look generated.
 */
export function namingOf(records: readonly LayoutRecord[], modules: readonly ModuleClasses[] = []): Naming {
  const idsAt = new Map<string, Set<string>>();
  for (const record of records)
    for (const element of record.elements) {
      const found = withoutId(element.path);
      if (found) idsAt.set(found.key, (idsAt.get(found.key) ?? new Set()).add(found.id));
    }
  const unstableIds = new Set([...idsAt.values()].filter((ids) => ids.size > 1).flatMap((ids) => [...ids]));
  let counts: Map<string, number> | null = null;
  const classCount = (name: string) => {
    if (!counts) {
      counts = new Map();
      for (const record of records)
        for (const element of record.elements)
          for (const own of stepParts(element.path).classes) counts.set(own, (counts.get(own) ?? 0) + 1);
    }
    return counts.get(name) ?? 0;
  };
  return { modules, unstableIds, classCount };
}

/**
 * A path with each CSS Module class read back to the class its module writes
 * (`nav._menu_1goyx_41` → `nav.menu`): the same element whichever hash an edit of its module gave it.
 */
export function sourcePath(path: string): string {
  return pathSteps(path)
    .map((step) => {
      const { tag, id, classes } = stepParts(step);
      const nth = step.match(/:\d+$/)?.[0] ?? '';
      return `${tag}${id ? `#${id}` : ''}${classes.map((name) => `.${sourceClass(name, PLAIN_NAMING.modules)?.local ?? name}`).join('')}${nth}`;
    })
    .join('>');
}

/** How many classes a name keeps: past it (a utility-class list), the ones that tell the element apart. */
const NAMED_CLASSES = 3;

/**
 * The classes a name shows: a CSS Module's as its source writes them, with its file; of a longer
 * list, the three rarest on the page (a variant such as `hover:` or `md:` last), in their order.
 */
function namedClasses(classes: string[], naming: Naming): { shown: string[]; files: string[]; cut: boolean; modular: boolean } {
  const read = classes.map((name) => sourceClass(name, naming.modules));
  const shown = classes.map((name, i) => read[i]?.local ?? name);
  const files = [...new Set(read.flatMap((source) => (source?.file ? [source.file.split('/').pop()!] : [])))];
  const modular = read.some(Boolean);
  if (shown.length <= NAMED_CLASSES) return { shown, files, cut: false, modular };
  const rank = (name: string) => naming.classCount(name) + (name.includes(':') ? 1e6 : 0);
  const kept = new Set(
    shown
      .map((name, i) => ({ name, i, rank: rank(classes[i]) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .slice(0, NAMED_CLASSES)
      .map(({ i }) => i),
  );
  return { shown: shown.filter((_, i) => kept.has(i)), files, cut: true, modular };
}

/**
 * The last step of a path, as a person names an element: `#id` (one that stays from run to run),
 * else its classes as its source writes them (`.label (nav-item.module.scss)`; a long utility
 * list as its tag, three classes that tell it apart and its text), else the tag.
 */
export function elementWord(path: string, naming: Naming = PLAIN_NAMING, text = '', proof: ComponentProof | null = null): string {
  const { tag, id, classes: all } = stepParts(path);
  if (id && !naming.unstableIds.has(id) && !GENERATED_ID.test(id)) return `#${id}`;
  const classes = writtenClasses(all);
  const component = classes.length ? null : componentWord(all, proof);
  if (component) return component;
  if (classes.length) {
    const { shown, files, cut, modular } = namedClasses(classes, naming);
    const written = shown.map((name) => `.${name}`).join('');
    const from = files.length ? ` (${files.join(', ')})` : '';
    // A CSS Module's class, or a scoped component's, is local to its file: its tag says which element of the source it is (`div.cardWrapper`).
    const local = modular || all.some(isScopingClass);
    return cut
      ? `${tag}${written}${from}${text ? ` ${quoted(text.length > SHORT_TEXT ? `${text.slice(0, SHORT_TEXT - 1)}…` : text)}` : ''}`
      : `${local ? tag : ''}${written}${from}`;
  }
  const nth = (pathSteps(path).pop() ?? path).match(/:(\d+)$/)?.[1];
  return `${tag}${nth ? `:nth-of-type(${nth})` : ''}`;
}

/** The cause of an element's change, where a CSS-in-JS component's own rule proves it (Attribution.component). */
export interface ComponentProof {
  file: string;
  component?: string;
}

/**
 * A CSS-in-JS component's name: where its classes carry it (`Wrapper (Navbar)`, the babel plugin's
 * display name), else where its change is proven by its template's own rule (`StyledDiv
 * (Navbar.style.jsx)`); null for an element with bare generated ids and no such proof.
 */
function componentWord(classes: readonly string[], proof: ComponentProof | null): string | null {
  const component = componentOf(classes);
  if (component) return `${component.name}${component.file ? ` (${component.file})` : ''}`;
  const generated = classes.length > 0;
  return generated && proof?.component ? `${proof.component} (${proof.file.split('/').pop()})` : null;
}

/** How much of its text names a utility-class element. */
const SHORT_TEXT = 24;

/** Tags that say little alone: named with their parent's name. */
const GENERIC = new Set([
  'div',
  'span',
  'p',
  'li',
  'a',
  'img',
  'svg',
  'td',
  'th',
  'tr',
  'section',
  'article',
  'strong',
  'em',
  'b',
  'i',
  'button',
  'label',
  'input',
  'h2',
  'h3',
  'h4',
]);

/**
 * An element's name, as its source names it, with its parent's when it is a bare generic tag
 * (`footer span:nth-of-type(2)`); a styled component by its name (`proof`: the cause of its change,
 * when that is its template's own rule). The one place the words name an element.
 */
export function elementName(path: string, naming: Naming = PLAIN_NAMING, text = '', proof: ComponentProof | null = null): string {
  const own = elementWord(path, naming, text, proof);
  if (!GENERIC.has(own.replace(/:.*$/, ''))) return own;
  const steps = pathSteps(path);
  return steps.length > 1 ? `${elementWord(steps.slice(0, -1).join('>'), naming)} ${own}` : own;
}

/** How much of a text an explanation quotes, and how much of what both sides share it keeps before the first difference. */
const QUOTED_CHARS = 40;
const SHARED_LEAD = 12;

/** A quoted text, cut at 40 characters. */
export function quoted(text: string): string {
  return `'${text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS - 1)}…` : text}'`;
}

/**
 * A text change quoted from a little before where the two texts part, so a change at the end of
 * a long sentence shows ('…uploads and resu…' → '…uploads, resumab…'), not only their shared start.
 */
export function quotedChange(before: string, after: string): [string, string] {
  let shared = 0;
  while (shared < before.length && before[shared] === after[shared]) shared++;
  const start = Math.max(0, shared - SHARED_LEAD);
  const cut = (text: string) => {
    if (start === 0) return quoted(text);
    const lead = start > 0 ? '…' : '';
    const rest = text.slice(start);
    const room = QUOTED_CHARS - lead.length;
    return `'${lead}${rest.length > room ? `${rest.slice(0, room - 1)}…` : rest}'`;
  };
  return [cut(before), cut(after)];
}
