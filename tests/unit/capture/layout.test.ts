import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@playwright/test';
import { takeLayout } from '../../../src/capture/layout';
import { systemChromium } from '../../../src/config/browser';

/** A header whose menu a style hides, a link the `hidden` attribute hides, and a hidden block inside a hidden one: in Chromium, as a capture reads them. */
const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; } header { display: flex; height: 64px; } .menu { display: none; } .tip { display: none; }
</style></head><body><header><strong>Harbor</strong><nav class="menu"><a>Docs</a><span class="tip">new</span></nav><a hidden>Blog</a><span></span></header></body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
});
afterAll(async () => {
  await browser?.close();
});

describe('the layout record', () => {
  it('lists the elements a style hides under a recorded parent (still in the page), not what is inside them nor an empty element', async () => {
    const opened = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await opened.setContent(PAGE);
    const layout = (await takeLayout(opened as unknown as Page, { kind: 'page' }))!;
    expect(layout.hidden).toEqual(['html>body>header>nav.menu', 'html>body>header>a']);
    expect(layout.elements.map((element) => element.path)).not.toContain('html>body>header>nav.menu');
    await opened.close();
  });
});
