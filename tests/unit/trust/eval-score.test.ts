import { describe, expect, it } from 'vitest';
import { autoApprovePolicy, PROMPT_VERSION } from '../../../src/evaluate';
import {
  confidenceCurve,
  regressionsApprovedAt,
  riskiestApproval,
  scoreOutcomes,
  trustedVerdict,
  type CaseOutcome,
  type EvalRecord,
} from '../../../src/trust';

function judged(
  id: string,
  label: CaseOutcome['label'],
  status: CaseOutcome['status'],
  pass: boolean,
  confidence: number,
  needsReview = false,
): CaseOutcome {
  return {
    id,
    title: `page › ${id}`,
    label,
    status,
    evaluation: { pass, confidence, needsReview, reason: `reason ${id}` },
    reason: `reason ${id}`,
  };
}

function unjudged(id: string, label: CaseOutcome['label'], status: 'not_judged' | 'unchanged'): CaseOutcome {
  return { id, title: `page › ${id}`, label, status, evaluation: null, reason: `why ${id}` };
}

/** 6 intended, 5 regressions: what a model with approveAt 0.8 made of them. */
const OUTCOMES: CaseOutcome[] = [
  judged('i1', 'intended', 'changed', true, 0.95),
  judged('i2', 'intended', 'changed', true, 0.9),
  judged('i3', 'intended', 'changed', true, 0.85),
  judged('i4', 'intended', 'needs_review', true, 0.7),
  judged('i5', 'intended', 'regression', false, 0.9),
  unjudged('i6', 'intended', 'not_judged'),
  judged('r1', 'regression', 'regression', false, 0.95),
  judged('r2', 'regression', 'changed', true, 0.88),
  judged('r3', 'regression', 'needs_review', true, 0.9, true),
  judged('r4', 'regression', 'needs_review', true, 0.6),
  unjudged('r5', 'regression', 'unchanged'),
];

describe('eval arithmetic', () => {
  it('sets what the model did against what the people decided', () => {
    const figures = scoreOutcomes(OUTCOMES);
    expect(figures).toMatchObject({
      cases: 11,
      intended: 6,
      regressions: 5,
      judged: 9,
      agreed: 4,
      agreement: 0.364,
      regressionsRejected: 1,
      regressionsToReview: 2,
      intendedApproved: 3,
    });
    expect(figures.regressionsApproved).toEqual([
      { id: 'r2', title: 'page › r2', status: 'changed', confidence: 0.88, reason: 'reason r2' },
    ]);
    expect(figures.intendedToReview.map((ref) => [ref.id, ref.status])).toEqual([
      ['i4', 'needs_review'],
      ['i5', 'regression'],
    ]);
    expect(figures.notJudged.map((ref) => ref.id)).toEqual(['i6']);
    expect(figures.unchanged.map((ref) => ref.id)).toEqual(['r5']);
  });

  it('counts nothing in an empty eval, without dividing by zero', () => {
    expect(scoreOutcomes([])).toMatchObject({ cases: 0, agreed: 0, agreement: 0, regressionsApproved: [] });
  });

  it('approval at a confidence counts unhedged passes at or above it, whatever approveAt the run had', () => {
    expect(regressionsApprovedAt(OUTCOMES, 0.88).map((o) => o.id)).toEqual(['r2']);
    expect(regressionsApprovedAt(OUTCOMES, 0.5).map((o) => o.id)).toEqual(['r2', 'r4']);
    expect(regressionsApprovedAt(OUTCOMES, 0.89)).toEqual([]);
    expect(riskiestApproval(OUTCOMES)).toBe(0.88);
    expect(riskiestApproval(OUTCOMES.filter((o) => o.id !== 'r2' && o.id !== 'r4'))).toBeNull();
  });

  it('lists the trade-off at each confidence the model gave a pass, highest first', () => {
    expect(confidenceCurve(OUTCOMES)).toEqual([
      { atLeast: 0.95, regressionsApproved: 0, intendedApproved: 1 },
      { atLeast: 0.9, regressionsApproved: 0, intendedApproved: 2 },
      { atLeast: 0.88, regressionsApproved: 1, intendedApproved: 2 },
      { atLeast: 0.85, regressionsApproved: 1, intendedApproved: 3 },
      { atLeast: 0.7, regressionsApproved: 1, intendedApproved: 4 },
      { atLeast: 0.6, regressionsApproved: 2, intendedApproved: 4 },
    ]);
  });
});

function record(outcomes: CaseOutcome[], overrides: Partial<EvalRecord> = {}): EvalRecord {
  return {
    version: 1,
    model: 'gpt-4.1-mini',
    baseURL: null,
    promptVersion: PROMPT_VERSION,
    at: '2025-06-02T09:00:00.000Z',
    labels: { source: 'labels', folder: '/repo/.visual-uat/labels' },
    thresholds: { approveAt: 0.8, rejectAt: 0.8 },
    figures: scoreOutcomes(outcomes),
    riskiestApproval: riskiestApproval(outcomes),
    byConfidence: confidenceCurve(outcomes),
    usage: {
      model: 'gpt-4.1-mini',
      calls: outcomes.length,
      cacheHits: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      costUSD: 0,
    },
    priced: true,
    timeMs: 1000,
    outcomes,
    unreadable: [],
    ...overrides,
  };
}

const POLICY = { minConfidence: 0, requireEval: true };
const JUDGED = OUTCOMES.filter((o) => o.status !== 'not_judged');

describe('trustedVerdict', () => {
  it('allows everything when the policy is off', () => {
    expect(trustedVerdict(null, 'gpt-4.1-mini', 0.5, null)).toEqual({ allow: true });
  });

  it('allows a pass above the highest confidence at which the last eval approved a labelled regression', () => {
    const last = record(JUDGED);
    expect(trustedVerdict(last, 'gpt-4.1-mini', 0.9, POLICY)).toEqual({ allow: true });
    expect(trustedVerdict(last, 'gpt-4.1-mini', 0.88, POLICY)).toEqual({
      allow: false,
      reason: 'at confidence 0.88, the last eval of gpt-4.1-mini (2025-06-02, 10 cases) approved 1 labelled regression (r2)',
    });
    expect(trustedVerdict(last, 'gpt-4.1-mini', 0.6, POLICY)).toEqual({
      allow: false,
      reason: 'at confidence 0.6, the last eval of gpt-4.1-mini (2025-06-02, 10 cases) approved 2 labelled regressions (r2, r4)',
    });
  });

  it('holds to minConfidence whatever the eval says', () => {
    expect(trustedVerdict(record(JUDGED), 'gpt-4.1-mini', 0.9, { minConfidence: 0.95, requireEval: true })).toEqual({
      allow: false,
      reason: 'confidence 0.9 is below evaluator.autoApprove.minConfidence (0.95)',
    });
  });

  it('without an eval of this model (or of this prompt), requireEval decides', () => {
    const other = record(JUDGED, { model: 'gpt-4.1' });
    expect(trustedVerdict(null, 'gpt-4.1-mini', 0.99, POLICY)).toEqual({
      allow: false,
      reason: 'no eval of gpt-4.1-mini on this project yet: run npx visual-uat eval to measure it',
    });
    expect(trustedVerdict(other, 'gpt-4.1-mini', 0.99, POLICY)).toEqual({
      allow: false,
      reason: 'no eval of gpt-4.1-mini on this project yet: run npx visual-uat eval to measure it',
    });
    expect(trustedVerdict(record(JUDGED, { promptVersion: PROMPT_VERSION - 1 }), 'gpt-4.1-mini', 0.99, POLICY)).toEqual({
      allow: false,
      reason: 'the last eval of gpt-4.1-mini used another version of the prompt: run npx visual-uat eval to measure it',
    });
    expect(trustedVerdict(null, 'gpt-4.1-mini', 0.99, { minConfidence: 0.9, requireEval: false })).toEqual({ allow: true });
  });

  it('an eval that could not judge a regression, or had none to judge, proves nothing', () => {
    const unjudgedRegression = record([...JUDGED, unjudged('r6', 'regression', 'not_judged')]);
    expect(trustedVerdict(unjudgedRegression, 'gpt-4.1-mini', 0.99, POLICY)).toEqual({
      allow: false,
      reason: 'the last eval of gpt-4.1-mini (2025-06-02, 11 cases) could not judge 1 labelled regression: run npx visual-uat eval again',
    });
    const intendedOnly = record(JUDGED.filter((o) => o.label === 'intended'));
    expect(trustedVerdict(intendedOnly, 'gpt-4.1-mini', 0.99, POLICY)).toEqual({
      allow: false,
      reason:
        'the last eval of gpt-4.1-mini (2025-06-02, 5 cases) had no labelled regression to catch: label some, or run npx visual-uat eval --corpus',
    });
  });

  it('the policy is off by default, with defaults for what is not given, and malformed values are refused', () => {
    expect(autoApprovePolicy(undefined)).toBeNull();
    expect(autoApprovePolicy(false)).toBeNull();
    expect(autoApprovePolicy({})).toEqual({ minConfidence: 0, requireEval: true });
    expect(autoApprovePolicy({ minConfidence: 0.9, requireEval: false })).toEqual({ minConfidence: 0.9, requireEval: false });
    expect(() => autoApprovePolicy({ minConfidence: 90 })).toThrow(
      'evaluator.autoApprove.minConfidence must be a number from 0 to 1 (got 90)',
    );
    expect(() => autoApprovePolicy({ requireEval: 'yes' as unknown as boolean })).toThrow(
      'evaluator.autoApprove.requireEval must be true or false (got "yes")',
    );
    expect(() => autoApprovePolicy(true as unknown as false)).toThrow(
      'evaluator.autoApprove must be an object { minConfidence, requireEval } (got true)',
    );
  });
});
