import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureModules, provideModules } from '../../scripts/fixture-repo';
import { REQUEST_BUDGET_BYTES } from '../../src/evaluate/evaluator';
import { imageUrlsOf, reply, startFakeOpenAI, userTextOf, type FakeOpenAI, type Responder } from '../support/fake-openai';
import { runPlaywrightAsync, type AsyncRun } from '../support/playwright-run';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';
import { filesUnder } from '../support/files';

/**
 * The whole plugin with an evaluator: the demo app at two commits, a real Playwright run, and a
 * local OpenAI-compatible server answering as a model would.
 */

const API_KEY = 'sk-e2e-NEVER-WRITTEN-6f1d2c3b4a';

/** Approves the intended pricing change, rejects the "no visual change intended" refactor. */
const judge: Responder = (request) => {
  const text = userTextOf(request);
  if (text.includes('Checkpoint: plans'))
    return reply.verdict({ pass: true, confidence: 0.92, reason: 'The Pro plan is now highlighted, as intended.' });
  if (text.includes('Checkpoint: contact'))
    return reply.verdict({ pass: false, confidence: 0.9, reason: 'The contact button lost its blue background in a refactor.' });
  return reply.verdict({ pass: true, confidence: 0.5, needsReview: true, reason: 'Unexpected checkpoint.' });
};

test.describe('with an evaluator', () => {
  test.describe.configure({ mode: 'serial' });

  let server: FakeOpenAI;
  let repo: string;
  let run: AsyncRun;

  test.beforeAll(async () => {
    server = await startFakeOpenAI({ responder: judge });
    repo = createFixtureRepo({ fixture: 'demo-app' });
    run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    console.log(`evaluator run: ${run.durationMs} ms, ${server.completions().length} calls`);
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('changed checkpoints are judged; unchanged ones are never sent', async () => {
    // The default failOn is ['regression']: the rejected refactor fails the run.
    expect(run.status, run.stdout + run.stderr).toBe(1);
    const results = readLatest(repo);
    expect(statuses(results)).toEqual({
      'home › landing': 'unchanged',
      'plans › plans': 'changed',
      'plans › header': 'unchanged',
      'about › contact': 'regression',
      'pricing › pricing-header': 'unchanged',
    });
    expect(server.completions()).toHaveLength(2);
    const plans = checkpoint(results, 'plans', 'plans').checkpoint;
    expect(plans.evaluation).toEqual({
      pass: true,
      confidence: 0.92,
      needsReview: false,
      reason: 'The Pro plan is now highlighted, as intended.',
    });
    expect(plans.reason).toBe('The Pro plan is now highlighted, as intended.');
    expect(results.evaluator).toEqual({
      model: 'gpt-4.1-mini',
      calls: 2,
      cacheHits: 0,
      inputTokens: 2400,
      cachedInputTokens: 0,
      outputTokens: 80,
      costUSD: 0.001088,
    });
    expect(run.stdout).toContain('visual-uat: evaluating 2 changed checkpoints with gpt-4.1-mini');
    expect(run.stdout).toMatch(
      /visual-uat: evaluator gpt-4.1-mini: 2 calls, 0 cache hits, 2,400 input tokens \(0 cached\), 80 output tokens, \$0\.0011, \d+\.\d s/,
    );
  });

  test('the model sees the intent, the commits, the change in words and both sides, within the request budget', async () => {
    const plans = server.completions().find((r) => userTextOf(r).includes('Checkpoint: plans'))!;
    const text = userTextOf(plans);
    expect(text).toContain('Test: site.spec.ts › site › pricing › plans\nCheckpoint: plans');
    expect(text).toContain('Pricing shows three plans; the Pro plan is highlighted as the recommended one');
    expect(text).toMatch(/- [0-9a-f]+ Highlight the Pro plan on the pricing page/);
    expect(text).toMatch(/- [0-9a-f]+ Refactor page templates/);
    expect(text).toContain('public/pricing.html');
    // The words say what changed: the two sides go, without the diff image.
    expect(text).toContain('## What changed on the page');
    expect(text).toContain('No diff image: the words above say what changed, the regions where.');
    expect(imageUrlsOf(plans).map((url) => url.slice(0, 23))).toEqual(['data:image/webp;base64,', 'data:image/webp;base64,']);
    expect(Number(plans.headers['content-length'])).toBeLessThanOrEqual(REQUEST_BUDGET_BYTES);
    expect(plans.body.response_format.type).toBe('json_schema');
  });

  test('the HTML report shows the verdicts with reason and confidence', async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'site › pricing › plans' }).click();
    const annotations = page.getByTestId('test-case-annotations');
    await expect(annotations).toContainText('visual-change');
    await expect(annotations).toContainText('plans: The Pro plan is now highlighted, as intended. (confidence 0.92)');
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'site › about' }).click();
    await expect(annotations).toContainText('visual-regression');
    await expect(annotations).toContainText('contact: The contact button lost its blue background in a refactor. (confidence 0.90)');
  });

  test('the API key is in no file the run wrote', async () => {
    const files = ['.visual-uat', 'playwright-report', 'test-results'].flatMap((dir) => filesUnder(path.join(repo, dir)));
    expect(files.filter((f) => f.includes(`${path.sep}transcripts${path.sep}`))).toHaveLength(2);
    for (const file of files) expect(fs.readFileSync(file).includes(API_KEY), file).toBe(false);
  });

  test('a re-run is answered from the cache', async () => {
    const again = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    console.log(`cached re-run: ${again.durationMs} ms`);
    expect(server.completions()).toHaveLength(2);
    expect(readLatest(repo).evaluator).toMatchObject({ calls: 0, cacheHits: 2, inputTokens: 0 });
    expect(statuses(readLatest(repo))).toMatchObject({ 'plans › plans': 'changed', 'about › contact': 'regression' });
  });
});

test.describe('with a server that never answers', () => {
  let server: FakeOpenAI;

  test.beforeAll(async () => {
    server = await startFakeOpenAI({ responder: () => reply.hang() });
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('the run ends, nothing is approved, and the reason says what to do', async () => {
    const repo = createFixtureRepo({ fixture: 'demo-app' });
    const run = await runPlaywrightAsync(repo, ['test'], {
      OPENAI_API_KEY: API_KEY,
      OPENAI_BASE_URL: server.baseURL,
      VISUAL_UAT_EVAL_TIMEOUT_MS: '2000',
    });
    console.log(`hanging-server run (2 s timeout): ${run.durationMs} ms`);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toMatchObject({ 'plans › plans': 'needs_review', 'about › contact': 'needs_review' });
    const plans = checkpoint(results, 'plans', 'plans').checkpoint;
    expect(plans.evaluation).toBeNull();
    expect(plans.reason).toMatch(
      /^not judged: the evaluator did not answer within 2 s \(raise evaluator.timeoutMs or VISUAL_UAT_EVAL_TIMEOUT_MS/,
    );
    expect(results.evaluator.calls).toBe(0);
  });
});

test('a project that configures an evaluator without installing openai is told the one command that adds it', async () => {
  const server = await startFakeOpenAI({ responder: judge });
  try {
    // openai is an optional peer: this project's package.json does not list it, so its install lacks it.
    const withoutOpenAI = (dir: string) => {
      const file = path.join(dir, 'package.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      delete manifest.devDependencies.openai;
      fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    const repo = createFixtureRepo({ fixture: 'demo-app', modules: false, prepare: withoutOpenAI });
    provideModules(repo, fixtureModules(path.join(repo, 'package.json')));
    expect(fs.existsSync(path.join(repo, 'node_modules', 'visual-uat'))).toBe(true);
    expect(fs.existsSync(path.join(repo, 'node_modules', 'openai'))).toBe(false);

    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    // The run's own lines (the table's rows now carry the same words as each change's reason).
    const warnings = (run.stdout + run.stderr).split('\n').filter((line) => line.startsWith('visual-uat: ') && line.includes('openai'));
    expect(warnings).toEqual([
      'visual-uat: a model needs the openai package, which is not installed: npm install -D openai: changed checkpoints are left for review',
    ]);
    const results = readLatest(repo);
    expect(statuses(results)).toMatchObject({
      'plans › plans': 'needs_review',
      'about › contact': 'needs_review',
      'home › landing': 'unchanged',
    });
    // Each change says why nobody judged it, not that no evaluator was configured: one was.
    expect(checkpoint(results, 'plans', 'plans').checkpoint.reason).toBe(
      'not judged: a model needs the openai package, which is not installed: npm install -D openai',
    );
    expect(server.completions()).toHaveLength(0);
  } finally {
    await server.close();
  }
});

test('a project whose app uses openai 4 installs visual-uat as it is (no --legacy-peer-deps) and gets verdicts through it', async () => {
  const server = await startFakeOpenAI({ responder: judge });
  try {
    // As a Nuxt app with a server route on the OpenAI SDK 4 has it: openai is the app's own dependency.
    const onOpenAI4 = (dir: string) => {
      const file = path.join(dir, 'package.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      manifest.devDependencies.openai = '4.104.0';
      fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    const repo = createFixtureRepo({ fixture: 'demo-app', modules: false, prepare: onOpenAI4 });
    // A plain npm install: a peer range that left out 4 stopped it with ERESOLVE.
    provideModules(repo, fixtureModules(path.join(repo, 'package.json')));
    const installed = JSON.parse(fs.readFileSync(path.join(repo, 'node_modules', 'openai', 'package.json'), 'utf8'));
    expect(installed.version).toBe('4.104.0');

    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(statuses(readLatest(repo))).toMatchObject({ 'plans › plans': 'changed', 'about › contact': 'regression' });
    expect(server.completions()).toHaveLength(2);
  } finally {
    await server.close();
  }
});
