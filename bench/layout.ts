import { chromium } from '@playwright/test';
import { takeLayout } from '../src/capture/layout';
import { encodeLayout } from '../src/files/run-folder';
import { systemChromium } from '../src/config/browser';
import { writeBenchSection } from './results-file';

/**
 * `node dist/bench/layout.js`: what a checkpoint's layout record costs at capture, on a page as
 * dense as a real app's (a header, a nav, a product grid of cards with pictures, prices and
 * buttons, a table, a footer: about 1,500 elements), full page and one element, median of 21.
 */

const RUNS = 21;

function page(): string {
  const card = (i: number) =>
    `<article class="card${i % 7 === 0 ? ' sale' : ''}"><img alt="" width="160" height="100" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><h3 class="name">Product ${i}</h3><p class="blurb">A fine product, number ${i}, <em>in stock</em>.</p><div class="row"><span class="price">$${i}.00</span><button class="buy">Add to cart</button></div></article>`;
  const row = (i: number) =>
    `<tr><td>${i}</td><td><a href="#${i}">Order ${i}</a></td><td class="status">shipped</td><td>$${i * 3}.00</td></tr>`;
  return `<!doctype html><html><head><style>
body{font-family:sans-serif;margin:0}header{display:flex;justify-content:space-between;padding:16px 48px;background:#123;color:#fff}
nav a{color:#fff;margin-left:16px}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:16px;padding:24px 48px}
.card{border:1px solid #ddd;border-radius:8px;padding:12px}.sale{border-color:#d33}.row{display:flex;justify-content:space-between}
table{margin:24px 48px;border-collapse:collapse}td{padding:4px 12px;border-bottom:1px solid #eee}footer{padding:16px 48px;background:#eef}
</style></head><body><header><span class="logo">Shop</span><nav>${Array.from({ length: 8 }, (_, i) => `<a href="#">Link ${i}</a>`).join('')}</nav></header>
<main><section class="grid">${Array.from({ length: 160 }, (_, i) => card(i)).join('')}</section>
<table>${Array.from({ length: 70 }, (_, i) => row(i)).join('')}</table></main><footer><p>© Shop</p></footer></body></html>`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const executablePath = systemChromium() ?? undefined;
  const browser = await chromium.launch({ executablePath, args: executablePath ? ['--disable-gpu'] : [] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await tab.setContent(page());
    const elements = await tab.evaluate(() => document.querySelectorAll('*').length);
    const lines: string[] = [];
    for (const [what, area] of [
      ['full page', { kind: 'page' }],
      ['one element (the table)', { kind: 'element', locator: tab.locator('table') }],
    ] as const) {
      const times: number[] = [];
      let size = 0;
      let kept = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        const record = await takeLayout(tab, area);
        const encoded = encodeLayout(record!);
        times.push(performance.now() - started);
        size = encoded.length;
        kept = record!.elements.length;
      }
      lines.push(
        `${what}: ${elements} elements on the page, ${kept} recorded, median ${median(times).toFixed(1)} ms of ${RUNS} (min ${Math.min(...times).toFixed(1)}), ${(size / 1024).toFixed(1)} KiB gzip`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    writeBenchSection('layout', 'The layout record: a shop page (bench/layout.ts)', lines);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
