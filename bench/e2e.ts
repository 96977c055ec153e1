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
 * End to end on generated suites (one app, tests of 3 checkpoints each), measured in one run
 * against two peers: plain Playwright `toHaveScreenshot` passing (a branch that changed nothing
 * visual: its snapshots are of the same pages; the floor, and the goal of a run where nothing
 * changed) and failing (the feature branch changed pages: those assertions wait out
 * toHaveScreenshot's retries). visual-uat runs warm where nothing changed, and warm (cached
 * baselines) and cold (from nothing) where pages changed. The small suite is a developer's inner
 * loop: 3 tests, 4 checkpoints, 3 of them changed on the feature branch, where what a run costs is
 * mostly fixed cost; it prints VISUAL_UAT_DEBUG=timing's breakdown of its cases beside their
 * ratios. The 20-test suite adds the edit, store and overlap cases; the 100-test suite (300
 * checkpoints) reads the runner's peak memory, which hosts the reporter; the sparse suite is a
 * suite as most are: 1 test in 5 takes checkpoints, the other 4 in its file are functional tests
 * written with visual-uat's `test`, which they never use for a checkpoint. Each suite writes its
 * own section of bench/RESULTS.md.
 *
 * Knobs, to measure one case alone: BENCH_E2E_SUITES=small,20,100,sparse,groups (default all),
 * BENCH_E2E_CASES=quiet,warm,cold,overlap,edit,editFile,store (default each suite's own; the
 * peers always run; a run with it writes nothing to bench/RESULTS.md), BENCH_E2E_RUNS=n (default
 * 3, 1 for the 100-test suite), BENCH_E2E_TIMING=0 (no timing runs). BENCH_E2E_SET=issue51 (`npm
 * run bench:issue51`) measures what issue 51's "Done when" asks, in one run, and writes it to its
 * own section with how long the command took.
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
  const child = spawn(process.execPath, [playwrightCli(dir), 'test', ...args], {
    cwd: dir,
    env: fixtureEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
 * The cases, each on the branch that shows it. The peers: `plainPassing`, plain Playwright on a
 * branch that changed nothing visual (its snapshots are of the same pages: the floor, and the
 * goal of a run where nothing changed) and `plainFailing`, plain on the feature branch (its
 * changed pages fail and wait out toHaveScreenshot's retries). visual-uat's: `quiet`, a warm run
 * on the branch that changed nothing visual; `warm` and `cold` on the feature branch, with cached
 * baselines and from nothing; `overlap` is cold with the baseline pass beside the current tests
 * (VISUAL_UAT_OVERLAP=1); `edit` is a warm run after a code edit to one test of a spec (it renders
 * on the base, the others come from the store), `editFile` after one to the code its 5 tests share
 * (they render on the base); `store` is a pull request's first run with the store main recorded
 * (no `.visual-uat`, a store folder restored from main's run).
 */
const CASES = ['quiet', 'warm', 'cold', 'overlap', 'edit', 'editFile', 'store'] as const;
type Case = (typeof CASES)[number];
type Kind = 'plainPassing' | 'plainFailing' | Case;

/** What each case is, in the bench's lines. */
const CASE_NAMES: Record<Kind, string> = {
  plainPassing: 'plain passing (nothing changed)',
  plainFailing: 'plain failing (pages changed)',
  quiet: 'nothing changed, warm',
  warm: 'pages changed, warm',
  cold: 'pages changed, cold',
  overlap: 'pages changed, cold, overlap',
  edit: 'one test of 1 spec edited, warm',
  editFile: "the code a spec's 5 tests share edited, warm",
  store: "pull request with main's store",
};

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
      ? before.replace(
          /(test\('page \d+', async \(\{ page, screenshotCheckpoint \}\) => \{\n)/,
          `$1  test.setTimeout(${30_000 + round});\n`,
        )
      : before.replace(/(\n\ntest\()/, `\n\ntest.describe.configure({ timeout: ${30_000 + round} });$1`);
  if (after === before) throw new Error(`the bench's edit found nothing to edit in ${file}`);
  fs.writeFileSync(file, after);
}

/** The small suite's pages and checkpoints: page 0 takes two (its card does not change), pages 1 and 2 one each. */
const SMALL_CHECKPOINTS: { page: number; checkpoints: string[] }[] = [
  { page: 0, checkpoints: ['top', 'card'] },
  { page: 1, checkpoints: ['full'] },
  { page: 2, checkpoints: ['full'] },
];

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

/** A generated suite and what the bench does with it. */
interface Suite {
  /** BENCH_E2E_SUITES names it so; its section of bench/RESULTS.md is `end-to-end-<id>`. */
  id: string;
  /** What it is, at the head of its lines. */
  title: string;
  /** Makes its repository, on main, committed. */
  repo: () => string;
  checkpoints: number;
  /** The pages the feature branch changes, and how many tests that fails (plain's, and visual-uat's gate with failOn needs_review). */
  changed: number[];
  failing: number;
  cases: readonly Case[];
  runs: number;
  /** Prints VISUAL_UAT_DEBUG=timing's breakdown of one more run of each of its quiet, warm and cold cases. */
  timing: boolean;
}

function suites(): Suite[] {
  const small = SMALL_CHECKPOINTS.reduce((sum, { checkpoints }) => sum + checkpoints.length, 0);
  const dense = (tests: number): Suite => ({
    id: String(tests),
    title: `${tests} tests, ${tests * 3} checkpoints (2 pages changed)`,
    repo: () => generateSuite(tests),
    checkpoints: visualTests(tests, false).length * 3,
    changed: [1, 3],
    failing: 2,
    cases: tests === 20 ? CASES : ['quiet', 'warm', 'cold'],
    runs: tests === 20 ? RUNS : 1,
    timing: false,
  });
  return [
    {
      id: 'small',
      title: `${SMALL_CHECKPOINTS.length} tests, ${small} checkpoints (a developer's inner loop; 3 changed)`,
      repo: () => suiteRepo('small', (plain) => ({ 'pages.spec.ts': smallSpec(plain) })),
      checkpoints: small,
      changed: SMALL_CHECKPOINTS.map(({ page }) => page),
      failing: SMALL_CHECKPOINTS.length,
      cases: ['quiet', 'warm', 'cold'],
      runs: RUNS,
      timing: true,
    },
    dense(20),
    dense(100),
    {
      id: 'sparse',
      title: '25 tests, 1 in 5 visual, 15 checkpoints (2 pages changed)',
      repo: () => generateSuite(25, true),
      checkpoints: visualTests(25, true).length * 3,
      changed: [5, 15],
      failing: 2,
      cases: ['quiet', 'warm', 'cold'],
      runs: RUNS,
      timing: false,
    },
  ];
}

/** A comma-separated knob's words, or null when it is not set. */
function knob(name: string): string[] | null {
  const value = process.env[name];
  return value === undefined
    ? null
    : value
        .split(',')
        .map((word) => word.trim())
        .filter(Boolean);
}

/** The timing block a run printed (see config/timing). */
function timingBlock(output: string): string {
  const start = output.indexOf('visual-uat timing');
  if (start < 0) return '(no timing block in the output)';
  const lines = output.slice(start).split('\n');
  const end = lines.findIndex((line, i) => i > 0 && !line.startsWith('  ') && !/:$/.test(line));
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

interface SuiteMeasures {
  medians: Partial<Record<Kind, Measured>>;
  /** Case → its VISUAL_UAT_DEBUG=timing block. */
  timings: Partial<Record<Case, string>>;
}

/**
 * One suite's cases, each measured `runs` times, in rounds that alternate each case with its peer
 * (plain failing, then the feature branch's cases; plain passing, then the quiet branch's), so a
 * load that comes and goes weighs on both alike.
 */
async function measureSuite(suite: Suite, cases: readonly Case[], runs: number): Promise<SuiteMeasures> {
  const dir = suite.repo();
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-bench-store-'));
  const measured: Partial<Record<Kind, Measured[]>> = {};
  const timings: Partial<Record<Case, string>> = {};
  const cleared = () => fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
  const edited = path.join(dir, 'tests-uat', 'pages-0.spec.ts');
  const measure = async (kind: Kind, env: NodeJS.ProcessEnv, failing: number, prepare?: () => void, after?: () => void) => {
    prepare?.();
    (measured[kind] ??= []).push(await run(dir, kind.startsWith('plain') ? ['-c', 'plain.config.ts'] : [], env, failing));
    after?.();
  };
  try {
    await run(dir, ['-c', 'plain.config.ts', '--update-snapshots']);
    const recorded = fs.existsSync(path.join(dir, 'snapshots')) ? fs.readdirSync(path.join(dir, 'snapshots')).length : 0;
    if (recorded !== suite.checkpoints)
      throw new Error(`plain Playwright recorded ${recorded} snapshots instead of ${suite.checkpoints}: see ${dir}`);
    // main's CI: HEAD is the base, so the run records its checkpoints into the store.
    if (cases.includes('store')) await run(dir, [], ENV.baselineStore.entry(store));
    git(dir, ['checkout', '-q', '-b', 'quiet']);
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'Notes: nothing on the pages changes on this branch.\n');
    git(dir, ['add', 'NOTES.md']);
    git(dir, ['commit', '-q', '-m', 'Notes, no visual change']);
    git(dir, ['checkout', '-q', '-b', 'feature', 'main']);
    fs.writeFileSync(path.join(dir, 'changed.json'), `${JSON.stringify(suite.changed)}\n`);
    git(dir, ['commit', '-q', '-am', `Banner on pages ${suite.changed.join(', ')}`]);
    const onFeature = cases.filter((kind) => kind !== 'quiet');
    // The warm cases need a cache: one run first fills the one both branches share (both branch from main).
    if (cases.length) {
      git(dir, ['checkout', '-q', 'quiet']);
      await run(dir, []);
    }
    const failing = suite.failing;
    for (let round = 0; round < runs; round++) {
      if (onFeature.length) {
        git(dir, ['checkout', '-q', 'feature']);
        await measure('plainFailing', {}, failing);
        if (onFeature.includes('cold')) await measure('cold', ENV.overlap.entry('0'), failing, cleared);
        if (onFeature.includes('warm')) await measure('warm', {}, failing);
        if (onFeature.includes('edit'))
          await measure(
            'edit',
            {},
            failing,
            () => editSpec(edited, round, 'test'),
            () => git(dir, ['checkout', '-q', '--', edited]),
          );
        if (onFeature.includes('editFile'))
          await measure(
            'editFile',
            {},
            failing,
            () => editSpec(edited, round, 'file'),
            () => git(dir, ['checkout', '-q', '--', edited]),
          );
        if (onFeature.includes('store')) await measure('store', ENV.baselineStore.entry(store), failing, cleared);
        if (onFeature.includes('overlap')) await measure('overlap', ENV.overlap.entry('1'), failing, cleared);
      }
      git(dir, ['checkout', '-q', 'quiet']);
      // store and overlap leave the local cache cleared (the store case's baselines came from its
      // own folder): one run unmeasured warms it again, or "nothing changed, warm" would run cold.
      if (cases.includes('quiet') && onFeature.some((kind) => kind === 'store' || kind === 'overlap')) await run(dir, []);
      await measure('plainPassing', {}, 0);
      if (cases.includes('quiet')) await measure('quiet', {}, 0);
    }
    if (suite.timing && process.env.BENCH_E2E_TIMING !== '0') {
      const debug = ENV.debug.entry('timing');
      if (cases.includes('quiet')) timings.quiet = timingBlock((await run(dir, [], debug)).output);
      git(dir, ['checkout', '-q', 'feature']);
      if (cases.includes('warm')) timings.warm = timingBlock((await run(dir, [], debug, failing)).output);
      if (cases.includes('cold')) {
        cleared();
        timings.cold = timingBlock((await run(dir, [], { ...debug, ...ENV.overlap.entry('0') }, failing)).output);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(store, { recursive: true, force: true });
  }
  const medians: Partial<Record<Kind, Measured>> = {};
  for (const [kind, values] of Object.entries(measured)) medians[kind as Kind] = median(values);
  return { medians, timings };
}

/** A suite's lines: each case's median, its ratio to plain passing, and to plain failing where the pages changed. */
function suiteLines(suite: Suite, runs: number, { medians, timings }: SuiteMeasures): { lines: string[]; rows: BenchRow[] } {
  const passing = medians.plainPassing!;
  const failing = medians.plainFailing;
  const lines = [
    `${suite.title} on ${os.cpus().length} cores, median of ${runs} run${runs === 1 ? '' : 's'}, alternated with the peers:`,
    '  × passing: to plain Playwright passing (toHaveScreenshot against snapshots of the same pages: the floor)',
    "  × failing: to plain Playwright failing (the changed pages fail and wait out toHaveScreenshot's retries)",
  ];
  const rows: BenchRow[] = [];
  for (const kind of ['plainPassing', 'plainFailing', ...CASES] as const) {
    const result = medians[kind];
    if (!result) continue;
    const { ms, peakRssMb } = result;
    rows.push({
      case: `e2e-${suite.id}-${kind}`,
      engine: kind.startsWith('plain') ? 'playwright' : 'visual-uat',
      medianMs: Math.round(ms),
    });
    const changed = kind !== 'plainPassing' && kind !== 'quiet';
    const ratios = [
      `${(ms / passing.ms).toFixed(2)}× passing`,
      changed && failing ? `${(ms / failing.ms).toFixed(2)}× failing` : '',
      kind.startsWith('edit') && medians.warm ? `${(ms / medians.warm.ms).toFixed(2)}× warm` : '',
    ]
      .filter(Boolean)
      .join('  ');
    lines.push(
      `  ${CASE_NAMES[kind].padEnd(46)}${(ms / 1000).toFixed(1).padStart(7)} s  ${ratios.padEnd(44)}${(ms / suite.checkpoints).toFixed(0).padStart(5)} ms/checkpoint  runner peak RSS ${peakRssMb} MB`,
    );
  }
  for (const [kind, block] of Object.entries(timings))
    lines.push(block.replace(/^visual-uat timing/, `  ${CASE_NAMES[kind as Case]}: visual-uat timing`));
  return { lines, rows };
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
  const tests = Array.from(
    { length: GROUPS_PAGES },
    (_, n) =>
      `test('page ${n}', async ({ page, screenshotCheckpoint }) => {\n  await page.goto('/page/${n}');\n  await screenshotCheckpoint('page');\n});`,
  );
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

/**
 * Issue 51's "Done when", in one run: on the small suite and the 20-test suite, nothing changed
 * (warm) against plain passing; pages changed, warm against plain failing and cold against plain
 * passing; and on the 20-test suite a pull request's first run with main's store against plain
 * failing (the same branch's pages) and an edit of the code one spec's tests share against warm.
 * The small suite has no store or edit case (one spec file): its cases are quiet, warm and cold.
 */
const ISSUE_51 = { suites: ['small', '20'], cases: ['quiet', 'warm', 'cold', 'store', 'editFile'] };

const loadAverage = () => os.loadavg()[0].toFixed(1);

export async function benchEndToEnd(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadAverage();
  const rows: BenchRow[] = [];
  const output: string[] = [];
  const set = process.env.BENCH_E2E_SET;
  if (set !== undefined && set !== 'issue51') throw new Error(`BENCH_E2E_SET=${set}: the one set is issue51`);
  const issue51 = set === 'issue51';
  // BENCH_E2E_SUITES=small,20,100,sparse,groups picks the suites (default all); BENCH_E2E_CASES=quiet,warm,cold,overlap,edit,editFile,store
  // the visual-uat cases (default each suite's own; the peers they are measured against run with them); BENCH_E2E_RUNS=n the rounds.
  const chosen = issue51 ? ISSUE_51.suites : knob('BENCH_E2E_SUITES');
  const chosenCases = issue51 ? ISSUE_51.cases : knob('BENCH_E2E_CASES');
  const unknown = [
    ...(chosen ?? []).filter((id) => id !== 'groups' && !suites().some((suite) => suite.id === id)),
    ...(chosenCases ?? []).filter((kind) => !(CASES as readonly string[]).includes(kind)),
  ];
  if (unknown.length)
    throw new Error(
      `BENCH_E2E_SUITES or BENCH_E2E_CASES names ${unknown.join(', ')}: the suites are small, 20, 100, sparse, groups; the cases ${CASES.join(', ')}`,
    );
  const runsKnob = process.env.BENCH_E2E_RUNS ? Number(process.env.BENCH_E2E_RUNS) : null;
  for (const suite of suites().filter((candidate) => !chosen || chosen.includes(candidate.id))) {
    const cases = suite.cases.filter((kind) => !chosenCases || chosenCases.includes(kind));
    const runs = runsKnob ?? suite.runs;
    const measured = suiteLines(suite, runs, await measureSuite(suite, cases, runs));
    rows.push(...measured.rows);
    output.push(...measured.lines);
    // A look at some cases (BENCH_E2E_CASES) leaves bench/RESULTS.md to the run that measured them all.
    if (!chosenCases)
      writeBenchSection(
        `end-to-end-${suite.id}`,
        `End to end: ${suite.title}, against plain Playwright passing and failing (bench/e2e.ts)`,
        measured.lines,
      );
  }
  if (issue51) {
    const took = `the command took ${((performance.now() - started) / 60_000).toFixed(1)} min; load average ${loadAtStart} at its start, ${loadAverage()} at its end`;
    output.push(took);
    writeBenchSection('end-to-end-issue-51', `End to end: issue 51's "Done when", in one run (npm run bench:issue51)`, output);
  }
  if (!chosen || chosen.includes('groups')) {
    const figures = await measureGroups();
    rows.push({ case: 'e2e-groups', engine: 'visual-uat', medianMs: Math.round(figures.ms) });
    const line = `groups: ${GROUPS_PAGES} pages, one header change on all and 2 unrelated changes: ${figures.changed} changed checkpoints, ${plural(figures.groups, 'group')}, ${plural(figures.calls, 'evaluator call')} (${(figures.calls / figures.changed).toFixed(3)} per changed checkpoint; one per checkpoint would be ${figures.changed}); the same run again: ${plural(figures.cachedCalls, 'call')}; ${(figures.ms / 1000).toFixed(1)} s cold`;
    output.push(line);
    writeBenchSection('end-to-end-groups', 'End to end: change groups and evaluator calls (bench/e2e.ts)', [line]);
  }
  process.stdout.write(`${output.join('\n')}\n`);
  appendBenchJson(rows);
}

if (require.main === module) void benchEndToEnd();
