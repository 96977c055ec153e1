import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../../src/approve';
import { encodeChange, NO_DIFF, NO_SIGNALS, type PairComparison } from '../../../src/compare';
import { resolveSettings } from '../../../src/config/settings';
import type { BaseCapture } from '../../../src/capture';
import type { EvaluationRequest, Evaluator, EvaluatorVerdict } from '../../../src/evaluate';
import { userText } from '../../../src/evaluate/prompt';
import { compareCheckpoints } from '../../../src/report/assess';
import { decide, NO_EVALUATOR_REASON } from '../../../src/report/decide';
import { evaluationRequest } from '../../../src/report/judge';
import { buildRunResult, NO_USAGE } from '../../../src/report/results';
import { judgeRun } from '../../../src/report/run';
import type { CapturedSignals, RunContext } from '../../../src/types';
import { sha256File } from '../../../src/util/hash';
import { writePng } from '../../support/png';
import { checkpointPair as pair, collectedTest as collected, QUIET } from '../../support/collected';
import { validResults } from '../../support/results';
import { checkpointResult } from '../../support/runs';
import { changeInput } from '../../support/changes';

/**
 * The reporter's stages on plain values: compare → approvals → evaluate → decide → results, with
 * real PNG files and the real diff engine, no Playwright run.
 */

const BLUE: [number, number, number, number] = [30, 90, 220, 255];
const GREY: [number, number, number, number] = [200, 200, 200, 255];

let dir: string;
let images: Record<'base' | 'same' | 'changed' | 'tiny' | 'corrupt', string>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-pipeline-'));
  const box = (rgba: typeof BLUE) => [{ x: 20, y: 20, width: 100, height: 40, rgba }];
  images = {
    base: writePng(path.join(dir, 'in', 'base.png'), 200, 120, box(GREY)),
    same: writePng(path.join(dir, 'in', 'same.png'), 200, 120, box(GREY)),
    changed: writePng(path.join(dir, 'in', 'changed.png'), 200, 120, box(BLUE)),
    tiny: writePng(path.join(dir, 'in', 'tiny.png'), 200, 120, [
      ...box(GREY),
      { x: 150, y: 100, width: 1, height: 1, rgba: [0, 0, 0, 255] },
    ]),
    corrupt: path.join(dir, 'in', 'corrupt.png'),
  };
  fs.writeFileSync(images.corrupt, 'not a png');
});

const CONTEXT: RunContext = {
  baseBranch: 'main',
  baseRef: 'main',
  baseCommit: 'a'.repeat(40),
  currentBranch: 'feature',
  currentCommit: 'b'.repeat(40),
  dirty: false,
  sameAsBase: false,
  commits: ['Highlight the Pro plan'],
  changedFiles: ['M public/pricing.html'],
  appFilesChanged: ['public/pricing.html'],
  baselineDir: '/unused',
  baselineError: null,
};

const CONSOLE_ERROR: CapturedSignals = {
  origin: null,
  aria: null,
  consoleErrors: ['TypeError: x is undefined'],
  failedRequests: [],
  a11y: null,
  interaction: null,
};
/** Without records nothing is explained: every changed region is named as such (the pair's one region). */
const NO_RECORDS = {
  changes: [],
  summary: '',
  note: 'no layout record on the base side; none on the current side: the page could not be read after the capture',
  unexplained: [expect.objectContaining({ x: expect.any(Number), y: expect.any(Number) })],
  regionCount: 1,
};

/** Freezes a value deeply: a stage that mutates its input throws. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) frozen((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** An evaluator as the reporter sees one, answering from a table and recording what it was asked. */
function evaluatorAnswering(answer: (request: EvaluationRequest) => EvaluatorVerdict): Evaluator & { asked: EvaluationRequest[] } {
  const asked: EvaluationRequest[] = [];
  const evaluate = async (request: EvaluationRequest) => {
    asked.push(request);
    return answer(request);
  };
  return {
    model: 'test-model',
    baseURL: null,
    thresholds: { approveAt: 0.8, rejectAt: 0.8 },
    priced: false,
    autoApprove: null,
    asked,
    evaluate,
    evaluateAll: (requests) => Promise.all(requests.map(evaluate)),
    usage: () => ({ ...NO_USAGE, model: 'test-model', calls: asked.length }),
    summary: () => '',
  };
}

function settings() {
  return resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {});
}

describe('compare stage', () => {
  it('says what each pair is, once', async () => {
    const test = frozen(
      collected('plans', [
        pair('same', images.base, images.same),
        pair('changed', images.base, images.changed),
        pair('tiny', images.base, images.tiny, {
          meta: { name: 'tiny', intent: null, stable: true, unsettled: null, signals: QUIET, maxDiffPixels: 5 },
        }),
        pair('new', null, images.changed),
        pair('gone', images.base, null),
        pair('corrupt', images.corrupt, images.changed),
      ]),
    );
    const kinds = (await compareCheckpoints([test], CONTEXT, settings())).map(({ pair, comparison }) => [pair.name, comparison.kind]);
    expect(kinds).toEqual([
      ['same', 'identical'],
      ['changed', 'different'],
      ['tiny', 'within-tolerance'],
      ['new', 'current-only'],
      ['gone', 'baseline-only'],
      ['corrupt', 'errored'],
    ]);
  });

  it("asks for the branch's diffs only in a run with a pair that differs", async () => {
    let reads = 0;
    const code = async () => {
      reads++;
      return [];
    };
    await compareCheckpoints(
      [collected('plans', [pair('same', images.base, images.same), pair('new', null, images.changed)])],
      CONTEXT,
      settings(),
      code,
    );
    expect(reads).toBe(0);
    const compared = await compareCheckpoints(
      [collected('plans', [pair('changed', images.base, images.changed), pair('again', images.base, images.changed)])],
      CONTEXT,
      settings(),
      code,
    );
    expect(compared.map(({ comparison }) => comparison.kind)).toEqual(['different', 'different']);
    expect(reads).toBeGreaterThan(0);
  });

  it('compares nothing when base and current are the same code', async () => {
    const [same] = await compareCheckpoints(
      [collected('plans', [pair('changed', images.base, images.changed)])],
      { ...CONTEXT, sameAsBase: true },
      settings(),
    );
    expect(same.comparison).toEqual({ kind: 'same-code' });
  });
});

describe('decide', () => {
  const change = { threshold: 0.1, regions: [], lines: [] };
  const different: PairComparison = {
    kind: 'different',
    metrics: { pixelDiffPercent: 3, changedRegions: [] },
    diffImage: '/d.png',
    change,
  };
  const approval: Approval = {
    decision: 'approved',
    scope: 'change',
    checkpoints: [{ test: 't', checkpoint: 'c', baseline: null, current: null }],
    by: 'Ann',
    at: '2026-01-02T03:04:05Z',
    reason: 'intended',
    change: '',
  };
  const judged = (status: EvaluatorVerdict['status']): EvaluatorVerdict => ({
    status,
    evaluation: { pass: status === 'changed', confidence: 0.9, reason: 'Looks intended.', needsReview: false },
    reason: 'Looks intended.',
    cached: false,
  });
  const input = { comparison: different, baseError: null, changes: [changeInput()], signals: NO_SIGNALS };

  it('gives each comparison its status and reason', () => {
    const cases: [PairComparison, string, string][] = [
      [{ kind: 'identical' }, 'unchanged', 'identical'],
      [{ kind: 'within-tolerance', metrics: NO_DIFF }, 'unchanged', 'within tolerance: pixels differ, none past the colour threshold'],
      [
        {
          kind: 'within-tolerance',
          metrics: { pixelDiffPercent: 0.01, changedRegions: [{ x: 1, y: 2, width: 3, height: 4, kind: 'modified' }] },
        },
        'unchanged',
        'within tolerance',
      ],
      [{ kind: 'same-code' }, 'unchanged', 'base and current are the same commit with a clean tree'],
      [{ kind: 'baseline-only' }, 'missing', 'in the baseline only: the current run did not capture it'],
      [{ kind: 'current-only' }, 'new', 'no baseline: the base version does not take this checkpoint'],
      [
        { kind: 'errored', message: 'the baseline image x is not a readable PNG', side: 'baseline' },
        'errored',
        'the baseline image x is not a readable PNG',
      ],
      [different, 'needs_review', NO_EVALUATOR_REASON],
    ];
    for (const [comparison, status, reason] of cases)
      expect(decide({ ...input, comparison })).toEqual({ status, reason, evaluation: null });
    expect(decide({ ...input, comparison: { kind: 'current-only' }, baseError: 'Error: the base app did not start' }).reason).toBe(
      'no baseline: Error: the base app did not start',
    );
  });

  it('says a checkpoint is missing because its current test failed before it, with the first line of the error', () => {
    const launch =
      'Error: browserType.launch: Chromium distribution \'chrome\' is not found at /opt/google/chrome/chrome\nRun "npx playwright install chrome"';
    expect(decide({ ...input, comparison: { kind: 'baseline-only' }, currentTest: { status: 'failed', error: launch } })).toEqual({
      status: 'missing',
      reason:
        "in the baseline only: the current test failed before it took this checkpoint (Error: browserType.launch: Chromium distribution 'chrome' is not found at /opt/google/chrome/chrome)",
      evaluation: null,
    });
    expect(decide({ ...input, comparison: { kind: 'baseline-only' }, currentTest: { status: 'timedOut', error: null } }).reason).toBe(
      'in the baseline only: the current test failed before it took this checkpoint',
    );
    expect(decide({ ...input, comparison: { kind: 'baseline-only' }, currentTest: { status: 'passed', error: null } }).reason).toBe(
      'in the baseline only: the current run did not capture it',
    );
  });

  it('lets a person approve or reject before the evaluator, and keeps new signals from auto-approval', () => {
    const covering = { decision: 'approved' as const, approval, how: 'same-checkpoint' as const };
    expect(decide({ ...input, changes: [changeInput({ covering, judgement: judged('regression') })] })).toMatchObject({
      status: 'changed',
      reason: 'approved by Ann on 2026-01-02: intended',
    });
    expect(
      decide({
        ...input,
        changes: [changeInput({ covering: { ...covering, decision: 'rejected', approval: { ...approval, decision: 'rejected' } } })],
      }),
    ).toMatchObject({
      status: 'regression',
      reason: 'rejected by Ann on 2026-01-02: intended',
    });
    expect(decide({ ...input, changes: [changeInput({ covering: { ...covering, how: 'same-change' } })] }).reason).toBe(
      'approved by Ann on 2026-01-02: intended (the same change on t › c)',
    );
    expect(decide({ ...input, changes: [changeInput({ judgement: judged('changed') })] })).toMatchObject({
      status: 'changed',
      reason: 'Looks intended.',
    });
    expect(decide({ ...input, changes: [changeInput({ judgement: judged('regression') })] }).status).toBe('regression');
    const noisy = { ...NO_SIGNALS, newConsoleErrors: ['TypeError'], newFailedRequests: ['GET /api 500', 'GET /img 404'] };
    expect(decide({ ...input, changes: [changeInput({ judgement: judged('changed') })], signals: noisy })).toMatchObject({
      status: 'needs_review',
      reason: 'Looks intended. Not approved: 1 new console error, 2 new failed requests.',
    });
  });

  it("says which group a change shares, and takes the most severe of a checkpoint's changes", () => {
    expect(decide({ ...input, changes: [changeInput({ others: 2, judgement: judged('changed') })] }).reason).toBe(
      'Looks intended. — same change as 2 other checkpoints (group g1)',
    );
    const mixed = decide({ ...input, changes: [changeInput({ others: 39, judgement: judged('changed') }), changeInput({ group: 'g3' })] });
    expect(mixed.status).toBe('needs_review');
    expect(mixed.reason).toBe('no evaluator configured — also group g1 (changed: Looks intended.)');
  });

  it('never lets an approval or a verdict change a pair that did not differ', () => {
    expect(decide({ ...input, comparison: { kind: 'identical' }, changes: [] }).status).toBe('unchanged');
  });

  it("names a base test's failure by its first line: compared with a capture that settled before it, else no baseline", () => {
    const timeout =
      "Test timeout of 30000ms exceeded.\nError: locator.waitFor: Test timeout of 30000ms exceeded.\nCall log:\n  - waiting for locator('.badge')";
    const failed = (extra: Partial<BaseCapture> = {}): BaseCapture => ({
      testStatus: 'timedOut',
      error: timeout,
      taken: true,
      settled: true,
      layout: true,
      ...extra,
    });
    const after = 'the base test failed after this capture (Test timeout of 30000ms exceeded.); compared with the capture it took';
    expect(decide({ ...input, comparison: { kind: 'identical' }, changes: [], baseCapture: failed() })).toEqual({
      status: 'unchanged',
      reason: `${after}; identical`,
      evaluation: null,
    });
    expect(decide({ ...input, baseCapture: failed() })).toMatchObject({
      status: 'needs_review',
      reason: `${after}; ${NO_EVALUATOR_REASON}`,
    });
    const fresh = (baseCapture: BaseCapture) =>
      decide({ ...input, comparison: { kind: 'current-only' }, baseError: timeout, baseCapture }).reason;
    expect(fresh(failed({ settled: false }))).toBe(
      'no baseline: the base test failed after this capture, which never settled (Test timeout of 30000ms exceeded.)',
    );
    expect(fresh(failed({ settled: null }))).toBe(
      'no baseline: the base test failed after this capture, which is not known to have settled (Test timeout of 30000ms exceeded.)',
    );
    expect(fresh(failed({ taken: false, settled: null, layout: false }))).toBe(
      'no baseline: the base test failed before it took this checkpoint (Test timeout of 30000ms exceeded.)',
    );
    expect(fresh({ testStatus: 'skipped', error: null, taken: false, settled: null, layout: false })).toBe(
      'no baseline: the base test was skipped before it took this checkpoint',
    );
    // Without a record of the test (the pass failed as a whole), its failure's first line.
    expect(decide({ ...input, comparison: { kind: 'current-only' }, baseError: timeout }).reason).toBe(
      'no baseline: Test timeout of 30000ms exceeded.',
    );
    // A base test that passed: nothing to say of it.
    const passed: BaseCapture = { testStatus: 'passed', error: null, taken: true, settled: true, layout: true };
    expect(decide({ ...input, comparison: { kind: 'identical' }, changes: [], baseCapture: passed }).reason).toBe('identical');
    expect(decide({ ...input, comparison: { kind: 'current-only' }, baseCapture: { ...passed, taken: false } }).reason).toBe(
      'no baseline: the base version does not take this checkpoint',
    );
  });
});

describe('judgeRun', () => {
  it('runs the gates in order on frozen inputs and returns new outcomes', async () => {
    const plans = collected('plans', [
      pair('approved', images.base, images.changed),
      pair('judged', images.base, images.changed, {
        meta: { name: 'judged', intent: 'The Pro card is blue', stable: true, unsettled: null, signals: CONSOLE_ERROR },
      }),
      pair('same', images.base, images.same),
      pair('unsettled', null, images.changed),
    ]);
    const [compared] = await compareCheckpoints([collected('plans', [pair('approved', images.base, images.changed)])], CONTEXT, settings());
    if (compared.comparison.kind !== 'different') throw new Error('the pair should differ');
    const checkpoint = { test: plans.key, checkpoint: 'approved', baseline: sha256File(images.base), current: sha256File(images.changed) };
    const approved: Approval = {
      decision: 'approved',
      scope: 'checkpoints',
      checkpoints: [checkpoint],
      by: 'Ann',
      at: '2026-01-02T00:00:00Z',
      reason: null,
      change: encodeChange(compared.comparison.change),
    };
    // Decided on another baseline: the base moved on, and the pair no longer shows the change.
    const stale: Approval = { ...approved, checkpoints: [{ ...checkpoint, checkpoint: 'same', baseline: 'f'.repeat(64) }] };
    const unrelated: Approval = { ...approved, checkpoints: [{ ...checkpoint, test: 'another › test' }] };
    const evaluator = evaluatorAnswering(() => ({
      status: 'changed',
      evaluation: { pass: true, confidence: 0.95, reason: 'Intended.', needsReview: false },
      reason: 'Intended.',
      cached: false,
    }));
    const runOutcome = await judgeRun({
      tests: frozen([plans]),
      context: frozen(CONTEXT),
      settings: frozen(settings()),
      approvals: frozen([approved, stale, unrelated]),
      evaluator,
      evalRecord: null,
    });

    // "approved" and "judged" show the same change: one group, judged once on the checkpoint nobody approved.
    expect(evaluator.asked.map((request) => [request.name, request.group])).toEqual([['judged', { id: 'g1', shownOn: expect.any(Array) }]]);
    expect(evaluator.asked[0].group.shownOn).toHaveLength(2);
    expect(runOutcome.approvals).toEqual({
      applied: 1,
      resembling: 0,
      rejected: 0,
      stale: [{ approval: stale, checkpoint: stale.checkpoints[0] }],
    });
    expect(runOutcome.judged).toBe(1);
    const [outcome] = runOutcome.outcomes;
    expect(outcome.status).toBe('needs_review');
    const byName = Object.fromEntries(outcome.checkpoints.map((c) => [c.name, c]));
    expect(byName.approved).toMatchObject({
      status: 'changed',
      reason: 'approved by Ann on 2026-01-02 — same change as 1 other checkpoint (group g1)',
      evaluation: null,
      groups: ['g1'],
    });
    expect(byName.judged).toMatchObject({
      status: 'needs_review',
      reason: 'Intended. Not approved: 1 new console error. — same change as 1 other checkpoint (group g1)',
      groups: ['g1'],
    });
    expect(byName.judged.diffMetrics.pixelDiffPercent).toBeGreaterThan(0);
    expect(byName.same).toMatchObject({ status: 'unchanged', diffImage: null, diffMetrics: NO_DIFF, stable: true, groups: [] });
    expect(byName.unsettled).toMatchObject({ status: 'new', stable: false });
    expect(runOutcome.groups).toEqual([
      expect.objectContaining({
        id: 'g1',
        members: [`${plans.key} › approved`, `${plans.key} › judged`],
        alsoIn: [],
        status: 'needs_review',
      }),
    ]);
  });

  it('holds back a pass the trust policy does not vouch for, cached or not, and says why', async () => {
    const plans = collected('plans', [pair('judged', images.base, images.changed)]);
    const pass = {
      status: 'changed' as const,
      evaluation: { pass: true, confidence: 0.95, reason: 'Intended.', needsReview: false },
      reason: 'Intended.',
      cached: true,
    };
    const strict = { ...evaluatorAnswering(() => pass), autoApprove: { minConfidence: 0, requireEval: true } };
    const held = await judgeRun({
      tests: [plans],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: strict,
      evalRecord: null,
    });
    expect(held.outcomes[0].checkpoints[0]).toMatchObject({
      status: 'needs_review',
      reason: 'Intended. Not approved automatically: no eval of test-model on this project yet: run npx visual-uat eval to measure it.',
    });
    expect(held.groups[0].status).toBe('needs_review');
    const lenient = { ...evaluatorAnswering(() => pass), autoApprove: { minConfidence: 0.9, requireEval: false } };
    const allowed = await judgeRun({
      tests: [plans],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: lenient,
      evalRecord: null,
    });
    expect(allowed.outcomes[0].checkpoints[0]).toMatchObject({ status: 'changed', reason: 'Intended.' });
  });

  it("leads a group's reason with a member compared with the capture of a base test that failed after it", async () => {
    const baseCapture: BaseCapture = {
      testStatus: 'timedOut',
      error: 'Test timeout of 30000ms exceeded.\nCall log:',
      taken: true,
      settled: true,
      layout: true,
    };
    const plans = collected('plans', [
      pair('failed-base', images.base, images.changed, { baseCapture }),
      pair('passed-base', images.base, images.changed),
    ]);
    const runOutcome = await judgeRun({
      tests: [plans],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    expect(runOutcome.groups.map((group) => group.reason)).toEqual([
      `the base test failed after this capture (Test timeout of 30000ms exceeded.); compared with the capture it took (${plans.key} › failed-base); ${NO_EVALUATOR_REASON}`,
    ]);
    expect(runOutcome.outcomes[0].checkpoints.map((c) => c.reason)).toEqual([
      `the base test failed after this capture (Test timeout of 30000ms exceeded.); compared with the capture it took; ${NO_EVALUATOR_REASON} — same change as 1 other checkpoint (group g1)`,
      `${NO_EVALUATOR_REASON} — same change as 1 other checkpoint (group g1)`,
    ]);
  });

  it("counts the pairs a test's pixel allowance let pass, with the share of pixels each changed", async () => {
    const allowance = (name: string) => ({ meta: { name, intent: null, stable: true, unsettled: null, signals: QUIET, maxDiffPixels: 5 } });
    const runOutcome = await judgeRun({
      tests: [collected('plans', [pair('same', images.base, images.same), pair('tiny', images.base, images.tiny, allowance('tiny'))])],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    // One pixel of 24 000: 0.004 %, kept to two decimals as pixelDiffPercent is.
    expect(runOutcome.compared).toEqual({ pairs: 2, same: 2, oneSided: 0, allowed: [0] });
  });

  it('marks a run with an unreadable baseline, so its store entries are dropped', async () => {
    const runOutcome = await judgeRun({
      tests: [collected('plans', [pair('corrupt', images.corrupt, images.changed)])],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    expect(runOutcome.baselineUnreadable).toBe(true);
    expect(runOutcome.outcomes[0].status).toBe('errored');
  });
});

describe('the evaluator request', () => {
  it('names the test by its whole title path, spec file included, as every other place does', async () => {
    const plans = collected('plans', [pair('plans', images.base, images.changed)]);
    const [compared] = await compareCheckpoints([plans], CONTEXT, settings());
    if (compared.comparison.kind !== 'different') throw new Error('the pair should differ');
    const request = evaluationRequest(
      {
        group: 'g1',
        representative: { ...compared, comparison: compared.comparison },
        shownOn: ['chromium › pricing.spec.ts › pricing › plans › plans'],
        projects: [],
      },
      CONTEXT,
    );
    expect(request.intent).toEqual({
      test: 'Pricing shows three plans',
      checkpoint: 'plans intent',
      titlePath: ['pricing.spec.ts', 'pricing', 'plans'],
    });
    expect(userText(request, '')).toContain('Test: chromium › pricing.spec.ts › pricing › plans\nCheckpoint: plans');
  });
});

describe('the results file', () => {
  it('is built from the outcomes and matches docs/results.schema.json', async () => {
    const plans = collected(
      'plans',
      [pair('same', images.base, images.same), pair('changed', images.base, images.changed), pair('gone', images.base, null)],
      {
        error: null,
      },
    );
    const runOutcome = await judgeRun({
      tests: [plans],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    const run = buildRunResult(runOutcome.outcomes, runOutcome.groups, CONTEXT, settings(), NO_USAGE, 1_700_000_000_000);
    validResults(JSON.parse(JSON.stringify(run)), 'the built run');
    const [test] = run.tests;
    expect(test).toMatchObject({
      title: 'plans',
      titlePath: ['pricing.spec.ts', 'pricing', 'plans'],
      file: path.relative(dir, '/repo/tests/pricing.spec.ts'),
      status: 'needs_review',
    });
    expect(test.checkpoints.map((c) => [c.name, c.status, c.diffMetrics.pixelDiffPercent > 0, c.stable])).toEqual([
      ['same', 'unchanged', false, true],
      ['changed', 'needs_review', true, true],
      ['gone', 'missing', false, null],
    ]);
    expect(test.checkpoints[0].baselineImage).toBe(path.relative(path.join(dir, '.visual-uat', 'results'), images.base));
    expect([test.intent, run.commits, run.changedFiles]).toEqual([plans.meta!.options.intent, CONTEXT.commits, CONTEXT.changedFiles]);
    expect(test.checkpoints.map((c) => [c.group, c.otherGroups, c.fingerprint?.slice(0, 8) ?? null])).toEqual([
      [null, [], null],
      ['g1', [], 'v1 t0.1 '],
      [null, [], null],
    ]);
    expect(run.groups).toEqual([
      {
        id: 'g1',
        fingerprint: test.checkpoints[1].fingerprint,
        members: ['chromium › pricing.spec.ts › pricing › plans › changed'],
        alsoIn: [],
        status: 'needs_review',
        reason: NO_EVALUATOR_REASON,
        evaluation: null,
        explanation: NO_RECORDS,
      },
    ]);
    // Captures without layout records are not explained, and the results say what is known of why.
    expect(test.checkpoints[1].explanation).toEqual(NO_RECORDS);
    expect([test.error, test.baseError]).toEqual([null, null]);
  });

  it("keeps a base test's failure apart from the error of a test that passed here", async () => {
    const timeout = 'Test timeout of 30000ms exceeded.\nError: locator.waitFor: Test timeout of 30000ms exceeded.';
    const baseCapture: BaseCapture = { testStatus: 'timedOut', error: timeout, taken: false, settled: null, layout: false };
    const badge = collected('badge', [pair('badge', null, images.changed, { baseCapture })], {
      baselineAvailable: false,
      baselineError: timeout,
    });
    const runOutcome = await judgeRun({
      tests: [badge],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    const run = buildRunResult(runOutcome.outcomes, runOutcome.groups, CONTEXT, settings(), NO_USAGE, 1);
    validResults(JSON.parse(JSON.stringify(run)), 'a base failure');
    expect(run.tests[0]).toMatchObject({ status: 'passed', baselineAvailable: false, error: null, baseError: timeout });
    expect(run.tests[0].checkpoints[0]).toMatchObject({
      status: 'new',
      reason: 'no baseline: the base test failed before it took this checkpoint (Test timeout of 30000ms exceeded.)',
    });
    const failedHere = collected('badge', [pair('badge', null, images.changed, { baseCapture })], {
      status: 'failed',
      error: 'Error: its own',
      baselineAvailable: false,
      baselineError: timeout,
    });
    const own = await judgeRun({
      tests: [failedHere],
      context: CONTEXT,
      settings: settings(),
      approvals: [],
      evaluator: null,
      evalRecord: null,
    });
    expect(buildRunResult(own.outcomes, own.groups, CONTEXT, settings(), NO_USAGE, 1).tests[0]).toMatchObject({
      error: 'Error: its own',
      baseError: timeout,
    });
  });

  it('refuses a diffMetrics of null and a reason with terminal escape codes', () => {
    const file = JSON.parse(JSON.stringify(buildRunResult([], [], CONTEXT, settings(), NO_USAGE, 1)));
    const checkpoint = checkpointResult({
      name: 'x',
      status: 'new',
      reason: 'no baseline: Error: \u001b[2mexpect(\u001b[22m',
      currentImage: 'c.png',
    });
    const test = {
      title: 't',
      titlePath: ['a.spec.ts', 't'],
      file: 'a.spec.ts',
      project: '',
      status: 'passed',
      baselineAvailable: false,
      error: null,
      baseError: null,
      intent: null,
      checkpoints: [checkpoint],
    };
    expect(() => validResults({ ...file, tests: [test] }, 'escape codes')).toThrow(/reason must match pattern/);
    expect(() =>
      validResults({ ...file, tests: [{ ...test, checkpoints: [{ ...checkpoint, reason: 'plain', diffMetrics: null }] }] }, 'null metrics'),
    ).toThrow(/diffMetrics must be object/);
    expect(validResults({ ...file, tests: [{ ...test, checkpoints: [{ ...checkpoint, reason: 'plain' }] }] }, 'fine').tests).toHaveLength(
      1,
    );
  });
});
