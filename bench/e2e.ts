import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT, fixtureEnv, fixtureModules, git, initRepo, playwrightCli, provideModules } from '../scripts/fixture-repo';
import { reply, startFakeOpenAI } from '../tests/support/fake-openai';
import { ENV } from '../src/config/environment';
import { plural } from '../src/util/text';
import { writeBenchSection } from './results-file';
import { appendBenchJson, type BenchRow } from './run';

/**
 * End to end on a generated suite (one app, N tests of 3 checkpoints each), measured in one run:
 * plain Playwright `toHaveScreenshot` against recorded snapshots, visual-uat with cached
 * baselines (warm) and visual-uat from nothing (cold). The scale case repeats warm and cold with
 * 100 tests (300 checkpoints) and reads the runner's peak memory, which hosts the reporter. The
 * sparse case is a suite as most are: 1 test in 5 takes checkpoints, the other 4 in its file are
 * functional tests written with visual-uat's `test`, which they never use for a checkpoint. The
 * small case is a developer's inner loop: 3 tests, 4 checkpoints, 3 of them changed on the branch,
 * where what a run costs is mostly fixed cost; its warm and cold runs print VISUAL_UAT_DEBUG=timing's
 * breakdown beside their ratios.
 */

const TESTS_PER_FILE = 5;
const RUNS = 3;

const SERVER = `const http = require('node:http');
const page = (n, extra) => \`<!doctype html><html><head><title>Page \${n}</title><style>
body{font-family:sans-serif;margin:0}header{background:#123;color:#fff;padding:16px}
.card{margin:24px;padding:16px;border:1px solid #ccc;border-radius:8px;width:480px}
.row{height:120px;margin:16px 24px;background:hsl(\${n * 37 % 360},60%,85%)}</style></head>
<body><header><h1>Page \${n}</h1></header>\${extra}<div class="card"><h2>Card \${n}</h2>
<p>Some text for page \${n}, long enough to wrap over a couple of lines in the card.</p></div>
\${Array.from({ length: 8 }, (_, i) => \`<div class="row">row \${i}</div>\`).join('')}</body></html>\`;
const changed = JSON.parse(require('node:fs').readFileSync(__dirname + '/changed.json', 'utf8'));
http.createServer((req, res) => {
  const n = Number(req.url.split('/').pop()) || 0;
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page(n, changed.includes(n) ? '<p style="padding:24px;background:#fe8">New banner</p>' : ''));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/**
 * A benchmark suite's config, the same for plain Playwright (on the browser visual-uat picks:
 * Playwright's own, else the system Chromium) and for visual-uat. `webServer` and `use` are
 * source text that may read `port`, the run's DEMO_PORT.
 */
export function benchConfig(plain: boolean, testDir: string, webServer: string, use: string): string {
  const body = `{
    testDir: '${testDir}',
    workers: 2,
    fullyParallel: true,
    retries: 0,
    snapshotPathTemplate: 'snapshots/{arg}{ext}',
    expect: { toHaveScreenshot: { threshold: 0.1 } },
    webServer: ${webServer},
    use: ${use},
    reporter: [['dot']],
  }`;
  const port = 'const port = Number(process.env.DEMO_PORT);';
  const browser = JSON.stringify(path.join(PACKAGE_ROOT, 'dist', 'src', 'config', 'browser.js'));
  return plain
    ? `import { defineConfig } from '@playwright/test';\nimport { applySystemChromium } from ${browser};\n${port}\nexport default defineConfig(applySystemChromium(${body}));\n`
    : `import { defineConfig } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\n${port}\nexport default withVisualUat(defineConfig(${body}), { baseBranch: 'main' });\n`;
}

function config(plain: boolean): string {
  return benchConfig(
    plain,
    plain ? 'tests-plain' : 'tests-uat',
    "{ command: 'node server.js', url: `http://127.0.0.1:${port}`, reuseExistingServer: false, env: { PORT: String(port) } }",
    '{ baseURL: `http://127.0.0.1:${port}`, viewport: { width: 800, height: 600 } }',
  );
}

/** A functional test: navigation and assertions, no screenshot. */
function functionalTest(n: number): string {
  return `test('flow ${n}', async ({ page }) => {
  await page.goto('/page/${n}');
  await expect(page.locator('h1')).toHaveText('Page ${n}');
  await expect(page.locator('.card h2')).toHaveText('Card ${n}');
  await expect(page.locator('.row')).toHaveCount(8);
});`;
}

function specFile(plain: boolean, first: number, sparse: boolean): string {
  const tests = Array.from({ length: TESTS_PER_FILE }, (_, i) => first + i).map((n) =>
    sparse && n % 5 !== 0
      ? functionalTest(n)
      : plain
      ? `test('page ${n}', async ({ page }) => {
  await page.goto('/page/${n}');
  await expect(page).toHaveScreenshot('${n}-top.png');
  await expect(page.locator('.card')).toHaveScreenshot('${n}-card.png');
  await expect(page).toHaveScreenshot('${n}-full.png', { fullPage: true });
});`
      : `test('page ${n}', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/page/${n}');
  await screenshotCheckpoint('top', { fullPage: false });
  await screenshotCheckpoint('card', { locator: page.locator('.card') });
  await screenshotCheckpoint('full');
});`,
  );
  // In the sparse suite the functional tests share their files, and visual-uat's `test`, with a visual one.
  return `import { expect, test } from '${plain ? '@playwright/test' : 'visual-uat'}';\n\n${tests.join('\n\n')}\n`;
}

/** A generated suite on main: the server, both configs, and each side's spec files (name → text). */
function suiteRepo(name: string, specs: (plain: boolean) => Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-bench-${name}-`));
  fs.writeFileSync(path.join(dir, 'server.js'), SERVER);
  fs.writeFileSync(path.join(dir, 'changed.json'), '[]\n');
  fs.writeFileSync(path.join(dir, 'playwright.config.ts'), config(false));
  fs.writeFileSync(path.join(dir, 'plain.config.ts'), config(true));
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ntest-results/\nsnapshots/\n');
  for (const plain of [true, false]) {
    const testDir = path.join(dir, plain ? 'tests-plain' : 'tests-uat');
    fs.mkdirSync(testDir);
    for (const [file, text] of Object.entries(specs(plain))) fs.writeFileSync(path.join(testDir, file), text);
  }
  provideModules(dir, fixtureModules());
  initRepo(dir, `Generated suite (${name})`);
  return dir;
}

/** The suite on main, plain snapshots recorded there, and a feature branch that changes two pages. */
export function generateSuite(tests: number, sparse = false): string {
  return suiteRepo(`${tests}${sparse ? '-sparse' : ''}`, (plain) => {
    const files: Record<string, string> = {};
    for (let first = 0; first < tests; first += TESTS_PER_FILE) files[`pages-${first}.spec.ts`] = specFile(plain, first, sparse);
    return files;
  });
}

export interface Measured {
  ms: number;
  peakRssMb: number;
  /** What the run printed, stdout and stderr. */
  output: string;
}

/**
 * One `playwright test` run, timed, with the peak resident memory of the runner process (it hosts
 * the reporters) read from /proc while it runs. A plain run on the feature branch fails on the
 * changed screenshots, as a snapshot suite does: `expectedFailures` says how many.
 */
export function run(dir: string, args: string[], env: NodeJS.ProcessEnv = {}, expectedFailures = 0): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, [playwrightCli(dir), 'test', ...args], { cwd: dir, env: fixtureEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process has just exited.
    }
  }, 100);
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      clearInterval(sample);
      const failedAsExpected = expectedFailures > 0 && new RegExp(`\\b${expectedFailures} failed\\b`).test(output);
      if (code !== 0 && !failedAsExpected) reject(new Error(`playwright test ${args.join(' ')} exited ${code}:\n${output.slice(-2000)}`));
      else resolve({ ms: performance.now() - started, peakRssMb: Math.round(peakKb / 1024), output });
    });
  });
}

export function median(values: Measured[]): Measured {
  const sorted = [...values].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Plain, warm and cold; `overlap` is cold with the baseline pass beside the current tests
 * (VISUAL_UAT_OVERLAP=1); `edit` is a warm run after a code edit to one test of a spec (it renders on
 * the base, the others come from the store), `editFile` after one to the code its 5 tests share (they
 * render on the base); `store` is a pull request's first run with
 * the store main recorded (no `.visual-uat`, a store folder restored from main's run).
 */
type Kind = 'plain' | 'warm' | 'cold' | 'overlap' | 'edit' | 'editFile' | 'store';
type Measures = Partial<Record<Kind, Measured>> & Record<'plain' | 'warm' | 'cold', Measured>;

/** The pages whose tests take checkpoints: all of them, or 1 in 5 in the sparse suite. */
function visualTests(tests: number, sparse: boolean): number[] {
  return Array.from({ length: tests }, (_, n) => n).filter((n) => !sparse || n % 5 === 0);
}

/**
 * Code edits to a spec, new in each round (the store keeps earlier versions of a test), never a
 * comment (comments render nothing again): `test`, a line in its first test's body (in this
 * fullyParallel suite only that test renders on the base); `file`, a line above its tests (all of
 * its tests render on the base).
 */
function editSpec(file: string, round: number, where: 'test' | 'file'): void {
  const before = fs.readFileSync(file, 'utf8');
  const after =
    where === 'test'
      ? before.replace(/(test\('page \d+', async \(\{ page, screenshotCheckpoint \}\) => \{\n)/, `$1  test.setTimeout(${30_000 + round});\n`)
      : before.replace(/(\n\ntest\()/, `\n\ntest.describe.configure({ timeout: ${30_000 + round} });$1`);
  if (after === before) throw new Error(`the bench's edit found nothing to edit in ${file}`);
  fs.writeFileSync(file, after);
}

async function measure(tests: number, runs: number, sparse = false, withOverlap = false): Promise<Measures> {
  const dir = generateSuite(tests, sparse);
  await run(dir, ['-c', 'plain.config.ts', '--update-snapshots']);
  // main's CI: HEAD is the base, so the run records its checkpoints into the store.
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-bench-store-'));
  if (withOverlap) await run(dir, [], ENV.baselineStore.entry(store));
  const visual = visualTests(tests, sparse);
  const recorded = fs.existsSync(path.join(dir, 'snapshots')) ? fs.readdirSync(path.join(dir, 'snapshots')).length : 0;
  if (recorded !== visual.length * 3) throw new Error(`plain Playwright recorded ${recorded} snapshots instead of ${visual.length * 3}: see ${dir}`);
  git(dir, ['checkout', '-q', '-b', 'feature']);
  const changed = [visual[1], visual[3]];
  fs.writeFileSync(path.join(dir, 'changed.json'), `${JSON.stringify(changed)}\n`);
  git(dir, ['commit', '-q', '-am', `Banner on pages ${changed.join(' and ')}`]);
  const plain: Measured[] = [];
  const warm: Measured[] = [];
  const cold: Measured[] = [];
  const overlap: Measured[] = [];
  const edit: Measured[] = [];
  const editFile: Measured[] = [];
  const fromStore: Measured[] = [];
  const edited = path.join(dir, 'tests-uat', 'pages-0.spec.ts');
  // Plain fails on the two changed pages, as a snapshot suite does, and visual-uat's gate (failOn needs_review) the same tests.
  const failing = changed.length;
  for (let i = 0; i < runs; i++) {
    plain.push(await run(dir, ['-c', 'plain.config.ts'], {}, failing));
    fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
    cold.push(await run(dir, [], ENV.overlap.entry('0'), failing));
    warm.push(await run(dir, [], {}, failing));
    if (!withOverlap) continue;
    editSpec(edited, i, 'test');
    edit.push(await run(dir, [], {}, failing));
    git(dir, ['checkout', '-q', '--', edited]);
    editSpec(edited, i, 'file');
    editFile.push(await run(dir, [], {}, failing));
    git(dir, ['checkout', '-q', '--', edited]);
    fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
    fromStore.push(await run(dir, [], ENV.baselineStore.entry(store), failing));
    fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
    overlap.push(await run(dir, [], ENV.overlap.entry('1'), failing));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(store, { recursive: true, force: true });
  const more = withOverlap ? { overlap: median(overlap), edit: median(edit), editFile: median(editFile), store: median(fromStore) } : {};
  return { plain: median(plain), warm: median(warm), cold: median(cold), ...more };
}

/** The small suite's pages and checkpoints: page 0 takes two (its card does not change), pages 1 and 2 one each. */
const SMALL_CHECKPOINTS: { page: number; checkpoints: string[] }[] = [
  { page: 0, checkpoints: ['top', 'card'] },
  { page: 1, checkpoints: ['full'] },
  { page: 2, checkpoints: ['full'] },
];
const SMALL_CHANGED_PAGES = [0, 1, 2];

function smallSpec(plain: boolean): string {
  const calls: Record<string, (n: number) => string> = plain
    ? {
        top: (n) => `await expect(page).toHaveScreenshot('${n}-top.png');`,
        card: (n) => `await expect(page.locator('.card')).toHaveScreenshot('${n}-card.png');`,
        full: (n) => `await expect(page).toHaveScreenshot('${n}-full.png', { fullPage: true });`,
      }
    : {
        top: () => `await screenshotCheckpoint('top', { fullPage: false });`,
        card: () => `await screenshotCheckpoint('card', { locator: page.locator('.card') });`,
        full: () => `await screenshotCheckpoint('full');`,
      };
  const tests = SMALL_CHECKPOINTS.map(
    ({ page, checkpoints }) =>
      `test('page ${page}', async ({ page${plain ? '' : ', screenshotCheckpoint'} }) => {\n  await page.goto('/page/${page}');\n${checkpoints.map((name) => `  ${calls[name](page)}`).join('\n')}\n});`,
  );
  return `import { expect, test } from '${plain ? '@playwright/test' : 'visual-uat'}';\n\n${tests.join('\n\n')}\n`;
}


const SMALL_CHECKPOINT_COUNT = SMALL_CHECKPOINTS.reduce((sum, { checkpoints }) => sum + checkpoints.length, 0);

interface SmallMeasures {
  plain: Measured;
  warm: Measured;
  cold: Measured;
  /** The breakdown of one more warm and cold run each, under VISUAL_UAT_DEBUG=timing. */
  warmTiming: string;
  coldTiming: string;
}

/** The timing block a run printed (see config/timing). */
function timingBlock(output: string): string {
  const start = output.indexOf('visual-uat timing');
  if (start < 0) return '(no timing block in the output)';
  const lines = output.slice(start).split('\n');
  const end = lines.findIndex((line, i) => i > 0 && !line.startsWith('  ') && !/:$/.test(line));
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

async function measureSmall(runs: number): Promise<SmallMeasures> {
  // On main; the feature branch below changes 3 of its 4 checkpoints.
  const dir = suiteRepo('small', (plain) => ({ 'pages.spec.ts': smallSpec(plain) }));
  await run(dir, ['-c', 'plain.config.ts', '--update-snapshots']);
  git(dir, ['checkout', '-q', '-b', 'feature']);
  fs.writeFileSync(path.join(dir, 'changed.json'), `${JSON.stringify(SMALL_CHANGED_PAGES)}\n`);
  git(dir, ['commit', '-q', '-am', 'Banner on the small suite\'s pages']);
  const plain: Measured[] = [];
  const warm: Measured[] = [];
  const cold: Measured[] = [];
  // Each test has a changed checkpoint: plain fails them, and so does visual-uat's gate (failOn needs_review).
  const failing = SMALL_CHECKPOINTS.length;
  const cleared = () => fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
  try {
    for (let i = 0; i < runs; i++) {
      plain.push(await run(dir, ['-c', 'plain.config.ts'], {}, failing));
      cleared();
      cold.push(await run(dir, [], ENV.overlap.entry('0'), failing));
      warm.push(await run(dir, [], {}, failing));
    }
    const debug = ENV.debug.entry('timing');
    const warmTiming = timingBlock((await run(dir, [], debug, failing)).output);
    cleared();
    const coldTiming = timingBlock((await run(dir, [], { ...debug, ...ENV.overlap.entry('0') }, failing)).output);
    return { plain: median(plain), warm: median(warm), cold: median(cold), warmTiming, coldTiming };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The groups case: 40 pages under one site header, whose navigation changes colour on every page;
 * page 7 also gets a banner and page 23 a restyled card. Three changes: three groups, three
 * evaluator calls (a local OpenAI-compatible server answers), where judging each changed
 * checkpoint would take 40. A second run with the same changes is answered from the cache.
 */
const GROUPS_SERVER = `const http = require('node:http');
const changes = JSON.parse(require('node:fs').readFileSync(__dirname + '/changed.json', 'utf8'));
const page = (n) => \`<!doctype html><html><head><title>Page \${n}</title><style>
body{font-family:sans-serif;margin:0}nav{display:flex;gap:24px;padding:14px 24px;background:#123}
nav a{color:\${changes.nav ? '#ffd166' : '#fff'};text-decoration:none}main{padding:8px 24px}
.card{margin:16px 0;padding:16px;border:1px solid #ccc;border-radius:8px;width:480px;background:\${changes.card.includes(n) ? '#c6dbff' : '#fff'}}
.row{height:90px;margin:12px 0;background:hsl(\${n * 37 % 360},60%,88%)}</style></head>
<body><nav><a href="/">Acme</a><a href="/docs">Docs</a><a href="/pricing">Pricing</a><a href="/blog">Blog</a></nav>
\${changes.banner.includes(n) ? '<p style="margin:0;padding:28px 24px;background:#fe8;font-size:22px">Spring sale: 20% off every plan</p>' : ''}
<main><h1>Page \${n}</h1><div class="card"><h2>Card \${n}</h2><p>Some text for page \${n}, long enough to wrap over a couple of lines in the card.</p></div>
\${Array.from({ length: 3 + (n % 4) }, (_, i) => \`<div class="row">row \${i}</div>\`).join('')}</main></body></html>\`;
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page(Number(req.url.split('/').pop()) || 0));
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

const GROUPS_PAGES = 40;

function groupsSuite(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-bench-groups-'));
  fs.writeFileSync(path.join(dir, 'server.js'), GROUPS_SERVER);
  fs.writeFileSync(path.join(dir, 'changed.json'), `${JSON.stringify({ nav: false, banner: [], card: [] })}\n`);
  fs.writeFileSync(path.join(dir, 'playwright.config.ts'), config(false));
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ntest-results/\n');
  fs.mkdirSync(path.join(dir, 'tests-uat'));
  const tests = Array.from({ length: GROUPS_PAGES }, (_, n) => `test('page ${n}', async ({ page, screenshotCheckpoint }) => {\n  await page.goto('/page/${n}');\n  await screenshotCheckpoint('page');\n});`);
  fs.writeFileSync(path.join(dir, 'tests-uat', 'pages.spec.ts'), `import { test } from 'visual-uat';\n\n${tests.join('\n\n')}\n`);
  provideModules(dir, fixtureModules(undefined, undefined, ['openai']));
  initRepo(dir, 'Generated site');
  git(dir, ['checkout', '-q', '-b', 'feature']);
  fs.writeFileSync(path.join(dir, 'changed.json'), `${JSON.stringify({ nav: true, banner: [7], card: [23] })}\n`);
  git(dir, ['commit', '-q', '-am', 'Navigation in amber; a sale banner on page 7; a tinted card on page 23']);
  return dir;
}

interface GroupsFigures {
  changed: number;
  groups: number;
  calls: number;
  cachedCalls: number;
  ms: number;
}

async function measureGroups(): Promise<GroupsFigures> {
  const dir = groupsSuite();
  const server = await startFakeOpenAI({ responder: () => reply.verdict() });
  try {
    const env = { OPENAI_API_KEY: 'sk-bench-groups', OPENAI_BASE_URL: server.baseURL };
    const first = await run(dir, [], env);
    const results = JSON.parse(fs.readFileSync(path.join(dir, '.visual-uat', 'results', 'latest.json'), 'utf8'));
    const calls = server.completions().length;
    await run(dir, [], env);
    const changed = results.tests.filter((test: { checkpoints: { diffImage: string | null }[] }) => test.checkpoints[0].diffImage).length;
    return { changed, groups: results.groups.length, calls, cachedCalls: server.completions().length - calls, ms: first.ms };
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEndToEnd(): Promise<void> {
  const rows: BenchRow[] = [];
  const lines = [`end to end on ${os.cpus().length} cores (median of ${RUNS} runs; ratio to plain toHaveScreenshot in this run)`];
  // BENCH_E2E_SMALL=0 leaves out the small suite; BENCH_E2E_SMALL=only measures it alone (a quick check of the fixed costs).
  if (process.env.BENCH_E2E_SMALL !== '0') {
    const small = await measureSmall(RUNS);
    for (const kind of ['plain', 'warm', 'cold'] as const) {
      const { ms } = small[kind];
      rows.push({ case: `e2e-${kind}-small`, engine: kind === 'plain' ? 'playwright' : 'visual-uat', medianMs: Math.round(ms) });
      lines.push(`  ${`${SMALL_CHECKPOINTS.length} tests, ${SMALL_CHECKPOINT_COUNT} checkpoints (3 changed), ${kind}`.padEnd(52)}${(ms / 1000).toFixed(1).padStart(7)} s  ${(ms / small.plain.ms).toFixed(2)}×`);
    }
    lines.push(small.warmTiming.replace(/^visual-uat timing/, '  small suite, warm: visual-uat timing'), small.coldTiming.replace(/^visual-uat timing/, '  small suite, cold: visual-uat timing'));
    if (process.env.BENCH_E2E_SMALL === 'only') {
      process.stdout.write(`${lines.join('\n')}\n`);
      appendBenchJson(rows);
      return;
    }
  }
  // BENCH_E2E_SIZES=20 measures only the small suite (a quicker check while working on speed).
  const sizes = (process.env.BENCH_E2E_SIZES ?? '20,100').split(',').filter(Boolean).map(Number);
  // BENCH_E2E_SPARSE=0 leaves out the sparse suite.
  const suites = [...sizes.map((tests) => ({ tests, sparse: false })), ...(process.env.BENCH_E2E_SPARSE === '0' ? [] : [{ tests: 25, sparse: true }])];
  for (const { tests, sparse } of suites) {
    const result = await measure(tests, tests === 20 || sparse ? RUNS : 1, sparse, tests === 20 && !sparse);
    const checkpoints = visualTests(tests, sparse).length * 3;
    for (const kind of ['plain', 'warm', 'cold', 'overlap', 'edit', 'editFile', 'store'] as const) {
      if (!result[kind]) continue;
      const { ms, peakRssMb } = result[kind]!;
      const name = sparse ? `e2e-${kind === 'plain' ? 'plain' : kind}-sparse` : `e2e-${kind}${tests === 20 ? '' : `-${checkpoints}`}`;
      rows.push({ case: name, engine: kind === 'plain' ? 'playwright' : 'visual-uat', medianMs: Math.round(ms) });
      // The edit cases are the dev loop: one spec of the suite's 4 files edited since the warm run.
      const edited = kind === 'edit' ? ' (dev loop: one test of 1 of 4 specs edited)' : kind === 'editFile' ? ' (the code all 5 tests of a spec share)' : '';
      const what = sparse ? `${tests} tests (1 in 5 visual), ${checkpoints} checkpoints, ${kind}` : `${tests} tests, ${checkpoints} checkpoints, ${kind}${edited}`;
      lines.push(
        `  ${what.padEnd(52)}${(ms / 1000).toFixed(1).padStart(7)} s  ${(ms / result.plain.ms).toFixed(2)}×${kind.startsWith('edit') ? ` (${(ms / result.warm.ms).toFixed(2)}× warm)` : ''}  ${(ms / checkpoints).toFixed(0).padStart(4)} ms/checkpoint  runner peak RSS ${peakRssMb} MB`,
      );
    }
  }
  // BENCH_E2E_GROUPS=0 leaves out the groups case.
  if (process.env.BENCH_E2E_GROUPS !== '0') {
    const figures = await measureGroups();
    rows.push({ case: 'e2e-groups', engine: 'visual-uat', medianMs: Math.round(figures.ms) });
    lines.push(
      `  groups: ${GROUPS_PAGES} pages, one header change on all and 2 unrelated changes: ${figures.changed} changed checkpoints, ${plural(figures.groups, 'group')}, ${plural(figures.calls, 'evaluator call')} (${(figures.calls / figures.changed).toFixed(3)} per changed checkpoint; one per checkpoint would be ${figures.changed}); the same run again: ${plural(figures.cachedCalls, 'call')}; ${(figures.ms / 1000).toFixed(1)} s cold`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  // A run without the small suite (a quick look at one case) leaves bench/RESULTS.md to the run that measured it.
  if (process.env.BENCH_E2E_SMALL !== '0') writeBenchSection('end-to-end', 'End to end against plain toHaveScreenshot (bench/e2e.ts)', lines);
  appendBenchJson(rows);
}

if (require.main === module) void benchEndToEnd();
