import type { Page } from '@playwright/test';
import type { InteractionState } from '../types';

/**
 * How many state rules a capture keeps, and how many elements per rule: enough to name a hovered card's rules, small beside a layout
 * record.
 */
const RULE_LIMIT = 60;
const ELEMENT_LIMIT = 8;

interface ReadArgs {
  ruleLimit: number;
  elementLimit: number;
}

/**
 * Runs in the browser: the element under the pointer, the focused one, the open popovers, and the
 * style rules that need one of those states and apply now, read from the page's own style sheets
 * (a cross-origin sheet, which the page may not read, is left out). Paths as `capture/layout.ts`
 * writes them (`html>body>main>div.card:2`: each step's tag, id and classes, its place among
 * same-named siblings when it has some), so the explanation finds them in the layout record.
 * Self-contained (Playwright serialises it).
 */
function readInteraction(_root: Element, args: ReadArgs): InteractionState {
  const STATE = /:(hover|focus|focus-visible|focus-within|popover-open|open)\b|\[open\]/;
  const stepName = (element: Element) =>
    `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${Array.from(element.classList)
      .map((name) => `.${name}`)
      .join('')}`;
  const pathOf = (element: Element): string => {
    const steps: string[] = [];
    for (let at: Element | null = element; at; at = at.parentElement) {
      const parent: Element | null = at.parentElement;
      if (!parent) {
        steps.unshift('html');
        break;
      }
      const name = stepName(at);
      const same = Array.from(parent.children).filter((child) => stepName(child) === name);
      steps.unshift(same.length > 1 ? `${name}:${same.indexOf(at) + 1}` : name);
    }
    return steps.join('>');
  };
  const hoveredChain = Array.from(document.querySelectorAll(':hover'));
  const hovered = hoveredChain.length ? hoveredChain[hoveredChain.length - 1] : null;
  const active = document.activeElement;
  const focused = active && active !== document.body && active !== document.documentElement ? active : null;
  const popovers = (() => {
    try {
      return Array.from(document.querySelectorAll(':popover-open'));
    } catch {
      return [];
    }
  })();
  const open = [...popovers, ...Array.from(document.querySelectorAll('details[open], dialog[open]'))];
  const rules: InteractionState['rules'] = [];
  const resolved = (selector: string, parent: string | null) => {
    if (!parent) return selector;
    return selector.includes('&') ? selector.split('&').join(`:is(${parent})`) : `:is(${parent}) ${selector}`;
  };
  const visit = (list: CSSRuleList, parent: string | null) => {
    for (const rule of Array.from(list)) {
      if (rules.length >= args.ruleLimit) return;
      if (rule instanceof CSSMediaRule && !matchMedia(rule.media.mediaText).matches) continue;
      let own = parent;
      if (rule instanceof CSSStyleRule) {
        own = resolved(rule.selectorText, parent);
        if (STATE.test(rule.selectorText) && rule.style.length > 0) {
          let elements: Element[] = [];
          try {
            elements = Array.from(document.querySelectorAll(own));
          } catch {
            // A selector this browser cannot query (a vendor pseudo-class): it styles nothing here.
          }
          if (elements.length)
            rules.push({ selector: own, properties: Array.from(rule.style), elements: elements.slice(0, args.elementLimit).map(pathOf) });
        }
      }
      if (rule instanceof CSSImportRule) readSheet(rule.styleSheet);
      else if ('cssRules' in rule && rule.cssRules) visit(rule.cssRules as CSSRuleList, own);
    }
  };
  function readSheet(sheet: CSSStyleSheet | null) {
    let list: CSSRuleList | null = null;
    try {
      list = sheet && !sheet.disabled ? sheet.cssRules : null;
    } catch {
      // A cross-origin sheet: its rules are not the page's to read.
    }
    if (list) visit(list, null);
  }
  for (const sheet of Array.from(document.styleSheets)) readSheet(sheet);
  return {
    hovered: hovered ? pathOf(hovered) : null,
    focused: focused ? pathOf(focused) : null,
    focusVisible: focused ? focused.matches(':focus-visible') : false,
    open: [...new Set(open.map(pathOf))],
    rules,
  };
}

/**
 * The pointer and focus state of the page as a capture left it. Never throws: a page that
 * navigated has none (null), and the explanation then claims nothing about it.
 */
export async function takeInteraction(page: Page): Promise<InteractionState | null> {
  try {
    // Through a locator, as the layout record is read: the wait for a document that is being replaced is bounded.
    return await page.locator('html').evaluate(readInteraction, { ruleLimit: RULE_LIMIT, elementLimit: ELEMENT_LIMIT }, { timeout: 2000 });
  } catch {
    return null;
  }
}
