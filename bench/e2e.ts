import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT, fixtureEnv, fixtureModules, git, initRepo, playwrightCli, provideModules } from '../scripts/fixture-repo';
import { appendBenchJson, type BenchRow } from './run';

/**
 * End to end on a generated suite (one app, N tests of 3 checkpoints each), measured in one run:
 * plain Playwright `toHaveScreenshot` against recorded snapshots, visual-uat with cached
 * baselines (warm) and visual-uat from nothing (cold). The scale case repeats warm and cold with
 * 100 tests (300 checkpoints) and reads the runner's peak memory, which hosts the reporter.
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

function config(plain: boolean): string {
  const body = `{
    testDir: '${plain ? 'tests-plain' : 'tests-uat'}',
    workers: 2,
    fullyParallel: true,
    retries: 0,
    snapshotPathTemplate: 'snapshots/{arg}{ext}',
    expect: { toHaveScreenshot: { threshold: 0.1 } },
    webServer: { command: 'node server.js', url: \`http://127.0.0.1:\${port}\`, reuseExistingServer: false, env: { PORT: String(port) } },
    use: { baseURL: \`http://127.0.0.1:\${port}\`, viewport: { width: 800, height: 600 } },
    reporter: [['dot']],
  }`;
  const port = 'const port = Number(process.env.DEMO_PORT);';
  // Plain Playwright gets the same browser visual-uat picks (Playwright's own, else the system Chromium).
  const browser = JSON.stringify(path.join(PACKAGE_ROOT, 'dist', 'src', 'config', 'browser.js'));
  return plain
    ? `import { defineConfig } from '@playwright/test';\nimport { applySystemChromium } from ${browser};\n${port}\nexport default defineConfig(applySystemChromium(${body}));\n`
    : `import { defineConfig } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\n${port}\nexport default withVisualUat(defineConfig(${body}), { baseBranch: 'main' });\n`;
}

function specFile(plain: boolean, first: number): string {
  const tests = Array.from({ length: TESTS_PER_FILE }, (_, i) => first + i).map((n) =>
    plain
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
  return `import { ${plain ? 'expect, test' : 'test'} } from '${plain ? '@playwright/test' : 'visual-uat'}';\n\n${tests.join('\n\n')}\n`;
}

/** The suite on main, plain snapshots recorded there, and a feature branch that changes two pages. */
export function generateSuite(tests: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `visual-uat-bench-${tests}-`));
  fs.writeFileSync(path.join(dir, 'server.js'), SERVER);
  fs.writeFileSync(path.join(dir, 'changed.json'), '[]\n');
  fs.writeFileSync(path.join(dir, 'playwright.config.ts'), config(false));
  fs.writeFileSync(path.join(dir, 'plain.config.ts'), config(true));
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules/\ntest-results/\nsnapshots/\n');
  for (const plain of [true, false]) {
    const testDir = path.join(dir, plain ? 'tests-plain' : 'tests-uat');
    fs.mkdirSync(testDir);
    for (let first = 0; first < tests; first += TESTS_PER_FILE) fs.writeFileSync(path.join(testDir, `pages-${first}.spec.ts`), specFile(plain, first));
  }
  provideModules(dir, fixtureModules());
  initRepo(dir, 'Generated suite');
  return dir;
}

interface Measured {
  ms: number;
  peakRssMb: number;
}

/** Peak resident memory of the runner process (it hosts the reporters), read from /proc while it runs. */
function run(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Measured> {
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
      // Plain runs fail on the two changed pages, as a snapshot suite does; anything else is a broken bench.
      const expectedFailures = args.includes('plain.config.ts') && !args.includes('--update-snapshots') ? /\b2 failed\b/.test(output) : false;
      if (code !== 0 && !expectedFailures) reject(new Error(`playwright test ${args.join(' ')} exited ${code}:\n${output.slice(-2000)}`));
      else resolve({ ms: performance.now() - started, peakRssMb: Math.round(peakKb / 1024) });
    });
  });
}

function median(values: Measured[]): Measured {
  const sorted = [...values].sort((a, b) => a.ms - b.ms);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Would overlapping the baseline pass with the current run pay? Both are browser runs of the same
 * suite, so two plain runs stand in for them: one after the other, then both at once.
 */
async function overlap(dir: string): Promise<{ sequential: number; concurrent: number }> {
  const plainRun = (output: string) => run(dir, ['-c', 'plain.config.ts', '--output', output]);
  let started = performance.now();
  await plainRun('out-a');
  await plainRun('out-b');
  const sequential = performance.now() - started;
  started = performance.now();
  await Promise.all([plainRun('out-a'), plainRun('out-b')]);
  return { sequential, concurrent: performance.now() - started };
}

type Measures = Record<'plain' | 'warm' | 'cold', Measured> & { overlap: { sequential: number; concurrent: number } | null };

async function measure(tests: number, runs: number): Promise<Measures> {
  const dir = generateSuite(tests);
  await run(dir, ['-c', 'plain.config.ts', '--update-snapshots']);
  const recorded = fs.existsSync(path.join(dir, 'snapshots')) ? fs.readdirSync(path.join(dir, 'snapshots')).length : 0;
  if (recorded !== tests * 3) throw new Error(`plain Playwright recorded ${recorded} snapshots instead of ${tests * 3}: see ${dir}`);
  // On main every snapshot matches: no failure timeouts, which would overlap for free.
  const overlapped = runs > 1 ? await overlap(dir) : null;
  git(dir, ['checkout', '-q', '-b', 'feature']);
  fs.writeFileSync(path.join(dir, 'changed.json'), '[1, 3]\n');
  git(dir, ['commit', '-q', '-am', 'Banner on pages 1 and 3']);
  const plain: Measured[] = [];
  const warm: Measured[] = [];
  const cold: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push(await run(dir, ['-c', 'plain.config.ts']));
    fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
    cold.push(await run(dir, []));
    warm.push(await run(dir, []));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { plain: median(plain), warm: median(warm), cold: median(cold), overlap: overlapped };
}

export async function benchEndToEnd(): Promise<void> {
  const rows: BenchRow[] = [];
  const lines = [`end to end on ${os.cpus().length} cores (median of ${RUNS} runs; ratio to plain toHaveScreenshot in this run)`];
  // BENCH_E2E_SIZES=20 measures only the small suite (a quicker check while working on speed).
  const sizes = (process.env.BENCH_E2E_SIZES ?? '20,100').split(',').map(Number);
  for (const tests of sizes) {
    const result = await measure(tests, tests === 20 ? RUNS : 1);
    const checkpoints = tests * 3;
    for (const kind of ['plain', 'warm', 'cold'] as const) {
      const { ms, peakRssMb } = result[kind];
      const suffix = tests === 20 ? '' : `-${checkpoints}`;
      rows.push({ case: `e2e-${kind}${suffix}`, engine: kind === 'plain' ? 'playwright' : 'visual-uat', medianMs: Math.round(ms) });
      lines.push(
        `  ${`${tests} tests, ${checkpoints} checkpoints, ${kind}`.padEnd(38)}${(ms / 1000).toFixed(1).padStart(7)} s  ${(ms / result.plain.ms).toFixed(2)}×  ${(ms / checkpoints).toFixed(0).padStart(4)} ms/checkpoint  runner peak RSS ${peakRssMb} MB`,
      );
    }
    if (result.overlap) {
      const { sequential, concurrent } = result.overlap;
      rows.push({ case: 'e2e-overlap-sequential', engine: 'playwright', medianMs: Math.round(sequential) });
      rows.push({ case: 'e2e-overlap-concurrent', engine: 'playwright', medianMs: Math.round(concurrent) });
      lines.push(`  two runs of the ${tests}-test suite: one after the other ${(sequential / 1000).toFixed(1)} s, at once ${(concurrent / 1000).toFixed(1)} s (${(concurrent / sequential).toFixed(2)}×)`);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  appendBenchJson(rows);
}

if (require.main === module) void benchEndToEnd();
