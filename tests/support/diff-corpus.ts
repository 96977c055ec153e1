import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';

/**
 * The diff corpus: real Chromium renderings of the pages in fixtures/diff-corpus, each captured as
 * it is and with one edit applied, and where the edit really is, measured in the page's own DOM.
 * Generated at test time rather than committed: the pages are the source of truth, the truth boxes
 * come from the same render as the pixels, and the corpus follows the Chromium the tests run on.
 */

export type Variant = 'insertion' | 'removal' | 'colour' | 'text' | 'move' | 'none';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Change {
  kind: 'added' | 'removed' | 'modified';
  /** In current-image coordinates; a removal: where the removed rows were, with their height. */
  box: Box;
}

export interface CorpusCase {
  page: string;
  variant: Variant;
  baseline: string;
  current: string;
  width: number;
  /** What the edit really changed, measured in the page's DOM; empty when nothing changed. */
  truth: Change[];
}

export interface CorpusPage {
  name: string;
  /** Scroll position before a full-page capture (a fixed header is drawn where the viewport is). */
  scroll?: number;
  variants: Variant[];
}

const EDITS: Variant[] = ['insertion', 'removal', 'colour', 'text', 'none'];

export const CORPUS_PAGES: CorpusPage[] = [
  { name: 'gradient', variants: [...EDITS, 'move'] },
  { name: 'shadow', variants: EDITS },
  { name: 'raster', variants: EDITS },
  { name: 'webfont', variants: EDITS },
  { name: 'fractional', variants: EDITS },
  { name: 'sticky', variants: EDITS },
  { name: 'fixed', scroll: 1100, variants: EDITS },
];

const ORIGIN = 'http://corpus.test';
const VIEWPORT = { width: 1280, height: 720 };

function fixturesDir(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'fixtures', 'diff-corpus');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`fixtures/diff-corpus not found above ${__dirname}`);
}

/** A 320×200 photo-like raster (smooth colour fields and fine detail), the same bytes every time. */
async function photo(): Promise<Buffer> {
  const width = 320;
  const height = 200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = ((x * 7919 + y * 104729) % 23) - 11;
      pixels[i] = Math.max(0, Math.min(255, 120 + 90 * Math.sin(x / 23) * Math.cos(y / 17) + grain));
      pixels[i + 1] = Math.max(0, Math.min(255, 140 + 80 * Math.sin((x + y) / 31) + grain));
      pixels[i + 2] = Math.max(0, Math.min(255, 150 + 70 * Math.cos(x / 13 - y / 29) + grain));
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

interface Measured {
  height: number;
  /** Document-coordinate boxes of the elements each variant edits. */
  boxes: Partial<Record<Variant, Box>>;
  /** Fixed and sticky elements: placed by the viewport, not only by the flow. */
  pinned: { position: 'fixed' | 'sticky'; box: Box }[];
}

async function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const marked = (name: string) => document.querySelector(`[data-corpus="${name}"]`) as HTMLElement;
    const box = (rect: DOMRect) => ({ x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height });
    const union = (rects: DOMRect[]) => {
      const boxes = rects.filter((r) => r.width && r.height).map(box);
      const x = Math.min(...boxes.map((b) => b.x));
      const y = Math.min(...boxes.map((b) => b.y));
      return { x, y, width: Math.max(...boxes.map((b) => b.x + b.width)) - x, height: Math.max(...boxes.map((b) => b.y + b.height)) - y };
    };
    const text = document.createRange();
    text.selectNodeContents(marked('text'));
    const moved = marked('move');
    const boxes: Partial<Record<string, ReturnType<typeof box>>> = {
      insertion: box(marked('insert').getBoundingClientRect()),
      removal: box(marked('remove').getBoundingClientRect()),
      colour: box(marked('colour').getBoundingClientRect()),
      text: box(text.getBoundingClientRect()),
      move: moved ? union(Array.from(moved.children, (child) => child.getBoundingClientRect())) : undefined,
    };
    const pinned = Array.from(document.querySelectorAll('body *'))
      .filter((element) => ['fixed', 'sticky'].includes(getComputedStyle(element).position))
      .map((element) => ({
        position: getComputedStyle(element).position as 'fixed' | 'sticky',
        box: box(element.getBoundingClientRect()),
      }));
    return { height: document.documentElement.scrollHeight, boxes, pinned };
  });
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

/**
 * Fixed and sticky elements below an insertion do not all move with the content: where one stood
 * (moved with the content) it uncovers what it hid, and a sticky one that did not follow shows where
 * it is now. A fixed one drawn in place is identical there, so only where it stood counts.
 */
function unpinned(before: Measured, after: Measured, top: number, shift: number): Change[] {
  return before.pinned.flatMap(({ position, box }, i): Change[] => {
    const now = after.pinned[i].box;
    const expected = { ...box, y: box.y + shift };
    if (box.y < top || Math.abs(now.y - expected.y) < 1) return [];
    return [{ kind: 'modified', box: position === 'fixed' ? expected : union(expected, now) }];
  });
}

/** Where the edit shows, from the page measured before and after it. */
function truthOf(variant: Variant, before: Measured, after: Measured, width: number): Change[] {
  if (variant === 'none') return [];
  if (variant === 'insertion') {
    const top = after.boxes.insertion!.y;
    const shift = after.height - before.height;
    return [{ kind: 'added', box: { x: 0, y: top, width, height: shift } }, ...unpinned(before, after, top, shift)];
  }
  if (variant === 'removal')
    return [{ kind: 'removed', box: { x: 0, y: before.boxes.removal!.y, width, height: before.height - after.height } }];
  return [{ kind: 'modified', box: union(before.boxes[variant]!, after.boxes[variant]!) }];
}

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.woff': 'font/woff' };

/** Captures one page of the corpus as it is and with each of its edits. */
async function capturePage(browser: Browser, corpusPage: CorpusPage, dir: string, image: Buffer): Promise<CorpusCase[]> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const fixtures = fixturesDir();
    await context.route(`${ORIGIN}/**`, async (route) => {
      const name = new URL(route.request().url()).pathname.slice(1);
      if (name === 'photo.png') return route.fulfill({ body: image, contentType: 'image/png' });
      const local = path.join(fixtures, name);
      if (!fs.existsSync(local)) return route.fulfill({ status: 404 });
      return route.fulfill({ body: fs.readFileSync(local), contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream' });
    });
    const page = await context.newPage();
    const capture = async (variant: Variant, file: string): Promise<Measured> => {
      await page.goto(`${ORIGIN}/${corpusPage.name}.html?variant=${variant}`);
      await page.evaluate(async (scroll) => {
        await document.fonts.ready;
        await Promise.all(Array.from(document.images, (img) => img.decode()));
        if (scroll) window.scrollTo({ top: scroll, behavior: 'instant' });
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      }, corpusPage.scroll ?? 0);
      const measured = await measure(page);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
      return measured;
    };
    const baseline = path.join(dir, `${corpusPage.name}-base.png`);
    const before = await capture('none', baseline);
    const cases: CorpusCase[] = [];
    for (const variant of corpusPage.variants) {
      const current = path.join(dir, `${corpusPage.name}-${variant}.png`);
      const after = await capture(variant, current);
      const width = fs.readFileSync(current).readUInt32BE(16);
      cases.push({ page: corpusPage.name, variant, baseline, current, width, truth: truthOf(variant, before, after, width) });
    }
    return cases;
  } finally {
    await context.close();
  }
}

/** Captures every page of the corpus and each of its variants into `dir`. */
export async function generateCorpus(browser: Browser, dir: string, pages: CorpusPage[] = CORPUS_PAGES): Promise<CorpusCase[]> {
  fs.mkdirSync(dir, { recursive: true });
  const image = await photo();
  const cases: CorpusCase[] = [];
  for (const corpusPage of pages) cases.push(...(await capturePage(browser, corpusPage, dir, image)));
  return cases;
}
