import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { fixtureModules, provideModules } from '../../scripts/fixture-repo';
import { readLabels } from '../../src/approve';
import type { EvalRecord } from '../../src/trust';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { runVisualUatAsync, type AsyncRun } from '../support/playwright-run';
import { scriptedLabeller } from '../support/scripted-labeller';

/**
 * `npx visual-uat eval` from the installed package: the corpus it ships, replayed against a local
 * OpenAI-compatible server whose scripted model approves one labelled regression.
 */

const API_KEY = 'sk-eval-e2e-NEVER-WRITTEN-4d2a';

function runCli(work: string, args: string[], env: NodeJS.ProcessEnv): Promise<AsyncRun> {
  return runVisualUatAsync(work, ['eval', ...args], env);
}

test.describe.configure({ mode: 'serial' });

let server: FakeOpenAI;
let work: string;
let installedCorpus: string;
let env: NodeJS.ProcessEnv;

test.beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-eval-'));
  provideModules(work, fixtureModules(undefined, undefined, ['openai']));
  installedCorpus = path.join(work, 'node_modules', 'visual-uat', 'fixtures', 'label-corpus', 'cases');
  const cases = readLabels(installedCorpus).cases.map((loaded) => loaded.case);
  server = await startFakeOpenAI({ responder: scriptedLabeller(cases, { approve: { 'pricing-price-nan': 0.93 } }) });
  env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL };
});

test.afterAll(async () => {
  await server.close();
});

test('--corpus --json: a model that approves one regression is reported as letting exactly one through, exit 1', async () => {
  const run = await runCli(work, ['--corpus', '--json'], env);
  expect(run.status, run.stderr).toBe(1);
  const record = JSON.parse(run.stdout) as EvalRecord;
  expect(record.labels).toEqual({ source: 'corpus', folder: installedCorpus });
  expect(record.model).toBe('gpt-4.1-mini');
  expect(record.figures).toMatchObject({
    cases: 49,
    intended: 25,
    regressions: 24,
    judged: 49,
    agreed: 48,
    agreement: 0.98,
    regressionsRejected: 23,
    regressionsToReview: 0,
    intendedApproved: 25,
    intendedToReview: [],
    notJudged: [],
    unchanged: [],
  });
  expect(record.figures.regressionsApproved).toEqual([
    {
      id: 'pricing-price-nan',
      title: 'pricing › plans',
      status: 'changed',
      confidence: 0.93,
      reason: 'Looks intended (pricing-price-nan).',
    },
  ]);
  expect(record.riskiestApproval).toBe(0.93);
  // 49 calls of 1,200 prompt and 40 completion tokens at gpt-4.1-mini's price.
  expect(record.usage).toEqual({
    model: 'gpt-4.1-mini',
    calls: 49,
    cacheHits: 0,
    inputTokens: 58_800,
    cachedInputTokens: 0,
    outputTokens: 1_960,
    costUSD: 0.026656,
  });
  expect(server.completions()).toHaveLength(49);
  // The record the auto-approve policy reads is what was printed.
  expect(JSON.parse(fs.readFileSync(path.join(work, '.visual-uat', 'eval', 'gpt-4.1-mini.json'), 'utf8'))).toEqual(record);
  expect(run.stderr).toContain('visual-uat: evaluating 49 changed checkpoints with gpt-4.1-mini');
});

test('the table names each figure and the regression let through', async () => {
  const run = await runCli(work, ['--corpus'], env);
  expect(run.status, run.stderr).toBe(1);
  const lines = run.stdout.split('\n');
  expect(lines[0]).toBe(`visual-uat eval: gpt-4.1-mini on 49 labelled cases from the shipped corpus (${installedCorpus})`);
  expect(lines).toContain('  cases                               49 (25 intended, 24 regressions)');
  expect(lines).toContain('  agreement with the humans           48/49 (98.0 %)');
  expect(lines).toContain('  regressions it would have approved  1 of 24');
  expect(lines).toContain('      pricing › plans [pricing-price-nan] (changed, confidence 0.93): Looks intended (pricing-price-nan).');
  expect(lines).toContain('  regressions caught                  23 (23 called regressions, 0 left for review)');
  expect(lines).toContain('  intended changes sent to review     0 of 25');
  expect(lines).toContain('  calls                               49');
  expect(lines).toContain('  tokens                              58,800 input (0 cached), 1,960 output');
  expect(lines).toContain('  cost                                $0.0267');
  expect(lines.find((line) => line.startsWith('  time '))).toMatch(/^ {2}time {32}\d+\.\d s$/);
  expect(lines).toContain(
    '  auto-approve would trust            passes above confidence 0.93 (a labelled regression was approved at 0.93)',
  );
  expect(lines).toContain('record: .visual-uat/eval/gpt-4.1-mini.json');
  expect(run.stdout + run.stderr).not.toContain(API_KEY);
});

test("without --corpus it replays the project's own labels; --model and --labels pick others", async () => {
  const labels = path.join(work, '.visual-uat', 'labels');
  for (const id of ['pricing-pill-buttons', 'footer-missing', 'checkout-apple-pay-covers-pay'])
    fs.cpSync(path.join(installedCorpus, id), path.join(labels, id), { recursive: true });
  const own = await runCli(work, [], env);
  expect(own.status, own.stderr).toBe(0);
  expect(own.stdout).toContain(`visual-uat eval: gpt-4.1-mini on 3 labelled cases from ${labels}`);
  expect(own.stdout).toContain('  agreement with the humans           3/3 (100.0 %)');
  expect(own.stdout).toContain('  auto-approve would trust            any pass (no labelled regression was approved at any confidence)');

  const shared = path.join(work, 'shared-labels');
  fs.cpSync(path.join(installedCorpus, 'pricing-price-nan'), path.join(shared, 'pricing-price-nan'), { recursive: true });
  const other = await runCli(work, ['--labels', 'shared-labels', '--model', 'qwen2.5vl:7b', '--json'], env);
  expect(other.status, other.stderr).toBe(1);
  const record = JSON.parse(other.stdout) as EvalRecord;
  expect(record).toMatchObject({ model: 'qwen2.5vl:7b', labels: { source: 'labels', folder: shared }, priced: false });
  expect(server.completions().at(-1)!.body.model).toBe('qwen2.5vl:7b');
  expect(fs.existsSync(path.join(work, '.visual-uat', 'eval', 'qwen2.5vl%3A7b.json'))).toBe(true);
});

test('without a key, or without cases, it says what to do and exits 2', async () => {
  const noKey = await runCli(work, ['--corpus'], {});
  expect(noKey.status).toBe(2);
  expect(noKey.stderr.trim()).toBe(
    'visual-uat eval: no evaluator configured: set OPENAI_API_KEY (and OPENAI_BASE_URL or --base-url for another endpoint, VISUAL_UAT_MODEL or --model for another model)',
  );
  const noCases = await runCli(work, ['--labels', 'nowhere'], env);
  expect(noCases.status).toBe(2);
  expect(noCases.stderr).toContain(`visual-uat eval: no labelled cases in ${path.join(work, 'nowhere')}: approve or reject changes`);
});
