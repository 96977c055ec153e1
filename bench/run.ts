import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { compareInProcess } from '../src/compare/compare';
import { systemChromium } from '../src/config/browser';
import { writeBenchSection } from './results-file';

/**
 * Diff engines end to end, from two PNG files on disk to a result, on real browser screenshots.
 * Prints median milliseconds and the ratio to pixelmatch measured in the same run; with
 * BENCH_JSON=<file>, appends [{ case, size, engine, medianMs }] to that file.
 */

type Engine = (baseline: string, current: string, diffOutput: string) => Promise<unknown>;

interface PageSpec {
  /** Sections on a CSS gradient, which Chromium dithers by absolute position. */
  gradient?: boolean;
  /** Height of a banner inserted under the header; 200.5 moves everything below by half a pixel. */
  banner?: number;
  buttonColour?: string;
  tinted?: boolean;
}

const BASE: PageSpec = {};
const CASES: { name: string; base: PageSpec; current: PageSpec }[] = [
  { name: 'identical', base: BASE, current: BASE },
  { name: 'small-change', base: BASE, current: { buttonColour: '#e0352b' } },
  { name: 'insertion', base: BASE, current: { banner: 200 } },
  { name: 'fractional-shift', base: BASE, current: { banner: 200.5 } },
  { name: 'gradient-insertion', base: { gradient: true }, current: { gradient: true, banner: 200 } },
  { name: 'large-change', base: BASE, current: { tinted: true } },
];
const SIZES = [
  { name: '1280x720', fullPage: false, sections: 4, runs: 9 },
  { name: '1280x6000', fullPage: true, sections: 25, runs: 5 },
];

function html(sections: number, spec: PageSpec): string {
  const background = (i: number) =>
    spec.tinted ? '#eef6ff' : spec.gradient ? `linear-gradient(${i % 2 ? 180 : 90}deg, #f6f9fc, #dde7f7)` : '#fff';
  const rows = Array.from(
    { length: sections },
    (_, i) =>
      `<section style="height:200px;padding:12px;border-bottom:1px solid #ccd;background:${background(i)}"><h2>Section ${i}</h2><p>Paragraph ${i}: the quick brown fox jumps over the lazy dog. ${'Lorem ipsum dolor sit amet. '.repeat(3)}</p></section>`,
  ).join('');
  const banner = spec.banner ? `<div style="height:${spec.banner}px;background:#ffd34d;font-size:40px">Spring sale: 20% off</div>` : '';
  return `<html><body style="margin:0;font-family:DejaVu Sans,sans-serif"><header style="height:60px;background:#14213d;color:#fff;font-size:28px;padding:10px">Acme</header>${banner}<button style="margin:16px;padding:12px 24px;background:${spec.buttonColour ?? '#2a6df4'};color:#fff;border:0">Buy now</button>${rows}</body></html>`;
}

async function screenshots(dir: string): Promise<Map<string, { baseline: string; current: string }>> {
  const browser = await chromium.launch({ executablePath: systemChromium() ?? undefined });
  const pairs = new Map<string, { baseline: string; current: string }>();
  try {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      const capture = async (spec: PageSpec, file: string) => {
        await page.setContent(html(size.sections, spec));
        await page.screenshot({ path: file, fullPage: size.fullPage, animations: 'disabled', caret: 'hide' });
        return file;
      };
      for (const { name, base, current } of CASES)
        pairs.set(`${name}@${size.name}`, {
          baseline: await capture(base, path.join(dir, `${size.name}-${name}-base.png`)),
          current: await capture(current, path.join(dir, `${size.name}-${name}.png`)),
        });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return pairs;
}

function decodePadded(file: string, width: number, height: number): Uint8Array {
  const png = PNG.sync.read(fs.readFileSync(file));
  if (png.width === width && png.height === height) return png.data;
  const padded = new Uint8Array(width * height * 4);
  for (let y = 0; y < png.height; y++) padded.set(png.data.subarray(y * png.width * 4, (y + 1) * png.width * 4), y * width * 4);
  return padded;
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(file);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Peers compare equal sizes only: both images are padded to the larger one, as a naive pipeline must. */
function paddedPair(baseline: string, current: string): { a: Uint8Array; b: Uint8Array; width: number; height: number } {
  const s1 = pngSize(baseline);
  const s2 = pngSize(current);
  const width = Math.max(s1.width, s2.width);
  const height = Math.max(s1.height, s2.height);
  return { a: decodePadded(baseline, width, height), b: decodePadded(current, width, height), width, height };
}

const tolerance = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

/** Peers live in bench/peers (installed by `npm run bench`), so the package's own lockfile never carries their binaries. */
const requirePeer = createRequire(path.resolve(__dirname, '..', '..', 'bench', 'peers', 'package.json'));

function engines(): Record<string, Engine | string> {
  const available: Record<string, Engine | string> = {
    'visual-uat': async (baseline, current, diffOutput) => compareInProcess({ baseline, current, diffOutput, tolerance }),
    pixelmatch: async (baseline, current) => {
      const { a, b, width, height } = paddedPair(baseline, current);
      return pixelmatch(a, b, null, width, height, { threshold: 0.1 });
    },
  };
  try {
    const blazediff = requirePeer('@blazediff/core') as {
      diff: (a: Uint8Array, b: Uint8Array, out: null, w: number, h: number, o: object) => number;
    };
    available['@blazediff/core'] = async (baseline, current) => {
      const { a, b, width, height } = paddedPair(baseline, current);
      return blazediff.diff(a, b, null, width, height, { threshold: 0.1 });
    };
  } catch (error) {
    available['@blazediff/core'] = `not loadable (${(error as Error).message.split('\n')[0]})`;
  }
  try {
    const resemble = requirePeer('resemblejs') as (data: Buffer) => {
      compareTo(other: Buffer): { ignoreAntialiasing(): { onComplete(cb: (data: unknown) => void): void } };
    };
    available.resemblejs = (baseline, current) =>
      new Promise((resolve) =>
        resemble(fs.readFileSync(baseline)).compareTo(fs.readFileSync(current)).ignoreAntialiasing().onComplete(resolve),
      );
  } catch (error) {
    available.resemblejs = `not loadable: it needs a native canvas (${(error as Error).message.split('\n')[0]})`;
  }
  try {
    const odiff = requirePeer('odiff-bin') as { compare(a: string, b: string, out: string, options: object): Promise<unknown> };
    available['odiff-bin'] = (baseline, current, diffOutput) =>
      odiff.compare(baseline, current, diffOutput, { threshold: 0.1, antialiasing: true });
  } catch (error) {
    available['odiff-bin'] = `not loadable (${(error as Error).message.split('\n')[0]})`;
  }
  return available;
}

async function median(engine: Engine, baseline: string, current: string, diffOutput: string, runs: number): Promise<number> {
  await engine(baseline, current, diffOutput);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await engine(baseline, current, diffOutput);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export interface BenchRow {
  case: string;
  size?: string;
  engine: string;
  medianMs: number;
}

export function appendBenchJson(rows: BenchRow[]): void {
  const file = process.env.BENCH_JSON;
  if (!file) return;
  const existing: BenchRow[] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  fs.writeFileSync(file, `${JSON.stringify([...existing, ...rows], null, 2)}\n`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-bench-'));
  const pairs = await screenshots(dir);
  const all = engines();
  const rows: BenchRow[] = [];
  const lines: string[] = [
    `diff engines on ${os.cpus().length} cores, Node ${process.version} (median ms; ratio to pixelmatch in this run)`,
  ];
  for (const [name, note] of Object.entries(all)) if (typeof note === 'string') lines.push(`  ${name}: skipped, ${note}`);
  const header = `${'case'.padEnd(30)}${Object.keys(all)
    .filter((n) => typeof all[n] !== 'string')
    .map((n) => n.padStart(20))
    .join('')}`;
  lines.push(header);
  for (const size of SIZES)
    for (const { name: variant } of CASES) {
      const { baseline, current } = pairs.get(`${variant}@${size.name}`)!;
      const measured: Record<string, number> = {};
      for (const [name, engine] of Object.entries(all)) {
        if (typeof engine === 'string') continue;
        measured[name] = await median(engine, baseline, current, path.join(dir, `${name.replace(/\W/g, '_')}-diff.png`), size.runs);
        rows.push({ case: variant, size: size.name, engine: name, medianMs: Math.round(measured[name] * 100) / 100 });
      }
      const reference = measured.pixelmatch;
      const cells = Object.entries(measured).map(([, ms]) => `${ms.toFixed(1)} (${(ms / reference).toFixed(2)}×)`.padStart(20));
      lines.push(`${`${variant} ${size.name}`.padEnd(30)}${cells.join('')}`);
    }
  lines.push('', 'what visual-uat reports (pixelDiffPercent, regions) and the share pixelmatch counts as changed:');
  for (const size of SIZES)
    for (const { name: variant } of CASES) {
      const { baseline, current } = pairs.get(`${variant}@${size.name}`)!;
      const outcome = await compareInProcess({ baseline, current, diffOutput: path.join(dir, 'report-diff.png'), tolerance });
      const { a, b, width, height } = paddedPair(baseline, current);
      const share = (pixelmatch(a, b, null, width, height, { threshold: 0.1 }) / (width * height)) * 100;
      const ours =
        outcome.kind === 'identical'
          ? 'identical'
          : `${outcome.metrics.pixelDiffPercent}%, ${outcome.metrics.changedRegions.map((r) => `${r.kind} ${r.width}×${r.height}@${r.y}`).join(', ')}`;
      lines.push(`  ${`${variant} ${size.name}`.padEnd(28)}visual-uat ${ours}; pixelmatch ${share.toFixed(2)}%`);
    }
  process.stdout.write(`${lines.join('\n')}\n`);
  writeBenchSection('diff-engines', 'Diff engines (bench/run.ts)', lines);
  appendBenchJson(rows);
}

if (require.main === module) void main();
