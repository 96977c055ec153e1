import type { Page } from '@playwright/test';

/** At most this many elements are described: a compact view keeps each call cheap. */
const MAX_ELEMENTS = 60;
const MAX_TEXT = 80;

/**
 * What the model sees of the live page: its URL and title, then one line per visible
 * interactive or structural element with its role, accessible name, test id and text.
 */
export async function pageView(page: Page): Promise<string> {
  const lines = await page.evaluate(
    ({ max, maxText }) => {
      const clip = (s: string | null | undefined) => {
        const t = (s ?? '').replace(/\s+/g, ' ').trim();
        return t.length > maxText ? `${t.slice(0, maxText)}…` : t;
      };
      const implicitRole = (el: Element): string => {
        const tag = el.tagName.toLowerCase();
        const type = (el.getAttribute('type') ?? 'text').toLowerCase();
        if (tag === 'a' && el.hasAttribute('href')) return 'link';
        if (tag === 'button') return 'button';
        if (tag === 'select') return 'combobox';
        if (tag === 'textarea') return 'textbox';
        if (tag === 'input')
          return (
            ({ checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button' } as Record<string, string>)[type] ?? 'textbox'
          );
        if (/^h[1-6]$/.test(tag)) return 'heading';
        return '';
      };
      const nameOf = (el: Element): string => {
        const labelled = el.getAttribute('aria-labelledby');
        if (labelled)
          return clip(
            labelled
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent)
              .join(' '),
          );
        const aria = el.getAttribute('aria-label');
        if (aria) return clip(aria);
        const labels = (el as HTMLInputElement).labels;
        if (labels?.length)
          return clip(
            Array.from(labels)
              .map((l) => l.textContent)
              .join(' '),
          );
        return clip((el as HTMLElement).innerText || el.getAttribute('title') || el.getAttribute('alt'));
      };
      const out: string[] = [];
      const selector = 'a[href], button, input, select, textarea, [role], [data-testid], h1, h2, h3, h4, label';
      for (const el of Array.from(document.querySelectorAll(selector))) {
        if (out.length >= max) break;
        const style = getComputedStyle(el);
        if (!el.getClientRects().length || style.visibility === 'hidden') continue;
        const role = el.getAttribute('role') ?? implicitRole(el);
        const parts = [`<${el.tagName.toLowerCase()}>`];
        if (role) parts.push(`role=${role}`);
        const name = nameOf(el);
        if (name) parts.push(`name=${JSON.stringify(name)}`);
        for (const attr of ['data-testid', 'id', 'name', 'type', 'placeholder', 'href', 'class']) {
          const value = el.getAttribute(attr);
          if (value) parts.push(`${attr === 'data-testid' ? 'testid' : attr}=${JSON.stringify(clip(value))}`);
        }
        if ((el as HTMLInputElement).value && /^(input|select|textarea)$/i.test(el.tagName))
          parts.push(`value=${JSON.stringify(clip((el as HTMLInputElement).value))}`);
        out.push(parts.join(' '));
      }
      return out;
    },
    { max: MAX_ELEMENTS, maxText: MAX_TEXT },
  );
  return [`URL: ${page.url()}`, `Title: ${await page.title()}`, 'Visible elements:', ...lines.map((line) => `- ${line}`)].join('\n');
}
