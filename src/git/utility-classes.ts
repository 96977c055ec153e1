/**
 * What a Tailwind utility class sets, in the properties a layout record keeps: `px-8` a padding, `w-[75px]` a width, `text-forth` a
 * colour, `md:text-center` an alignment. A template line that gives an element such a class sets that property as a rule would, and an
 * `@apply` of them sets only theirs. A class it does not know (`card`, `fade-in`) sets what its own rule says.
 */

const FONT_SIZE = /^text-(?:xs|sm|base|lg|\d?xl|\[[\d.]+(?:px|r?em)\])$/;
const FONT_WEIGHT = /^font-(?:thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\[\d+\])$/;
const ALIGN = /^text-(?:left|center|right|justify|start|end)$/;
const DISPLAY = /^(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|hidden|contents|table|flow-root)$/;
const BORDER_STYLE = /^border-(?:solid|dashed|dotted|double|none)$/;
const BORDER_WIDTH = /^border(?:-[trblxyse])?(?:-\d+|-\[[^\]]+\])?$/;

/** Each utility's name before its value (`px` of `px-8`), to the recorded properties it sets. */
const BY_PREFIX: Record<string, string[]> = {
  p: ['padding'],
  m: ['margin'],
  'space-x': ['margin'],
  'space-y': ['margin'],
  w: ['width'],
  h: ['height'],
  size: ['width', 'height'],
  'min-w': ['min-width'],
  'max-w': ['max-width'],
  'min-h': ['min-height'],
  'max-h': ['max-height'],
  gap: ['gap'],
  leading: ['line-height'],
  tracking: ['letter-spacing'],
  shadow: ['box-shadow'],
  rounded: ['border-radius'],
  opacity: ['opacity'],
  z: ['z-index'],
  overflow: ['overflow'],
  items: ['align-items'],
  justify: ['justify-content'],
  'grid-cols': ['grid-template-columns'],
  from: ['background-image'],
  via: ['background-image'],
  to: ['background-image'],
  translate: ['transform'],
  rotate: ['transform'],
  scale: ['transform'],
  skew: ['transform'],
};

const BY_NAME: Record<string, string[]> = {
  uppercase: ['text-transform'],
  lowercase: ['text-transform'],
  capitalize: ['text-transform'],
  'normal-case': ['text-transform'],
  italic: ['font-style'],
  'not-italic': ['font-style'],
  underline: ['text-decoration-line'],
  'line-through': ['text-decoration-line'],
  'no-underline': ['text-decoration-line'],
  visible: ['visibility'],
  invisible: ['visibility'],
  static: ['position'],
  relative: ['position'],
  absolute: ['position'],
  fixed: ['position'],
  sticky: ['position'],
  'flex-row': ['flex-direction'],
  'flex-col': ['flex-direction'],
  'flex-wrap': ['flex-wrap'],
  'flex-nowrap': ['flex-wrap'],
  'bg-none': ['background-image'],
};

/** The utility with its variants (`md:`, `hover:`, `[&>svg]:`), importance and sign left out: `md:-mt-4` → `mt-4`. */
const utilityOf = (name: string) =>
  name
    .replace(/^(?:[^:[\]]*(?:\[[^\]]*\])?[^:[\]]*:)+/, '')
    .replace(/^!/, '')
    .replace(/^-/, '');

/** The recorded properties a utility class sets (`px-8` → padding); null for a class that is no utility this reads. */
export function utilityProperties(name: string): string[] | null {
  const utility = utilityOf(name);
  if (BY_NAME[utility]) return BY_NAME[utility];
  if (DISPLAY.test(utility)) return ['display'];
  if (FONT_SIZE.test(utility)) return ['font-size', 'line-height'];
  if (ALIGN.test(utility)) return ['text-align'];
  if (FONT_WEIGHT.test(utility)) return ['font-weight'];
  if (BORDER_STYLE.test(utility)) return ['border-style'];
  if (BORDER_WIDTH.test(utility)) return ['border-width'];
  if (/^border-/.test(utility)) return ['border-color'];
  if (/^text-/.test(utility)) return ['color'];
  if (/^font-/.test(utility)) return ['font-family'];
  if (/^bg-(?:gradient|\[url)/.test(utility)) return ['background-image'];
  if (/^bg-(?:cover|contain|auto|center|top|bottom|left|right|fixed|local|scroll|repeat|no-repeat|clip|origin|blend)/.test(utility))
    return null;
  if (/^bg-/.test(utility)) return ['background-color'];
  const sided = utility.replace(/^([pm])[xytrblse](?=-)/, '$1');
  const prefix = Object.keys(BY_PREFIX)
    .filter((key) => sided === key || sided.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? BY_PREFIX[prefix] : null;
}

/** What an `@apply` of utility classes sets; null when one of them is no utility this reads (it may set anything). */
export function appliedProperties(classes: readonly string[]): string[] | null {
  const sets = classes.map(utilityProperties);
  return sets.every((set) => set !== null) ? [...new Set(sets.flat() as string[])] : null;
}
