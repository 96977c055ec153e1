import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '@playwright/test';
import { takeLayout } from '../../../src/capture/layout';
import { systemChromium } from '../../../src/config/browser';
import { explainChange } from '../../../src/explain';
import { parseDiff } from '../../../src/git/diff';

/** A contact section bounded by its rule's max-width, and cards that a min-height rule makes taller (a Vue SFC's and a CSS Module's edits). */
const page = (contactWidth: string, cardRule: string) => `<!doctype html><html><head><style>
  body { margin: 0; font-family: 'DejaVu Sans'; }
  .contact-content { max-width: ${contactWidth}; margin: 0 auto; }
  .contact-content p { margin: 0; }
  .cards { display: flex; gap: 16px; width: 30%; }
  .container { ${cardRule} background: #eef; }
</style></head><body><section class="contact-content"><p>Write to us: we answer within a day, every day of the week, holidays included.</p></section>
<div class="cards"><div class="container">One</div><div class="container">Two</div></div></body></html>`;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
});
afterAll(async () => {
  await browser?.close();
});

async function recordOf(html: string) {
  const opened = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await opened.setContent(html);
  const layout = await takeLayout(opened as unknown as Page, { kind: 'page' });
  await opened.close();
  return layout!;
}

describe('the layout record keeps the bounds a rule sets', () => {
  it('records min and max widths and heights as declared, a percentage as one', async () => {
    const layout = await recordOf(page('600px', 'min-height: 40%;'));
    const style = (path: string) => layout.styles[layout.elements.find((element) => element.path === path)!.style];
    expect(style('html>body>section.contact-content')).toMatchObject({ 'max-width': '600px', 'min-height': '0px', 'max-height': 'none' });
    expect(style('html>body>div.cards>div.container:1')['min-height']).toBe('40%');
  });

  it("names a parent rule's max-width and a flex card's min-height (auto before), each from the line that set it, not only the boxes' new sizes", async () => {
    const [base, current] = await Promise.all([recordOf(page('600px', '')), recordOf(page('800px', 'min-height: 400px;'))]);
    const code = parseDiff(
      [
        'diff --git a/src/contact.css b/src/contact.css',
        '@@ -1 +1 @@',
        '-.contact-content { max-width: 600px; margin: 0 auto; }',
        '+.contact-content { max-width: 800px; margin: 0 auto; }',
      ].join('\n'),
      'a1 Contact: a wider column',
    );
    const explanation = explainChange(base, current, [{ x: 0, y: 0, width: 1200, height: 700 }], code);
    const contact = explanation.changes.find((change) => change.path === 'html>body>section.contact-content')!;
    expect(contact.properties).toEqual(expect.arrayContaining([{ property: 'max-width', before: '600px', after: '800px' }]));
    expect(contact.words).toMatch(
      /^\.contact-content: max-width 600px → 800px, margin .*; width 600 → 800 px.* — src\/contact\.css \(commit a1 /,
    );
    const card = explanation.changes.find((change) => change.path === 'html>body>div.cards>div.container:1')!;
    expect(card.properties).toEqual(expect.arrayContaining([{ property: 'min-height', before: 'auto', after: '400px' }]));
  });
});
