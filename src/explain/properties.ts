/** How a property a style sheet declares relates to the computed properties a layout record keeps. */

/** Shorthands and aliases, to the recorded properties they set. */
const SETS: Record<string, string[]> = {
  background: ['background-color', 'background-image'],
  border: ['border-width', 'border-style', 'border-color'],
  font: ['font-family', 'font-size', 'font-weight', 'font-style', 'line-height'],
  'flex-flow': ['flex-direction', 'flex-wrap'],
  'place-items': ['align-items'],
  'place-content': ['justify-content'],
  'row-gap': ['gap'],
  'column-gap': ['gap'],
  'grid-gap': ['gap'],
  grid: ['grid-template-columns'],
  'grid-template': ['grid-template-columns'],
  'text-decoration': ['text-decoration-line'],
  'overflow-x': ['overflow'],
  'overflow-y': ['overflow'],
};

/** The recorded properties a declared one sets: itself, a shorthand's parts, a side's or corner's whole (`padding-left` → `padding`). */
export function recordedBy(declared: string): string[] {
  const name = declared.toLowerCase().replace(/^-(webkit|moz|ms)-/, '');
  if (SETS[name]) return SETS[name];
  const side = name.match(/^(padding|margin)-/);
  if (side) return [side[1]];
  if (/^border-.*radius$/.test(name)) return ['border-radius'];
  const border = name.match(/^border-(?:top|right|bottom|left|block|inline)(?:-start|-end)?(?:-(width|style|color))?$/);
  if (border) return border[1] ? [`border-${border[1]}`] : ['border-width', 'border-style', 'border-color'];
  return [name];
}

/** The `position` values that take an element out of the flow: what follows it no longer makes room for it. */
export const OUT_OF_FLOW = new Set(['absolute', 'fixed']);

/** Properties that change how an element looks, never the size of its box nor whether it shows. */
const LOOKS_ONLY =
  /^(color|background(-.*)?|box-shadow|text-shadow|opacity|cursor|transition(-.*)?|animation(-.*)?|outline(-.*)?|border(-.*)?-color|border(-.*)?-radius|filter|backdrop-filter|text-decoration(-.*)?|z-index|pointer-events|fill|stroke(-.*)?|caret-color|accent-color|will-change|user-select|mix-blend-mode|scroll-behavior)$/;

/** Whether a recorded change of `property` can change the size of an element's box (a colour cannot; a padding, a font or a text can). */
export const movesBox = (property: string) => !LOOKS_ONLY.test(property);

/**
 * How strongly setting `declared` explains the element's change: 2 when it sets a property that
 * changed; 1 when it can move the box (the element changed size) or decide whether it shows (it
 * came or went); 0 otherwise. `*` (an `@include`, `@apply`) may set anything: 1.
 */
export function related(declared: readonly string[], element: { kind: 'added' | 'removed' | 'changed'; properties: string[] }): number {
  return Math.max(
    0,
    ...declared.map((property) => {
      if (property === '*') return 1;
      if (element.kind !== 'changed') return movesBox(property) ? 1 : 0;
      const recorded = recordedBy(property);
      if (element.properties.some((changed) => recorded.includes(changed))) return 2;
      const resized = element.properties.includes('width') || element.properties.includes('height');
      return resized && movesBox(property) ? 1 : 0;
    }),
  );
}
