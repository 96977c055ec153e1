import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { sha256File } from '../../src/util/hash';
import { labelledCase, readLabels, writeLabel, type LabelledCase } from '../../src/approve';
import { startSignals, recorderFor } from '../../src/capture/signals';
import { takeLayout } from '../../src/capture/layout';
import { compareImages, compareSignals } from '../../src/compare';
import { systemChromium } from '../../src/config/browser';
import { explainChange } from '../../src/explain';
import { parseDiff } from '../../src/git/diff';
import type { CodeChange } from '../../src/git/code-change';
import type { LayoutRecord } from '../../src/types';
import { CASES, PAGES, type CaseSpec, type PageSpec } from './cases';
import { CASES_DIR, CORPUS_DIR, openCase, sha1 } from './render';

/**
 * `npm run corpus:labels`: renders every case of cases.ts with Chromium (base page, then the page
 * with the case's edit), measures the pair with the product's own diff engine, and writes the
 * labelled cases to fixtures/label-corpus/cases/ in the format `visual-uat eval` reads, plus a
 * README with the corpus's composition. Deterministic: same pages, same Chromium, same files.
 */

/** The date the labels carry: fixed, so regenerating changes only what really changed. */
const LABELLED_AT = '2025-06-01T00:00:00.000Z';
const TOLERANCE = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

interface Capture {
  png: Buffer;
  signals: Awaited<ReturnType<ReturnType<typeof startSignals>>>;
  layout: LayoutRecord | null;
}

async function capture(browser: Browser, page: PageSpec, spec: CaseSpec | null): Promise<Capture> {
  const { context, tab } = await openCase(browser, page, spec, recorderFor);
  try {
    const locator = page.scope ? tab.locator(page.scope) : undefined;
    const finish = startSignals(tab, locator);
    const options = { animations: 'disabled', caret: 'hide' } as const;
    const raw = locator ? await locator.screenshot(options) : await tab.screenshot(options);
    // Lossless, at the strongest deflate: less than half of Chromium's own PNG size.
    const png = await sharp(raw).png({ compressionLevel: 9, adaptiveFiltering: true, effort: 10 }).toBuffer();
    const signals = await finish(false);
    return {
      png,
      signals,
      layout: await takeLayout(tab, locator ? { kind: 'element', locator } : { kind: 'clip', x: 0, y: 0, ...page.viewport }),
    };
  } finally {
    await context.close();
  }
}

/** Named after the change as its author would name it: never after the case, whose id gives the label away. */
function branchFor(spec: CaseSpec): string {
  const words = spec.commits[0]
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `feature/${words.length > 40 ? words.slice(0, 40).replace(/-[^-]*$/, '') : words}`;
}

function commitLine(spec: CaseSpec, subject: string): string {
  return `${sha1(`${spec.id}\0${subject}`).slice(0, 7)} ${subject}`;
}

const STYLE_SHEET = /\.(css|scss|less)$/;
const COMPONENT = /\.(tsx|jsx|vue|svelte|astro)$/;
const MARKUP = /\.(html|tsx|jsx|vue|svelte|astro)$/;
/** Content a page renders (a blog post's Markdown), not a project's README. */
const CONTENT = /^(?!.*README).*\.mdx?$/i;

/**
 * The case's edit as its branch's diff would show it, for the explanation's attribution: its CSS
 * added to the style sheet the case changes (else to its component, as CSS-in-JS), its
 * replacements in the page, component or content file it changes. An edit whose kind of file the
 * case does not change (a dependency bump that restyles) is in no diff, as on a real branch: the
 * explanation then says no changed file mentions the element.
 */
function codeOf(spec: CaseSpec): CodeChange[] {
  const files = spec.changedFiles.map((line) => line.replace(/^[A-Z]\s+/, ''));
  const sheet = files.find((file) => STYLE_SHEET.test(file)) ?? files.find((file) => COMPONENT.test(file));
  const markup = files.find((file) => MARKUP.test(file)) ?? files.find((file) => CONTENT.test(file));
  const patch = (file: string, lines: string[]) =>
    `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n${lines.join('\n')}\n`;
  const lines = (text: string, sign: string) =>
    text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => `${sign}${line}`);
  const patches = [
    sheet && spec.css ? patch(sheet, lines(spec.css, '+')) : '',
    markup && spec.replace?.length
      ? patch(
          markup,
          spec.replace.flatMap(([from, to]) => [...lines(from, '-'), ...lines(to, '+')]),
        )
      : '',
  ];
  return parseDiff(patches.join(''), commitLine(spec, spec.commits[0]));
}

async function buildCase(browser: Browser, spec: CaseSpec, work: string): Promise<void> {
  const page = PAGES.find((candidate) => candidate.name === spec.page);
  if (!page) throw new Error(`case ${spec.id}: no page "${spec.page}" in cases.ts`);
  const [base, current] = [await capture(browser, page, null), await capture(browser, page, spec)];
  const images = { baseline: path.join(work, `${spec.id}-baseline.png`), current: path.join(work, `${spec.id}-current.png`) };
  fs.writeFileSync(images.baseline, base.png);
  fs.writeFileSync(images.current, current.png);
  const outcome = await compareImages({ ...images, diffOutput: path.join(work, `${spec.id}-diff.png`), tolerance: TOLERANCE });
  if (outcome.kind !== 'different')
    throw new Error(`case ${spec.id}: the edit changes nothing visible (${outcome.kind}): fix its css or replace`);
  const labelled = labelledCase(
    {
      project: 'chromium',
      titlePath: [`${page.name}.spec.ts`, page.test],
      file: `tests/${page.name}.spec.ts`,
      checkpoint: page.checkpoint,
      intent: { test: spec.intent ?? page.intent, checkpoint: spec.checkpointIntent ?? null },
      context: {
        baseBranch: 'main',
        baseCommit: sha1(`${spec.id}:base`),
        currentBranch: branchFor(spec),
        currentCommit: sha1(`${spec.id}:current`),
        dirty: false,
        commits: spec.commits.map((subject) => commitLine(spec, subject)),
        changedFiles: spec.changedFiles,
      },
      diffMetrics: outcome.metrics,
      signals: compareSignals(base.signals, current.signals),
      explanation: explainChange(base.layout, current.layout, outcome.metrics.changedRegions, codeOf(spec)),
      imageHashes: { baseline: sha256File(images.baseline), current: sha256File(images.current) },
    },
    { label: spec.label, source: 'corpus', by: 'visual-uat corpus', at: LABELLED_AT, note: spec.note },
  );
  // Corpus cases are named by what they show, not by a hash of their images.
  writeLabel(CASES_DIR, { ...labelled, id: spec.id }, images);
}

function sizeOf(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? sizeOf(full) : fs.statSync(full).size);
  }, 0);
}

function readme(cases: LabelledCase[], bytes: number): string {
  const count = (label: string) => cases.filter((c) => c.label === label).length;
  const plausible = CASES.filter((spec) => spec.plausible).map((spec) => spec.id);
  const rows = cases.map(
    (c) =>
      `| \`${c.id}\` | ${c.label} | ${c.test.titlePath.at(-1)} › ${c.checkpoint} | ${c.change!.commits.map((line) => line.slice(8)).join('; ')} | ${c.note} |`,
  );
  return [
    '# The labelled corpus',
    '',
    'Generated by `npm run corpus:labels` (scripts/label-corpus/) from the pages in `pages/`: each case is a',
    'page rendered by Chromium as it is and with one edit, in the labelled-case format of',
    '[docs/labels.md](../../docs/labels.md). `npx visual-uat eval --corpus` replays it. Do not edit `cases/`',
    'by hand: change `scripts/label-corpus/cases.ts` or the pages and generate again.',
    '',
    `${cases.length} cases: ${count('intended')} intended, ${count('regression')} regressions, ${PAGES.length} pages; ${(bytes / 1024).toFixed(0)} KiB in cases/.`,
    `Regressions whose commit touches the same area (the harder ones): ${plausible.map((id) => `\`${id}\``).join(', ')}.`,
    '',
    '| case | label | test › checkpoint | commits | what a reviewer sees |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** With case ids as arguments, only those are rendered again (while editing cases.ts); without, the whole corpus. */
async function main(only: string[]): Promise<void> {
  const ids = new Set<string>();
  for (const spec of CASES) {
    if (ids.has(spec.id)) throw new Error(`case ${spec.id} is defined twice`);
    ids.add(spec.id);
  }
  const unknown = only.filter((id) => !ids.has(id));
  if (unknown.length) throw new Error(`no case ${unknown.join(', ')} in cases.ts`);
  const chosen = only.length ? CASES.filter((spec) => only.includes(spec.id)) : CASES;
  const executablePath = systemChromium() ?? undefined;
  const browser = await chromium.launch({ executablePath, args: executablePath ? ['--disable-gpu'] : [] });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-corpus-'));
  try {
    if (!only.length) fs.rmSync(CASES_DIR, { recursive: true, force: true });
    for (const spec of chosen) {
      await buildCase(browser, spec, work);
      process.stdout.write(`${spec.label.padEnd(10)} ${spec.id}\n`);
    }
  } finally {
    await browser.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const store = readLabels(CASES_DIR);
  if (store.problems.length) throw new Error(`the corpus does not read back:\n${store.problems.join('\n')}`);
  const bytes = sizeOf(CASES_DIR);
  fs.writeFileSync(
    path.join(CORPUS_DIR, 'README.md'),
    readme(
      store.cases.map((c) => c.case),
      bytes,
    ),
  );
  process.stdout.write(
    `${store.cases.length} cases written to ${path.relative(process.cwd(), CASES_DIR)} (${(bytes / 1024).toFixed(0)} KiB)\n`,
  );
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  process.exitCode = 1;
});
