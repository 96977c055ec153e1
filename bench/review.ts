import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { startReviewServer } from '../src/cli/review-server';
import { encodeChange } from '../src/compare';
import { outputPath } from '../src/config/paths';
import { resolveSettings } from '../src/config/settings';
import { systemChromium } from '../src/config/browser';
import type { RunResult } from '../src/report';
import { checkpointResult, runOf, testResult } from '../tests/support/runs';
import { writeBenchSection } from './results-file';
import { appendBenchJson, type BenchRow } from './run';

/**
 * The review page's first paint for a run of 300 changed checkpoints, each a change of its own
 * (300 entries: the page's worst case), against the same page for 30 in the same run. Images are
 * full-page screenshots' size (1280×2400); the page asks only for those in view (lazy loading):
 * the count of image requests before the load event says so.
 */

const LOADS = 5;

/** A results file of `count` changed checkpoints, one group each, with real PNG files (hard links of one). */
async function syntheticRun(count: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-bench-review-${count}-`));
  const settings = resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {});
  const images = path.join(settings.outputDir, 'images');
  fs.mkdirSync(images, { recursive: true });
  const png = path.join(images, 'source.png');
  await sharp({ create: { width: 1280, height: 2400, channels: 4, background: '#f4f6fa' } })
    .composite([{ input: { create: { width: 1100, height: 300, channels: 4, background: '#2a6df4' } }, top: 200, left: 90 }])
    .png()
    .toFile(png);
  const file = (name: string) => {
    const target = path.join(images, name);
    fs.linkSync(png, target);
    return path.relative(outputPath(settings.outputDir, 'results'), target);
  };
  const tests = Array.from({ length: count }, (_, n) => {
    const cells = new Uint8Array(64 * 3).map((_, i) => (i * 7 + n * 13) % 256);
    const fingerprint = encodeChange({
      threshold: 0.1,
      regions: [{ kind: 'modified', width: 64, height: 8, cell: 8, base: cells, current: cells.map((v) => 255 - v) }],
      lines: [],
    });
    const full = checkpointResult({
      name: 'full',
      reason: 'no evaluator configured',
      baselineImage: file(`${n}-base.png`),
      currentImage: file(`${n}-current.png`),
      diffImage: file(`${n}-diff.png`),
      diffMetrics: { pixelDiffPercent: 1.2, changedRegions: [{ x: 90, y: 200, width: 1100, height: 300, kind: 'modified' }] },
      signals: {
        ariaDiff: '@@ -1 +1 @@\n-- heading "Old"\n+- heading "New"',
        newConsoleErrors: [],
        newFailedRequests: [],
        newA11yViolations: [],
      },
      group: `g${n + 1}`,
      fingerprint,
    });
    return testResult([`pages-${Math.floor(n / 3)}.spec.ts`, `page ${n}`], [full]);
  });
  const run: RunResult = {
    ...runOf(tests),
    timestamp: Date.now(),
    groups: tests.map((test, n) => ({
      id: `g${n + 1}`,
      fingerprint: test.checkpoints[0].fingerprint!,
      members: [`${test.titlePath.join(' › ')} › full`],
      alsoIn: [],
      status: 'needs_review',
      reason: 'no evaluator configured',
      evaluation: null,
      explanation: null,
    })),
  };
  fs.mkdirSync(outputPath(settings.outputDir, 'results'), { recursive: true });
  fs.writeFileSync(outputPath(settings.outputDir, 'latestResults'), JSON.stringify(run, null, 2));
  return dir;
}

interface Paint {
  /** When the server's answer began: the time spent building the page from the results file. */
  firstByteMs: number;
  firstPaintMs: number;
  images: number;
}

/** First contentful paint of the page in a fresh browser context, and the images asked for before the load event. */
async function load(browser: Browser, url: string): Promise<Paint> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let images = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/image') images++;
  });
  await page.goto(url, { waitUntil: 'load' });
  // The paint entry can come after the load event on a large page: wait for it.
  const firstPaintMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        new PerformanceObserver((list) => {
          const paint = list.getEntriesByName('first-contentful-paint')[0];
          if (paint) resolve(paint.startTime);
        }).observe({ type: 'paint', buffered: true }),
      ),
  );
  const firstByteMs = await page.evaluate(
    () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart,
  );
  await context.close();
  return { firstByteMs, firstPaintMs, images };
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

async function measure(browser: Browser, count: number): Promise<Paint> {
  const dir = await syntheticRun(count);
  const server = await startReviewServer(resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {}), {});
  try {
    await load(browser, server.url);
    const loads: Paint[] = [];
    for (let i = 0; i < LOADS; i++) loads.push(await load(browser, server.url));
    return {
      firstByteMs: median(loads.map((l) => l.firstByteMs)),
      firstPaintMs: median(loads.map((l) => l.firstPaintMs)),
      images: median(loads.map((l) => l.images)),
    };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchReview(): Promise<void> {
  const browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
  try {
    const small = await measure(browser, 30);
    const large = await measure(browser, 300);
    const rows: BenchRow[] = [
      { case: 'review-page-30', engine: 'visual-uat', medianMs: Math.round(small.firstPaintMs) },
      { case: 'review-page-300', engine: 'visual-uat', medianMs: Math.round(large.firstPaintMs) },
    ];
    const lines = [
      `review page, first contentful paint (median of ${LOADS} loads, fresh context each; every checkpoint a change of its own)`,
      `  30 checkpoints:  ${small.firstPaintMs.toFixed(0).padStart(5)} ms (first byte ${small.firstByteMs.toFixed(0)} ms), ${small.images} of ${30 * 3} images requested before load`,
      `  300 checkpoints: ${large.firstPaintMs.toFixed(0).padStart(5)} ms (first byte ${large.firstByteMs.toFixed(0)} ms), ${large.images} of ${300 * 3} images requested before load (${(large.firstPaintMs / small.firstPaintMs).toFixed(2)}× the 30-checkpoint page)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    writeBenchSection('review-page', 'The review page (bench/review.ts)', lines);
    appendBenchJson(rows);
  } finally {
    await browser.close();
  }
}

if (require.main === module) void benchReview();
