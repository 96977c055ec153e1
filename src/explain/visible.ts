import { withoutOrigin } from '../compare/signal-changes';
import type { LayoutElement, LayoutRecord } from '../types';
import { RECORDED_COLOUR } from './words';

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

/** Levels of 255 a colour may move on each channel and still look the same on a screen (ΔE well under 1). */
const UNSEEN_LEVELS = 2;

/**
 * Whether two values differ only in colours no one can tell apart: the same value around them,
 * each colour within UNSEEN_LEVELS on every channel and of the same opacity (a background from
 * #f8f8f6 to #f7f7f7).
 */
function sameToTheEye(before: string, after: string): boolean {
  const colours = (value: string) => [...value.matchAll(RECORDED_COLOUR)].map((m) => [m[1], m[2], m[3], m[4] ?? '1'].map(Number));
  const [a, b] = [colours(before), colours(after)];
  if (a.length === 0 || a.length !== b.length || before.replace(RECORDED_COLOUR, '') !== after.replace(RECORDED_COLOUR, '')) return false;
  return a.every((colour, i) => colour.every((channel, c) => Math.abs(channel - b[i][c]) <= (c === 3 ? 0 : UNSEEN_LEVELS)));
}

/**
 * Whether two transforms are the same translation by a share of the element's own box
 * (`translateX(-15%)`): the same scale and rotation, and each offset the same share of its width or
 * height to a pixel. The matrix changed only because the box grew (an image widened by its
 * container), which the element's new size already says.
 */
function sameShareOfBox(before: string, after: string, was: readonly number[], is: readonly number[]): boolean {
  const matrix = (value: string) =>
    value
      .match(/^matrix\(([^)]*)\)$/)?.[1]
      .split(',')
      .map(Number) ?? null;
  const [a, b] = [matrix(before), matrix(after)];
  if (!a || !b || a.some((n, i) => i < 4 && n !== b[i])) return false;
  return [4, 5].every((i) => {
    const [oldSize, newSize] = [was[i - 2], is[i - 2]];
    return oldSize > 0 && Math.abs((a[i] / oldSize) * newSize - b[i]) <= 1;
  });
}

/** An element's z-index as a number; null for `auto` or none. */
function zIndex(record: LayoutRecord, element: LayoutElement): number | null {
  const value = record.styles[element.style]?.['z-index'];
  return value === undefined || value === 'auto' ? null : Number(value);
}

/**
 * Whether an element's new z-index leaves it where it was among everything it may overlap: both
 * values on the same side of the page's content (below it, or above it), and no other element of
 * either side stacked between them or at either (a hero image from -1 to -9 is still behind all).
 */
function sameStacking(base: LayoutRecord, b: number, current: LayoutRecord, c: number): boolean {
  const [before, after] = [zIndex(base, base.elements[b]), zIndex(current, current.elements[c])];
  if (before === null || after === null || before === 0 || after === 0 || Math.sign(before) !== Math.sign(after)) return false;
  const [low, high] = [Math.min(before, after), Math.max(before, after)];
  const between = (record: LayoutRecord, own: number) =>
    record.elements.some((element, i) => {
      const z = i === own ? null : zIndex(record, element);
      return z !== null && z >= low && z <= high;
    });
  return !between(base, b) && !between(current, c);
}

/**
 * The style and text changes of one element paired across the sides. What no one sees is no
 * change: a border's colour that no side draws (it follows `color`, currentColor, on an element
 * without a border), a colour that moved by a level or two, a z-index that stacks it as before.
 */
export function styleChanges(base: LayoutRecord, b: number, current: LayoutRecord, c: number, origins: PageOrigins): PropertyChange[] {
  const [baseElement, currentElement] = [base.elements[b], current.elements[c]];
  const before = renderedStyles(base, baseElement, origins.base);
  const after = renderedStyles(current, currentElement, origins.current);
  const changes: PropertyChange[] = [];
  const unseen = (property: string) =>
    (property === 'border-color' && !drawsBorder(before) && !drawsBorder(after)) ||
    sameToTheEye(before[property], after[property]) ||
    (property === 'z-index' && sameStacking(base, b, current, c)) ||
    (property === 'transform' && sameShareOfBox(before[property], after[property], baseElement.box, currentElement.box));
  for (const property of Object.keys(after))
    if (before[property] !== undefined && before[property] !== after[property] && !unseen(property))
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
