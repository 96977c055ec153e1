import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@playwright/test';
import { settle, stableCapture } from '../../../src/capture/settle';
import { systemChromium } from '../../../src/config/browser';

/** A Bootstrap-like page: smooth scrolling, a fixed navbar, a link to a section far below. */
const PAGE = `<html><head><style>
  :root { scroll-behavior: smooth; } body { margin: 0; padding-top: 64px; font-family: 'DejaVu Sans'; }
  nav { position: fixed; top: 0; left: 0; right: 0; height: 64px; background: #212529; color: #fff; }
  section { height: 900px; border-bottom: 1px solid #ccc; }
</style></head><body><nav><a id="go" href="#pricing" style="color:#fff">Pricing</a></nav>
${['home', 'features', 'about', 'team', 'pricing', 'contact'].map((id) => `<section id="${id}"><h2>${id}</h2></section>`).join('')}</body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
});
afterAll(async () => {
  await browser?.close();
});

describe('settle before a checkpoint', () => {
  it('lets the transition a scroll handler started end, and leaves a long animation to the screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
    await page.setContent(`<style>
      body { margin: 0; height: 3000px; } .spin { width: 10px; height: 10px; animation: spin 30s linear; }
      nav { position: fixed; top: 0; left: 0; right: 0; min-height: 86px; background: #212529; transition: min-height 900ms ease-in-out; }
      nav.scrolled { min-height: 64px; }
      @keyframes spin { to { transform: rotate(360deg); } }
    </style><nav></nav><div class="spin"></div>
    <script>addEventListener('scroll', () => document.querySelector('nav').classList.toggle('scrolled', scrollY > 100));</script>`);
    await page.mouse.move(500, 300);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => document.querySelector('nav')!.classList.contains('scrolled'));
    await settle(page as unknown as Page, 5000);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('nav')!).minHeight)).toBe('64px');
    // The 30 s animation still runs: settle did not wait it out.
    expect(await page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running').length)).toBe(1);
    await page.close();
  });

  it('waits for a smooth scroll to end, so a full-page capture starts from the page at rest', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.setContent(PAGE);
    const target = await page.evaluate(() => document.getElementById('pricing')!.offsetTop);
    await page.click('#go');
    // The scroll is still under way when the click returns: this is what a checkpoint used to capture.
    expect(await page.evaluate(() => scrollY)).toBeLessThan(target);
    await settle(page as unknown as Page, 5000);
    expect(await page.evaluate(() => scrollY)).toBe(target);
    const first = await page.screenshot({ fullPage: true, animations: 'disabled' });
    await page.waitForTimeout(500);
    expect((await page.screenshot({ fullPage: true, animations: 'disabled' })).equals(first)).toBe(true);
    await page.close();
  });

  it('gives up on a page that never stops scrolling at its time budget', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.setContent(
      `<body style="margin:0"><div style="height:100000px"></div><script>(function step(){ scrollBy(0, 1); requestAnimationFrame(step); })()</script></body>`,
    );
    const started = Date.now();
    await settle(page as unknown as Page, 300);
    expect(Date.now() - started).toBeLessThan(2000);
    await page.close();
  });
});

describe('a stable capture', () => {
  it("takes one screenshot when the first is identical to the checkpoint's earlier render that held still, two otherwise", async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.setContent(
      '<body style="margin:0;background:linear-gradient(#fff,#cde)"><h1 style="box-shadow:0 2px 8px #0004">Pricing</h1></body>',
    );
    let taken = 0;
    const capture = () => {
      taken++;
      return page.screenshot({ animations: 'disabled' });
    };
    const earlier = await page.screenshot({ animations: 'disabled' });
    const matched = await stableCapture(capture, 5000, null, earlier);
    expect(taken).toBe(1);
    expect(matched).toEqual({ png: earlier, stable: true, unsettled: null, captures: 1, firstDifference: null });

    // An earlier render of another look (the test was edited to open another plan) proves nothing.
    await page.evaluate(() => (document.querySelector('h1')!.textContent = 'Plans'));
    taken = 0;
    const retaken = await stableCapture(capture, 5000, null, earlier);
    expect(taken).toBe(2);
    expect(retaken.stable).toBe(true);
    expect(retaken.png.equals(earlier)).toBe(false);
    // Only a baseline match spares the layout record: an earlier render is no baseline.
    expect(retaken).not.toHaveProperty('sameAsBaseline');
    await page.close();
  });

  it('takes a second capture when the first outlasted the time budget (a loaded machine): one capture cannot show a page never settled', async () => {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.setContent('<body style="margin:0;background:linear-gradient(#fff,#cde)"><h1>Pricing</h1></body>');
    let taken = 0;
    const slowFirst = async () => {
      taken++;
      if (taken === 1) await new Promise((resolve) => setTimeout(resolve, 300));
      return page.screenshot({ animations: 'disabled' });
    };
    const settled = await stableCapture(slowFirst, 200, null, null);
    expect(taken).toBe(2);
    expect(settled).toMatchObject({ stable: true, unsettled: null, captures: 2 });
    await page.close();
  });
});
