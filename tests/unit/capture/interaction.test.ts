import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@playwright/test';
import { takeInteraction } from '../../../src/capture/interaction';
import { takeLayout } from '../../../src/capture/layout';
import { systemChromium } from '../../../src/config/browser';

const PAGE = `<!doctype html><html class="theme"><head><style>
  body { margin: 0; font-family: 'DejaVu Sans'; }
  .card { display: inline-block; width: 200px; height: 120px; background: #fff; }
  .card:hover { background-color: #eef; box-shadow: 0 2px 8px #0004; }
  .grid { &:focus-within { outline: 1px solid red; } }
  input:focus-visible { outline: 2px solid blue; }
  @media (max-width: 10px) { .card:hover { color: red; } }
  details[open] summary { font-weight: 700; }
</style></head><body><main class="grid"><div class="card">One</div><div class="card">Two</div><div class="card">Three</div></main>
<form><input id="email"></form><details open><summary>More</summary>text</details></body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
});
afterAll(async () => {
  await browser?.close();
});

async function page(): Promise<Page> {
  const opened = await browser.newPage({ viewport: { width: 800, height: 600 } });
  await opened.setContent(PAGE);
  return opened as unknown as Page;
}

describe('the pointer and focus state of a capture', () => {
  it('is nothing hovered or focused on a page the test never pointed at, with its open details', async () => {
    const opened = await page();
    const state = await takeInteraction(opened);
    expect(state).toMatchObject({ hovered: null, focused: null, focusVisible: false, open: ['html>body>details'] });
    expect(state!.rules.map((rule) => rule.selector)).toEqual(['details[open] summary']);
    await opened.close();
  });

  it("names the hovered card and the focused input by their layout record's paths, with the state rules that apply and what they set", async () => {
    const opened = await page();
    await opened.locator('.card').nth(1).hover();
    await opened.keyboard.press('Tab');
    const state = (await takeInteraction(opened))!;
    const layout = (await takeLayout(opened, { kind: 'page' }))!;
    const paths = layout.elements.map((element) => element.path);
    expect(state.hovered).toBe('html>body>main.grid>div.card:2');
    expect(state.focused).toBe('html>body>form>input#email');
    expect(state.focusVisible).toBe(true);
    expect(paths).toEqual(expect.arrayContaining([state.hovered, state.focused]));
    const hover = state.rules.find((rule) => rule.selector === '.card:hover')!;
    expect(hover.elements).toEqual(['html>body>main.grid>div.card:2']);
    expect(hover.properties).toEqual(expect.arrayContaining(['background-color', 'box-shadow']));
    expect(state.rules.find((rule) => rule.selector.startsWith('input:focus-visible'))?.elements).toEqual(['html>body>form>input#email']);
    // The media query that does not apply styles nothing, so it is not a rule of this state.
    expect(state.rules.filter((rule) => rule.selector === '.card:hover')).toHaveLength(1);
    await opened.close();
  });

  it('resolves a nested rule against its parent, so what it applies to is found', async () => {
    const opened = await page();
    await opened.evaluate(() => {
      const card = document.querySelector('.card')!;
      card.setAttribute('tabindex', '0');
      (card as HTMLElement).focus();
    });
    const state = (await takeInteraction(opened))!;
    expect(state.focused).toBe('html>body>main.grid>div.card:1');
    expect(state.rules.find((rule) => rule.selector.includes(':focus-within'))?.elements).toEqual(['html>body>main.grid']);
    await opened.close();
  });
});

describe('the layout record of a masked capture', () => {
  it('marks the elements a mask paints over, and what is inside them, and no other', async () => {
    const opened = await page();
    const layout = (await takeLayout(opened, { kind: 'page' }, [opened.locator('main.grid')]))!;
    const masked = layout.elements.filter((element) => element.masked).map((element) => element.path);
    expect(masked).toEqual([
      'html>body>main.grid',
      'html>body>main.grid>div.card:1',
      'html>body>main.grid>div.card:2',
      'html>body>main.grid>div.card:3',
    ]);
    expect((await takeLayout(opened, { kind: 'page' }))!.elements.some((element) => element.masked)).toBe(false);
    await opened.close();
  });

  it("keeps an element capture's place on the page to a hundredth of a pixel, and none for the page", async () => {
    const opened = await page();
    await opened.evaluate(() => {
      (document.querySelector('main.grid') as HTMLElement).style.marginTop = '10.5px';
    });
    const element = (await takeLayout(opened, { kind: 'element', locator: opened.locator('main.grid') }))!;
    expect(element.at?.[1]).toBeCloseTo(10.5, 2);
    expect((await takeLayout(opened, { kind: 'page' }))!.at).toBeUndefined();
  });
});

/** A header whose menu a style hides, a link the `hidden` attribute hides, and a hidden block inside a hidden one, as a capture reads them. */
const HIDING = `<!doctype html><html><head><style>
  body { margin: 0; } header { display: flex; height: 64px; } .menu { display: none; } .tip { display: none; }
</style></head><body><header><strong>Harbor</strong><nav class="menu"><a>Docs</a><span class="tip">new</span></nav><a hidden>Blog</a><span></span></header></body></html>`;

describe('the layout record', () => {
  it('lists the elements a style hides under a recorded parent (still in the page), not what is inside them nor an empty element', async () => {
    const opened = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await opened.setContent(HIDING);
    const layout = (await takeLayout(opened as unknown as Page, { kind: 'page' }))!;
    expect(layout.hidden).toEqual(['html>body>header>nav.menu', 'html>body>header>a']);
    expect(layout.elements.map((element) => element.path)).not.toContain('html>body>header>nav.menu');
    await opened.close();
  });
});
