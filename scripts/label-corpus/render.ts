import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { FIXTURES_DIR } from '../fixture-repo';
import type { CaseSpec, PageSpec } from './cases';

/** One corpus page opened in Chromium, as it is or with a case's edit: what the generator and the explanation's measure share. */

export const CORPUS_DIR = path.join(FIXTURES_DIR, 'label-corpus');
export const PAGES_DIR = path.join(CORPUS_DIR, 'pages');
export const CASES_DIR = path.join(CORPUS_DIR, 'cases');
const ORIGIN = 'http://corpus.test';

export function sha1(text: string): string {
  return crypto.createHash('sha1').update(text).digest('hex');
}

/** A flat illustration for `/img/<name>-<w>x<h>.png`: colours from the name, so every picture differs and stays the same. */
function illustration(name: string, width: number, height: number): Promise<Buffer> {
  const hue = parseInt(sha1(name).slice(0, 4), 16) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue},55%,75%)"/>
    <circle cx="${width * 0.3}" cy="${height * 0.55}" r="${Math.min(width, height) * 0.28}" fill="hsl(${(hue + 180) % 360},45%,45%)"/>
    <rect x="${width * 0.55}" y="${height * 0.25}" width="${width * 0.3}" height="${height * 0.5}" rx="${height * 0.06}" fill="#fff"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

function editedHtml(spec: CaseSpec | null, html: string): string {
  if (!spec) return html;
  let edited = html;
  for (const [from, to] of spec.replace ?? []) {
    if (!edited.includes(from)) throw new Error(`case ${spec.id}: "${from}" is not in pages/${spec.page}.html`);
    edited = edited.replace(from, () => to);
  }
  return spec.css ? edited.replace('</head>', () => `<style>${spec.css}</style></head>`) : edited;
}

/** The page loaded (fonts ready) in a context of its own; `beforeLoad` runs on the tab before it navigates. The caller closes the context. */
export async function openCase(
  browser: Browser,
  page: PageSpec,
  spec: CaseSpec | null,
  beforeLoad: (tab: Page) => void = () => undefined,
): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext({ viewport: page.viewport, deviceScaleFactor: 1 });
  await context.route(`${ORIGIN}/**`, async (route) => {
    const { pathname } = new URL(route.request().url());
    const image = /^\/img\/([a-z]+)-(\d+)x(\d+)\.png$/.exec(pathname);
    if (image) return route.fulfill({ contentType: 'image/png', body: await illustration(image[1], Number(image[2]), Number(image[3])) });
    if (pathname === `/${page.name}.html`)
      return route.fulfill({
        contentType: 'text/html',
        body: editedHtml(spec, fs.readFileSync(path.join(PAGES_DIR, `${page.name}.html`), 'utf8')),
      });
    if (pathname === '/site.css') return route.fulfill({ contentType: 'text/css', path: path.join(PAGES_DIR, 'site.css') });
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
  });
  const tab = await context.newPage();
  beforeLoad(tab);
  await tab.goto(`${ORIGIN}/${page.name}.html`, { waitUntil: 'load' });
  await tab.evaluate(() => document.fonts.ready.then(() => undefined));
  return { context, tab };
}
