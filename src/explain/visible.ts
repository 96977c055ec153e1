import { withoutOrigin } from '../compare/signal-changes';
import type { LayoutElement, LayoutRecord } from '../types';

/**
 * What a person sees of an element, compared across the two sides: its computed styles, its text
 * and its box. Not its class attribute: a class renamed (`h-[100dvh]` → `h-dvh`) or a CSS
 * Modules hash that churned (`_navbar_1goyx_1` → `_navbar_11ty5_1`) with the same styles renders
 * the same, and is no change.
 */

export interface PropertyChange {
  /** A CSS property, `text`, `width` or `height`. */
  property: string;
  before: string;
  after: string;
}

/** Each side's page origin at capture (CapturedSignals.origin): the base and current apps run on ports of their own. */
export interface PageOrigins {
  base: string | null;
  current: string | null;
}

export const NO_ORIGINS: PageOrigins = { base: null, current: null };

/** An element's computed styles as they render: URLs in them (`url(…)`, a picture's address) without its page's origin. */
function renderedStyles(record: LayoutRecord, element: LayoutElement, origin: string | null): Record<string, string> {
  const styles = record.styles[element.style] ?? {};
  if (!origin) return styles;
  return Object.fromEntries(Object.entries(styles).map(([property, value]) => [property, withoutOrigin(value, origin)]));
}

/** Whether an element draws a border: a style other than none on a side, and a width there. */
function drawsBorder(styles: Record<string, string>): boolean {
  const drawn = (styles['border-style'] ?? 'none').split(' ').some((style) => style !== 'none' && style !== 'hidden');
  return drawn && (styles['border-width'] ?? '0px').split(' ').some((width) => width !== '0px');
}

/**
 * The style and text changes of one element paired across the sides. A border's colour that no
 * side draws is no change: it follows `color` (currentColor) on an element without a border.
 */
export function styleChanges(base: LayoutRecord, b: number, current: LayoutRecord, c: number, origins: PageOrigins): PropertyChange[] {
  const [baseElement, currentElement] = [base.elements[b], current.elements[c]];
  const before = renderedStyles(base, baseElement, origins.base);
  const after = renderedStyles(current, currentElement, origins.current);
  const changes: PropertyChange[] = [];
  const hidden = (property: string) => property === 'border-color' && !drawsBorder(before) && !drawsBorder(after);
  for (const property of Object.keys(after))
    if (before[property] !== undefined && before[property] !== after[property] && !hidden(property))
      changes.push({ property, before: before[property], after: after[property] });
  if (baseElement.text !== currentElement.text) changes.push({ property: 'text', before: baseElement.text, after: currentElement.text });
  return changes;
}

/** An element's new width and height, in image pixels. */
export function sizeChanges(base: LayoutElement, current: LayoutElement): PropertyChange[] {
  return (['width', 'height'] as const).flatMap((property, i) => {
    const [before, after] = [base.box[i + 2], current.box[i + 2]];
    return before === after ? [] : [{ property, before: String(before), after: String(after) }];
  });
}
