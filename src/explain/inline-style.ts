import type { ChangedLine } from '../git/code-change';
import type { Element } from './line-proofs';
import { recordedBy } from './properties';
import { valueWord } from './words';

/**
 * An inline style on a changed line of a template or component: `style={{boxShadow: \`0 0 8px 1px
 * rgba(117, 114, 213, 0.5)\`}}` in JSX, `style="box-shadow: 0 0 8px 1px #7572d580"` in HTML, `:style`
 * in Vue. The tag may be a component's (`<Container style={…}>`) that names no element of the page:
 * what ties the line to the element is the value, which must be the one the element now shows.
 */

/** `name: 'value'` (a JSX or Vue style object: the value quoted) or `name: value` up to `;` or the attribute's end (HTML). */
const DECLARATION = /([A-Za-z][\w-]*)\s*:\s*(?:(["'`])([^"'`]*)\2|([^;"'`{}]+))/g;

/** `boxShadow` → `box-shadow`. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (capital) => `-${capital.toLowerCase()}`);

/** `#7572d580`, `#111111FF`, `#fff` as a layout record's `rgba(…)`, so valueWord writes it as it writes a computed colour. */
function hexAsRecorded(value: string): string {
  return value.replace(/#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})\b/gi, (_, digits: string) => {
    const full = digits.length <= 4 ? [...digits].map((digit) => digit + digit).join('') : digits;
    const [r, g, b, a = 255] = (full.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));
    return a === 255 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${Math.round((a / 255) * 1000) / 1000})`;
  });
}

/** A value's words in any order, colours as the words write them, a bare 0 as `0px`: `0 0 8px red` and `red 0px 0px 8px` are one. */
function valueTokens(value: string): string {
  const words = valueWord(hexAsRecorded(value.trim()).toLowerCase()).split(/\s+(?![^(]*\))/);
  return words
    .map((word) => (word === '0' ? '0px' : word))
    .sort()
    .join(' ');
}

/** A value too plain to tie a line to one element (`none`, `flex`, `red`): one word without a digit, which many elements show. */
const distinctive = (value: string) => /\d/.test(value) || value.trim().split(/\s+/).length > 1;

/**
 * Whether a changed line that is no style sheet's sets, inline, a property that changed on the
 * element to the value the element now shows, a value that tells it apart (a number or several
 * words). Weaker than a rule that applies: the way from a component's tag to the element it
 * renders is not read.
 */
export function writesInlineStyle(line: ChangedLine, element: Element): boolean {
  if (element.kind !== 'changed' || !line.added || line.target?.kind === 'style' || !/style/i.test(line.text)) return false;
  for (const [, name, , quoted, bare] of line.text.matchAll(DECLARATION)) {
    const value = quoted ?? bare;
    const shown = recordedBy(kebab(name)).flatMap((property) => (element.shown[property] === undefined ? [] : [element.shown[property]]));
    if (value && distinctive(value) && shown.some((now) => valueTokens(now) === valueTokens(value))) return true;
  }
  return false;
}
