import type { TestCase, TestResult } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import { NO_DIFF, NO_SIGNALS } from '../../../src/compare';
import { annotate, describeCheckpoint, failTest } from '../../../src/report/annotate';
import { testStatus, type CheckpointOutcome } from '../../../src/report/decide';
import type { TestOutcome } from '../../../src/report/outcome';
import { collectedTest } from '../../support/collected';

function checkpoint(name: string, extra: Partial<CheckpointOutcome> = {}): CheckpointOutcome {
  return {
    name,
    status: 'unchanged',
    reason: 'identical to its baseline',
    evaluation: null,
    baselineImage: `/out/baseline/${name}.png`,
    currentImage: `/out/current/${name}.png`,
    diffImage: null,
    diffMetrics: NO_DIFF,
    signals: NO_SIGNALS,
    stable: true,
    groups: [],
    groupParts: [],
    change: null,
    intent: null,
    explanation: null,
    ...extra,
  };
}

type Annotated = TestResult & { annotations: TestCase['annotations'] };

/**
 * Playwright's test and result as a live run gives them to a reporter, with only what annotate
 * touches: the test's tags are a getter over its internal list, as in Playwright.
 */
function outcome(checkpoints: CheckpointOutcome[]): TestOutcome & { test: { result: Annotated } } {
  const internalTags: string[] = [];
  const test = {
    annotations: [],
    _tags: internalTags,
    get tags() {
      return internalTags;
    },
  } as unknown as TestCase;
  const result = { annotations: [], attachments: [], errors: [], status: 'passed' } as unknown as Annotated;
  return { test: { ...collectedTest('plans', []), test, result }, status: 'passed', checkpoints };
}

const CHANGED = checkpoint('hero', {
  status: 'needs_review',
  reason: 'no evaluator configured',
  diffImage: '/out/diffs/hero-diff.png',
  diffMetrics: { ...NO_DIFF, pixelDiffPercent: 2.5, changedRegions: [{ x: 0, y: 0, width: 10, height: 10 }] },
  groups: ['g1'],
});

describe('annotate', () => {
  it('gives a changed checkpoint its annotation, its tag and the expected/actual/diff triplet the HTML report shows as an image diff', () => {
    const run = outcome([CHANGED]);
    annotate(run);
    const { test, result } = run.test;
    expect(test.annotations).toEqual([
      {
        type: 'needs_review',
        description: 'hero: no evaluator configured — 2.5% of pixels changed in 1 region — approve or reject: npx visual-uat review',
      },
    ]);
    expect(result.annotations).toEqual(test.annotations);
    expect(test.tags).toEqual(['@needs_review']);
    expect(result.attachments.map((attachment) => [attachment.name, attachment.path])).toEqual([
      ['hero-expected.png', '/out/baseline/hero.png'],
      ['hero-actual.png', '/out/current/hero.png'],
      ['hero-diff.png', '/out/diffs/hero-diff.png'],
    ]);
  });

  it('attaches an unchanged checkpoint as its current image, without an annotation, and a missing one as its baseline', () => {
    const run = outcome([checkpoint('footer'), checkpoint('gone', { status: 'missing', reason: 'not captured', currentImage: null })]);
    annotate(run);
    expect(run.test.test.annotations).toEqual([{ type: 'needs_review', description: 'gone: not captured' }]);
    expect(run.test.result.attachments.map((attachment) => [attachment.name, attachment.path])).toEqual([
      ['footer', '/out/current/footer.png'],
      ['gone (baseline only)', '/out/baseline/gone.png'],
    ]);
  });

  it('lists each kind of new signal in an annotation of its own, and the ARIA diff as a text attachment', () => {
    const signals = {
      ariaDiff: '- button "Buy"',
      newConsoleErrors: ['TypeError: x', 'ReferenceError: y'],
      newFailedRequests: [],
      newA11yViolations: [{ id: 'color-contrast', impact: 'serious', targets: ['.cta'] }],
    };
    const run = outcome([checkpoint('hero', { signals })]);
    annotate(run);
    expect(run.test.test.annotations).toEqual([
      { type: 'console-errors', description: 'hero: TypeError: x · ReferenceError: y' },
      { type: 'a11y-violations', description: 'hero: color-contrast (serious): .cta' },
    ]);
    expect(run.test.result.attachments.at(-1)).toMatchObject({
      name: 'hero-aria.diff',
      contentType: 'text/plain',
      body: Buffer.from('- button "Buy"\n'),
    });
  });

  it('tags a test once, however many of its checkpoints share a status', () => {
    const run = outcome([CHANGED, { ...CHANGED, name: 'footer' }]);
    annotate(run);
    expect(run.test.test.tags).toEqual(['@needs_review']);
  });

  it('tags a missing checkpoint with the status its test gets in the results file: errored when the test failed on its own', () => {
    const MISSING = checkpoint('subtitles', { status: 'missing', reason: 'in the baseline only', currentImage: null });
    const tagged = (ended: 'passed' | 'failed') => {
      const run = outcome([MISSING]);
      run.test.status = ended;
      annotate(run);
      return [testStatus(ended, [MISSING]), run.test.test.tags];
    };
    expect(tagged('failed')).toEqual(['errored', ['@visual-error']]);
    expect(tagged('passed')).toEqual(['needs_review', ['@needs_review']]);
  });
});

describe('failTest', () => {
  it('fails a passing test with one error per failing checkpoint, naming how to settle it', () => {
    const run = outcome([CHANGED]);
    failTest(run, [CHANGED, checkpoint('cart', { status: 'errored', reason: 'image unreadable' })]);
    expect(run.test.result.status).toBe('failed');
    expect(run.test.result.errors.map((error) => error.message)).toEqual([
      'visual-uat: checkpoint "hero" is needs_review (in failOn): no evaluator configured. If the change is intended: npx visual-uat approve "pricing.spec.ts › pricing › plans › hero" (or npx visual-uat review), then commit visual-uat.approvals.json',
      'visual-uat: checkpoint "cart" is errored (in failOn): image unreadable',
    ]);
    // JSON's `error` and JUnit's message read the first error, as Playwright keeps it.
    expect(run.test.result.error).toBe(run.test.result.errors[0]);
  });

  it("keeps a test's own first error as its error, and its failure", () => {
    const run = outcome([CHANGED]);
    const own = { message: 'Timeout 5000ms exceeded' };
    Object.assign(run.test.result, { status: 'failed', errors: [own], error: own });
    failTest(run, [CHANGED]);
    expect(run.test.result.status).toBe('failed');
    expect(run.test.result.error).toBe(own);
    expect(run.test.result.errors).toHaveLength(2);
  });

  it('leaves a test alone when nothing fails', () => {
    const run = outcome([CHANGED]);
    failTest(run, []);
    expect(run.test.result).toMatchObject({ status: 'passed', errors: [] });
  });
});

describe('describeCheckpoint', () => {
  it("adds the evaluator's confidence when it judged", () => {
    expect(
      describeCheckpoint(
        checkpoint('hero', {
          status: 'changed',
          reason: 'the new banner is intended',
          evaluation: { pass: true, confidence: 0.912, reason: 'intended', needsReview: false },
        }),
      ),
    ).toBe('hero: the new banner is intended (confidence 0.91)');
  });
});
