import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { takeLayout } from '../../src/capture/layout';
import { compareImages } from '../../src/compare';
import { systemChromium } from '../../src/config/browser';
import { explainChange, type Explanation } from '../../src/explain';
import { selectorNames } from '../../src/explain/attribute';
import { stepParts } from '../../src/explain/words';
import type { LayoutRecord } from '../../src/types';
import { CASES, PAGES, type CaseSpec, type PageSpec } from './cases';
import { openCase } from './render';

/**
 * `node dist/scripts/label-corpus/explain-accuracy.js`: how often the explanation names the changed
 * element and property on the labelled corpus. Each case is rendered as the generator renders it,
 * with a layout record on both sides; its truth comes from the case's own edit:
 *
 * - a CSS rule: a change on an element the rule's selector targets, in a property the rule sets
 *   (shorthands mapped to what the record keeps: `background` → background-color…; a rule that
 *   hides an element counts when the element is reported removed);
 * - an HTML edit that adds an element (a new tag): an added element with that tag or one of its
 *   classes; one that removes markup: a removed element; one that changes words only: a text change
 *   that shows a new word; one that changes an attribute value only (a picture's address): a
 *   property whose value shows the edit; one that changes a tag's attributes: a change on an
 *   element of that tag.
 *
 * A case counts when one of its edits is named. Prints the figure and each miss with what was said.
 */

const TOLERANCE = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

/** A declared property as the layout record keeps it. */
const RECORDED: Record<string, string[]> = {
  background: ['background-color', 'background-image'],
  border: ['border-width', 'border-style', 'border-color'],
  'row-gap': ['gap'],
  'column-gap': ['gap'],
};

type Check = { what: string; named: (explanation: Explanation) => boolean };

function cssChecks(css: string): Check[] {
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].flatMap(([, selector, body]) => {
    const declared = [...body.matchAll(/([a-z-]+)\s*:/g)].map((m) => m[1]);
    const properties = declared.flatMap((name) => RECORDED[name] ?? [name]);
    // An element hidden or squashed to nothing leaves the record: reported removed.
    const hides = /display\s*:\s*none|(^|[^-])(height|width)\s*:\s*0(?![.\d])/.test(body);
    return [
      {
        what: `${selector.trim()} { ${declared.join(', ')} }`,
        named: (explanation: Explanation) =>
          explanation.changes.some(
            (change) => selectorNames(selector, change.path) && (change.properties.some((p) => properties.includes(p.property)) || (hides && change.kind === 'removed')),
          ),
      },
    ];
  });
}

const tagsOf = (html: string) => [...html.matchAll(/<([a-z][\w-]*)([^>]*)>/gi)].map((m) => ({ tag: m[1].toLowerCase(), classes: (m[2].match(/class="([^"]*)"/)?.[1] ?? '').split(/\s+/).filter(Boolean) }));
const wordsOf = (html: string) => new Set(html.replace(/<[^>]*>/g, ' ').split(/[^\p{L}\p{N}$%.,:-]+/u).filter((word) => word.length > 1));

function replaceChecks(replace: [string, string][]): Check[] {
  return replace.map(([from, to]) => {
    const before = tagsOf(from);
    const left = [...before];
    const added = tagsOf(to).filter((t) => {
      const same = left.findIndex((b) => b.tag === t.tag && b.classes.join(' ') === t.classes.join(' '));
      if (same >= 0) left.splice(same, 1);
      return same < 0;
    });
    if (added.length) {
      const first = added[0];
      return {
        what: `<${first.tag}${first.classes.length ? ` class="${first.classes.join(' ')}"` : ''}> added`,
        named: (explanation) =>
          explanation.changes.some((change) => {
            const parts = stepParts(change.path);
            return change.kind === 'added' && added.some((t) => parts.tag === t.tag || t.classes.some((name) => parts.classes.includes(name)));
          }),
      };
    }
    if (before.length === 0 && !/[<>]/.test(from) && /["\/=]/.test(from))
      return { what: `attribute ${from}`, named: (explanation) => explanation.changes.some((change) => change.properties.some((p) => p.before.includes(from) || p.after.includes(to))) };
    if (tagsOf(to).length < before.length || to.trim() === '') return { what: `${from.slice(0, 40)} removed`, named: (explanation) => explanation.changes.some((change) => change.kind === 'removed') };
    const fresh = [...wordsOf(to)].filter((word) => !wordsOf(from).has(word));
    if (fresh.length)
      return {
        what: `text → ${fresh.join(' ')}`,
        named: (explanation) => explanation.changes.some((change) => change.properties.some((p) => p.property === 'text' && fresh.some((word) => p.after.includes(word)))),
      };
    const edited = before[0]?.tag ?? null;
    return { what: `attribute of <${edited ?? '?'}>`, named: (explanation) => explanation.changes.some((change) => edited !== null && stepParts(change.path).tag === edited) };
  });
}

async function render(browser: Browser, page: PageSpec, spec: CaseSpec | null, file: string): Promise<LayoutRecord | null> {
  const { context, tab } = await openCase(browser, page, spec);
  try {
    const locator = page.scope ? tab.locator(page.scope) : undefined;
    const options = { animations: 'disabled', caret: 'hide' } as const;
    fs.writeFileSync(file, locator ? await locator.screenshot(options) : await tab.screenshot(options));
    return await takeLayout(tab, locator ? { kind: 'element', locator } : { kind: 'clip', x: 0, y: 0, ...page.viewport });
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const executablePath = systemChromium() ?? undefined;
  const browser = await chromium.launch({ executablePath, args: executablePath ? ['--disable-gpu'] : [] });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-explain-'));
  const misses: string[] = [];
  try {
    for (const spec of CASES) {
      const page = PAGES.find((candidate) => candidate.name === spec.page)!;
      const files = { baseline: path.join(work, `${spec.id}-base.png`), current: path.join(work, `${spec.id}-current.png`) };
      const base = await render(browser, page, null, files.baseline);
      const current = await render(browser, page, spec, files.current);
      const outcome = await compareImages({ ...files, diffOutput: path.join(work, `${spec.id}-diff.png`), tolerance: TOLERANCE });
      const regions = outcome.kind === 'different' ? outcome.metrics.changedRegions : [];
      const explanation = explainChange(base, current, regions, []);
      const checks = [...cssChecks(spec.css ?? ''), ...replaceChecks(spec.replace ?? [])];
      const named = checks.some((check) => check.named(explanation));
      process.stdout.write(`${named ? 'named ' : 'MISSED'} ${spec.id}: ${explanation.summary || explanation.note}\n`);
      if (!named) misses.push(`- \`${spec.id}\`: expected ${checks.map((c) => c.what).join(' or ')}; said: ${explanation.summary || explanation.note}`);
    }
  } finally {
    await browser.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const correct = CASES.length - misses.length;
  process.stdout.write(`\n${correct} of ${CASES.length} cases named (${((100 * correct) / CASES.length).toFixed(1)} %)\n${misses.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
