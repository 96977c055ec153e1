import type { Locator, Page } from '@playwright/test';
import type { LayoutElement, LayoutRecord } from '../types';
import { withoutQueryValues } from '../util/text';

/** A record keeps at most this many elements (document order); a larger page is marked truncated. */
export const LAYOUT_ELEMENT_LIMIT = 3000;

/** A record lists at most this many hidden elements (`display: none` under a recorded parent). */
const HIDDEN_LIMIT = 500;

/** The part of the page a checkpoint captures: the whole page, a clip of the viewport, or an element. */
export type LayoutArea =
  | { kind: 'page' }
  | { kind: 'clip'; x: number; y: number; width: number; height: number }
  | { kind: 'element'; locator: Locator };

interface WalkArgs {
  limit: number;
  hiddenLimit: number;
  /** The clip, in viewport coordinates; null: the whole page, or the root element's box. */
  clip: { x: number; y: number; width: number; height: number } | null;
  /** The elements the checkpoint's masks paint over (handles, elements in the browser): they and all inside them are marked masked. */
  masks: unknown[];
}

/**
 * Runs in the browser: every rendered element of the document whose box meets the captured area
 * (`root`'s box, or the page, or the clip when `root` is the body), in document order, with its
 * computed styles. The ancestors of an element capture are recorded too: a change they pass down
 * (a font, a colour) is theirs, not the element's. An element inside a mask is marked so: the image
 * shows none of it. Self-contained (Playwright serialises it): no helper
 * from outside may be used. The styles are those that decide what a person sees; shorthands are
 * composed here so the record stays small and reads as CSS does. An element a style hides
 * (`display: none`) under a recorded parent is listed by its path in `hidden`: a reviewer reads
 * "hidden: display flex → none", not "removed".
 */
function walkLayout(root: Element, args: WalkArgs): Omit<LayoutRecord, 'version'> {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'HEAD', 'META', 'LINK', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'BR']);
  const PLAIN = [
    'display',
    'position',
    'color',
    'background-color',
    'background-image',
    'font-family',
    'font-size',
    'font-weight',
    'font-style',
    'line-height',
    'letter-spacing',
    'text-align',
    'text-decoration-line',
    'text-transform',
    'flex-direction',
    'flex-wrap',
    'justify-content',
    'align-items',
    'gap',
    'grid-template-columns',
    // As declared (a percentage stays one): the rule that bounds a box is named, not only the box's new size.
    'min-width',
    'max-width',
    'min-height',
    'max-height',
    'visibility',
    'opacity',
    'transform',
    'box-shadow',
    'border-radius',
    'border-style',
    'border-color',
    'z-index',
    'overflow',
  ];
  const SIDES = ['top', 'right', 'bottom', 'left'];
  const shorthand = (values: string[]) => {
    const [t, r, b, l] = values;
    if (r === l && t === b) return t === r ? t : `${t} ${r}`;
    return r === l ? `${t} ${r} ${b}` : values.join(' ');
  };
  const scrollX = window.scrollX;
  const scrollY = window.scrollY;
  const origin =
    root === document.body
      ? args.clip
        ? { x: args.clip.x + scrollX, y: args.clip.y + scrollY }
        : { x: 0, y: 0 }
      : (() => {
          const rect = root.getBoundingClientRect();
          return { x: rect.x + scrollX, y: rect.y + scrollY };
        })();
  const rootRect = root.getBoundingClientRect();
  const width =
    root === document.body
      ? args.clip
        ? args.clip.width
        : Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)
      : rootRect.width;
  const height =
    root === document.body
      ? args.clip
        ? args.clip.height
        : Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)
      : rootRect.height;
  const elements: LayoutElement[] = [];
  const hidden: string[] = [];
  const styles: Record<string, string>[] = [];
  const styleIndex = new Map<string, number>();
  let truncated = false;
  const masks = new Set(args.masks as Element[]);
  const visit = (element: Element, parent: number, path: string, parentRecorded: boolean, masked: boolean) => {
    if (SKIP.has(element.tagName)) return;
    if (elements.length >= args.limit) {
      truncated = true;
      return;
    }
    const rect = element.getBoundingClientRect();
    const x = rect.x + scrollX - origin.x;
    const y = rect.y + scrollY - origin.y;
    const inside = rect.width > 0 && rect.height > 0 && x < width && y < height && x + rect.width > 0 && y + rect.height > 0;
    // An element a style hides is still in the page: "hidden: display flex → none", not "removed". Nothing inside it renders.
    if (!inside && parentRecorded && rect.width === 0 && rect.height === 0 && getComputedStyle(element).display === 'none') {
      if (hidden.length < args.hiddenLimit) hidden.push(path);
      return;
    }
    let index = parent;
    const covered = masked || masks.has(element);
    if (inside) {
      const css = getComputedStyle(element);
      const style: Record<string, string> = {};
      for (const name of PLAIN) style[name] = css.getPropertyValue(name);
      style.margin = shorthand(SIDES.map((side) => css.getPropertyValue(`margin-${side}`)));
      style.padding = shorthand(SIDES.map((side) => css.getPropertyValue(`padding-${side}`)));
      style['border-width'] = shorthand(SIDES.map((side) => css.getPropertyValue(`border-${side}-width`)));
      // A picture's address (without the origin: base and current run on their own ports) and whether it loaded.
      if (element instanceof HTMLImageElement) {
        const source = element.currentSrc || element.src;
        style.src = source.startsWith(location.origin) ? source.slice(location.origin.length) : source;
        style.image = element.complete ? (element.naturalWidth > 0 ? 'loaded' : 'broken') : 'loading';
      }
      let text = '';
      for (const node of Array.from(element.childNodes)) if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
      text = text.replace(/\s+/g, ' ').trim().slice(0, 120);
      index = elements.length;
      const key = JSON.stringify(style);
      if (!styleIndex.has(key)) {
        styleIndex.set(key, styles.length);
        styles.push(style);
      }
      elements.push({
        path,
        parent,
        box: [Math.round(x), Math.round(y), Math.round(rect.width), Math.round(rect.height)],
        text,
        style: styleIndex.get(key)!,
        ...(covered ? { masked: true as const } : {}),
      });
    }
    const seen = new Map<string, number>();
    const named = Array.from(element.children).map((child) => {
      const classes = Array.from(child.classList)
        .map((name) => `.${name}`)
        .join('');
      const name = `${child.tagName.toLowerCase()}${child.id ? `#${child.id}` : ''}${classes}`;
      seen.set(name, (seen.get(name) ?? 0) + 1);
      return { child, name, nth: seen.get(name)! };
    });
    for (const { child, name, nth } of named)
      visit(child, index, `${path}>${name}${seen.get(name)! > 1 ? `:${nth}` : ''}`, inside, covered);
  };
  visit(document.documentElement, -1, 'html', false, false);
  const hundredths = (value: number) => Math.round(value * 100) / 100;
  // An element capture starts where the element is: a fraction of a pixel lower draws all of it again.
  const at: [number, number] | undefined = root === document.body ? undefined : [hundredths(origin.x), hundredths(origin.y)];
  return { width: Math.round(width), height: Math.round(height), elements, styles, truncated, hidden, ...(at ? { at } : {}) };
}

/**
 * The layout record of a checkpoint's area, taken once the image is final, its elements inside
 * `masks` (the checkpoint's `mask` option) marked. Never throws: a page that navigated or an
 * element that detached has no record (null), and the explanation says so.
 */
export async function takeLayout(page: Page, area: LayoutArea, masks: readonly Locator[] = []): Promise<LayoutRecord | null> {
  try {
    const root = area.kind === 'element' ? area.locator : page.locator('body');
    const clip = area.kind === 'clip' ? { x: area.x, y: area.y, width: area.width, height: area.height } : null;
    const masked = (await Promise.all(masks.map((mask) => mask.elementHandles()))).flat();
    const walked = await root
      .evaluate(walkLayout, { limit: LAYOUT_ELEMENT_LIMIT, hiddenLimit: HIDDEN_LIMIT, clip, masks: masked }, { timeout: 2000 })
      .finally(() => Promise.all(masked.map((handle) => handle.dispose())));
    // A picture's address may carry a token in its query, and the explanation quotes addresses.
    const styles = walked.styles.map((style) => (style.src ? { ...style, src: withoutQueryValues(style.src) } : style));
    return { version: 1, ...walked, styles };
  } catch {
    return null;
  }
}
