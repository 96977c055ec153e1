import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabels } from '../../../src/approve';
import { compareImages } from '../../../src/compare';
import { evalExitCode, EvalSetupError, readEvalRecord, runEval, shippedCorpus, trustedVerdict, type EvalRun } from '../../../src/trust';
import { imageUrlsOf, startFakeOpenAI, userTextOf, type FakeOpenAI } from '../../support/fake-openai';
import { scriptedLabeller } from '../../support/scripted-labeller';

/**
 * `runEval` on the shipped corpus against a real local OpenAI-compatible server with scripted
 * answers: the arithmetic is checked against what the script was told to get wrong.
 */

const CORPUS = readLabels(shippedCorpus());
const CASES = CORPUS.cases.map((loaded) => loaded.case);
const TOLERANCE = { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 };

let server: FakeOpenAI;

beforeAll(async () => {
  server = await startFakeOpenAI();
});

afterAll(async () => {
  await server.close();
});

/** A folder of four corpus cases (two of each label), as a project's own labels folder would be. */
function smallLabels(): EvalRun['labels'] {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-labels-'));
  for (const id of ['pricing-pill-buttons', 'footer-missing', 'header-docs-link', 'hero-cta-invisible'])
    fs.cpSync(path.join(shippedCorpus(), id), path.join(folder, id), { recursive: true });
  return { source: 'labels', folder };
}

function run(overrides: Partial<EvalRun> = {}): EvalRun & { lines: string[] } {
  const lines: string[] = [];
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-eval-run-'));
  return {
    outputDir,
    configDir: outputDir,
    labels: { source: 'corpus', folder: shippedCorpus() },
    evaluator: {},
    env: { OPENAI_API_KEY: 'sk-eval-test', OPENAI_BASE_URL: server.baseURL },
    tolerance: TOLERANCE,
    log: (line) => lines.push(line),
    lines,
    ...overrides,
  };
}

describe('the shipped corpus', () => {
  it('has at least 40 readable cases of both labels, each with its intent, commits and changed files', () => {
    expect(CORPUS.problems).toEqual([]);
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.filter((c) => c.label === 'intended').length).toBeGreaterThanOrEqual(20);
    expect(CASES.filter((c) => c.label === 'regression').length).toBeGreaterThanOrEqual(20);
    for (const c of CASES) {
      expect(c.source).toBe('corpus');
      expect(c.intent.test, c.id).toBeTruthy();
      expect(c.change?.commits.length, c.id).toBeGreaterThan(0);
      expect(c.change?.changedFiles.length, c.id).toBeGreaterThan(0);
    }
  });

  it('every pair still differs under the current diff engine', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-corpus-diffs-'));
    const outcomes = await Promise.all(
      CORPUS.cases.map((loaded) =>
        compareImages({ ...loaded.images, diffOutput: path.join(dir, `${loaded.case.id}.png`), tolerance: TOLERANCE }),
      ),
    );
    expect(outcomes.map((o, i) => `${CASES[i].id}: ${o.kind}`).filter((line) => !line.endsWith(': different'))).toEqual([]);
  });
});

describe('runEval', () => {
  it('a model that approves one regression is reported as letting exactly that one through', async () => {
    server.respond(scriptedLabeller(CASES, { approve: { 'pricing-price-nan': 0.93 }, hedge: ['footer-copyright-year'] }));
    const before = server.completions().length;
    const setup = run();
    const { record, file } = await runEval(setup);
    const regressions = CASES.filter((c) => c.label === 'regression').length;

    expect(server.completions().length - before).toBe(CASES.length);
    // The model is asked as a run asks it: the test named by its whole title path, spec file first.
    const tests = server
      .completions()
      .slice(before)
      .map((request) => /\nTest: (.*)\n/.exec(userTextOf(request))?.[1]);
    expect(tests.filter((line) => !/^chromium › [\w-]+\.spec\.ts › /.test(line ?? ''))).toEqual([]);
    expect(record.figures).toMatchObject({
      cases: CASES.length,
      intended: CASES.length - regressions,
      regressions,
      judged: CASES.length,
      agreed: CASES.length - 2,
      regressionsRejected: regressions - 1,
      regressionsToReview: 0,
      intendedApproved: CASES.length - regressions - 1,
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
    expect(record.figures.intendedToReview.map((ref) => [ref.id, ref.status])).toEqual([['footer-copyright-year', 'needs_review']]);
    expect(record.riskiestApproval).toBe(0.93);
    expect(record.usage).toMatchObject({
      model: 'gpt-4.1-mini',
      calls: CASES.length,
      inputTokens: 1200 * CASES.length,
      outputTokens: 40 * CASES.length,
    });
    expect(evalExitCode(record)).toBe(1);

    expect(file).toBe(path.join(setup.outputDir, 'eval', 'gpt-4.1-mini.json'));
    expect(readEvalRecord(setup.outputDir, 'gpt-4.1-mini')).toEqual(record);
    expect(trustedVerdict(record, 'gpt-4.1-mini', 0.93, { minConfidence: 0, requireEval: true })).toMatchObject({ allow: false });
    expect(trustedVerdict(record, 'gpt-4.1-mini', 0.94, { minConfidence: 0, requireEval: true })).toEqual({ allow: true });

    // Each case is sent as a run would send it: intent, commits, today's diff metrics, the change
    // in words and the two sides (no diff image beside the words).
    const nan = server
      .completions()
      .slice(before)
      .find((request) => userTextOf(request).includes('Refactor price formatting into a shared helper'))!;
    const text = userTextOf(nan);
    expect(text).toContain('Test: chromium › pricing');
    expect(text).toContain('Checkpoint: plans');
    expect(text).toContain('Test intent: Pricing shows three plans with their price and a call to action each');
    expect(text).toMatch(/Base: main at [0-9a-f]{10}\. Current: feature\/refactor-price-formatting-into-a-shared at [0-9a-f]{10}\./);
    // Nothing the model sees names the case: its id says what the label is.
    for (const request of server.completions().slice(before))
      expect(userTextOf(request)).not.toMatch(new RegExp(CASES.map((c) => c.id).join('|')));
    expect(text).toMatch(/% of the pixels changed, in 1 region/);
    expect(text).toContain('## What changed on the page');
    expect(imageUrlsOf(nan)).toHaveLength(2);
  });

  it('shows the model each case in the words its run gave it: the explanation stored with the case', async () => {
    server.respond(scriptedLabeller(CASES));
    const before = server.completions().length;
    await runEval(run({ labels: smallLabels() }));
    const texts = server.completions().slice(before).map(userTextOf);
    const pills = CASES.find((c) => c.id === 'pricing-pill-buttons')!;
    expect(pills.explanation?.changes.length).toBeGreaterThan(0);
    const shown = texts.find((text) => text.includes(pills.explanation!.changes[0].words));
    expect(shown).toContain('## What changed on the page');
    expect(shown).toContain('src/styles/pricing.css (commit');
  });

  it('asks the model every time: its verdict cache is off', async () => {
    server.respond(scriptedLabeller(CASES));
    const setup = run({ labels: smallLabels() });
    const before = server.completions().length;
    await runEval(setup);
    await runEval(setup);
    expect(server.completions().length - before).toBe(8);
    expect(fs.existsSync(path.join(setup.outputDir, 'cache'))).toBe(false);
    expect(fs.existsSync(path.join(setup.outputDir, 'eval', 'cache'))).toBe(false);
  });

  it('a case the model could not judge is counted, never approved, and makes the eval incomplete', async () => {
    server.respond(scriptedLabeller(CASES, { fail: ['footer-missing'] }));
    const { record } = await runEval(run({ labels: smallLabels() }));
    expect(record.figures.notJudged).toEqual([expect.objectContaining({ id: 'footer-missing', status: 'not_judged', confidence: null })]);
    expect(record.figures.notJudged[0].reason).toContain('the image could not be decoded');
    expect(record.figures.regressionsApproved).toEqual([]);
    expect(evalExitCode(record)).toBe(2);
    expect(trustedVerdict(record, 'gpt-4.1-mini', 0.99, { minConfidence: 0, requireEval: true })).toMatchObject({
      allow: false,
      reason: expect.stringContaining('could not judge 1 labelled regression'),
    });
  });

  it('a model that agrees everywhere gets exit code 0 and full trust', async () => {
    server.respond(scriptedLabeller(CASES));
    const { record } = await runEval(run({ labels: smallLabels() }));
    expect(record.figures).toMatchObject({ cases: 4, agreed: 4, agreement: 1 });
    expect(record.riskiestApproval).toBeNull();
    expect(evalExitCode(record)).toBe(0);
  });

  it('without cases, or without an evaluator, it stops with the fix', async () => {
    const empty = run({ labels: { source: 'labels', folder: path.join(os.tmpdir(), 'visual-uat-no-labels-here') } });
    await expect(runEval(empty)).rejects.toThrow(
      new EvalSetupError(
        `visual-uat eval: no labelled cases in ${empty.labels.folder}: approve or reject changes with visual-uat approve or review to make some, or run visual-uat eval --corpus`,
      ),
    );
    await expect(runEval(run({ env: {} }))).rejects.toThrow(/no evaluator configured: set OPENAI_API_KEY/);
  });
});
