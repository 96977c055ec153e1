/** How values and elements read in an explanation: CSS as a person writes it. */

const hex = (n: number) => Math.round(n).toString(16).padStart(2, '0');

/** `rgb(255, 255, 255)` → `#fff`, `rgb(42, 109, 244)` → `#2a6df4`; a translucent colour keeps its alpha as `#rrggbbaa`. */
function colourWord(r: number, g: number, b: number, a: number): string {
  const digits = [r, g, b].map(hex);
  if (a < 1) return `#${digits.join('')}${hex(a * 255)}`;
  const short = digits.every((pair) => pair[0] === pair[1]);
  return `#${short ? digits.map((pair) => pair[0]).join('') : digits.join('')}`;
}

/** A computed value as a person would write it: colours as hex, transparent as `transparent`. */
export function valueWord(value: string): string {
  return value.replace(/rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\s*\)/g, (_, r, g, b, a) => {
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

/** The last step of a path, as a person names an element: `#id`, `.class.other`, else the tag. */
export function elementWord(path: string): string {
  const { id, classes } = stepParts(path);
  if (id) return `#${id}`;
  if (classes.length) return classes.map((name) => `.${name}`).join('');
  return (pathSteps(path).pop() ?? path).replace(/:(\d+)$/, ':nth-of-type($1)');
}

/** Tags that say little alone: named with their parent's name. */
const GENERIC = new Set(['div', 'span', 'p', 'li', 'a', 'img', 'svg', 'td', 'th', 'tr', 'section', 'article', 'strong', 'em', 'b', 'i', 'button', 'label', 'input', 'h2', 'h3', 'h4']);

/** An element's name, with its parent's when it is a bare generic tag (`footer span:nth-of-type(2)`). */
export function elementName(path: string): string {
  const own = elementWord(path);
  if (!GENERIC.has(own.replace(/:.*$/, ''))) return own;
  const steps = pathSteps(path);
  return steps.length > 1 ? `${elementWord(steps.slice(0, -1).join('>'))} ${own}` : own;
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
