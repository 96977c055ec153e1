import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFixtureRepo, git } from '../scripts/fixture-repo';
import { benchConfig, median, run, type Measured } from './e2e';
import { writeBenchSection } from './results-file';
import { appendBenchJson, type BenchRow } from './run';

/**
 * Component tests on Playwright's built-in mount() against a story gallery (fixtures/gallery-app:
 * React, a Vite dev server serving gallery.html), measured in one run: plain `toHaveScreenshot`
 * of what mount() returns against snapshots recorded on main, visual-uat with cached baselines
 * (warm) and visual-uat from nothing (cold). The feature branch changes the Button, which two of
 * the twenty tests mount, as the page suite of bench/e2e.ts changes two of its twenty pages.
 */

const RUNS = 3;
/** Story id, props of test n, and what the test waits for before its screenshot. */
const STORIES = [
  { kind: 'button', tests: 2, id: 'components/Button/Primary', props: (n: number) => `{ label: 'Save ${n}' }`, ready: null },
  { kind: 'badge', tests: 9, id: 'components/Badge/Count', props: (n: number) => `{ count: ${n * 137} }`, ready: null },
  { kind: 'profile', tests: 9, id: 'components/Avatar/Profile', props: () => '{}', ready: 'Ada Lovelace' },
];
const CHANGED_TESTS = STORIES[0].tests;
const TESTS = STORIES.reduce((sum, story) => sum + story.tests, 0);

function config(plain: boolean): string {
  return benchConfig(
    plain,
    plain ? 'bench-plain' : 'bench-uat',
    '{ command: `npx vite --host 127.0.0.1 --port ${port} --strictPort`, url: `http://127.0.0.1:${port}/gallery.html`, reuseExistingServer: false }',
    '{ baseURL: `http://127.0.0.1:${port}/gallery.html` }',
  );
}

function specFile(plain: boolean): string {
  const tests = STORIES.flatMap(({ kind, tests: count, id, props, ready }) =>
    Array.from({ length: count }, (_, n) => {
      const wait = ready ? `\n  await expect(story).toContainText('${ready}');` : '';
      const shot = plain ? `await expect(story).toHaveScreenshot('${kind}-${n}.png');` : `await screenshotCheckpoint('story');`;
      return `test('${kind} ${n}', async ({ mount${plain ? '' : ', screenshotCheckpoint'} }) => {
  const story = await mount('${id}', ${props(n)});${wait}
  ${shot}
});`;
    }),
  );
  return `import { expect, test } from '${plain ? '@playwright/test' : 'visual-uat'}';\n\n${tests.join('\n\n')}\n`;
}

/** The gallery library with both suites committed on main and its two feature commits on the branch. */
function gallerySuite(): string {
  return createFixtureRepo({
    fixture: 'gallery-app',
    branch: 'feature/brand-button',
    prepare: (root) => {
      fs.appendFileSync(path.join(root, '.gitignore'), 'snapshots/\n');
      fs.writeFileSync(path.join(root, 'bench.config.ts'), config(false));
      fs.writeFileSync(path.join(root, 'plain.config.ts'), config(true));
      for (const plain of [true, false]) {
        fs.mkdirSync(path.join(root, plain ? 'bench-plain' : 'bench-uat'));
        fs.writeFileSync(path.join(root, plain ? 'bench-plain' : 'bench-uat', 'stories.spec.ts'), specFile(plain));
      }
    },
  });
}

async function measure(): Promise<Record<'plain' | 'warm' | 'cold', Measured>> {
  const dir = gallerySuite();
  git(dir, ['checkout', '-q', 'main']);
  await run(dir, ['-c', 'plain.config.ts', '--update-snapshots']);
  const recorded = fs.readdirSync(path.join(dir, 'snapshots')).length;
  if (recorded !== TESTS) throw new Error(`plain Playwright recorded ${recorded} snapshots instead of ${TESTS}: see ${dir}`);
  git(dir, ['checkout', '-q', 'feature/brand-button']);
  const plain: Measured[] = [];
  const warm: Measured[] = [];
  const cold: Measured[] = [];
  for (let i = 0; i < RUNS; i++) {
    plain.push(await run(dir, ['-c', 'plain.config.ts'], {}, CHANGED_TESTS));
    fs.rmSync(path.join(dir, '.visual-uat'), { recursive: true, force: true });
    cold.push(await run(dir, ['-c', 'bench.config.ts']));
    warm.push(await run(dir, ['-c', 'bench.config.ts']));
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { plain: median(plain), warm: median(warm), cold: median(cold) };
}

export async function benchComponents(): Promise<void> {
  const result = await measure();
  const lines = [
    `story gallery (fixtures/gallery-app, Vite dev server, built-in mount) on ${os.cpus().length} cores: ${TESTS} tests, ${TESTS} story checkpoints, ${CHANGED_TESTS} changed (median of ${RUNS} runs; ratio to plain toHaveScreenshot in this run)`,
  ];
  const rows: BenchRow[] = [];
  for (const kind of ['plain', 'warm', 'cold'] as const) {
    const { ms, peakRssMb } = result[kind];
    rows.push({ case: `gallery-${kind}`, engine: kind === 'plain' ? 'playwright' : 'visual-uat', medianMs: Math.round(ms) });
    lines.push(
      `  ${kind.padEnd(6)}${(ms / 1000).toFixed(1).padStart(7)} s  ${(ms / result.plain.ms).toFixed(2)}×  ${(ms / TESTS).toFixed(0).padStart(4)} ms/story  runner peak RSS ${peakRssMb} MB`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  writeBenchSection('components', 'Component tests: a story gallery (bench/components.ts)', lines);
  appendBenchJson(rows);
}

if (require.main === module) void benchComponents();
