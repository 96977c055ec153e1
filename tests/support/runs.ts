import { NO_DIFF, NO_SIGNALS } from '../../src/compare';
import type { CheckpointResult, RunResult, TestResultRecord } from '../../src/report';

/** A results file around the given tests, for what reads one (the summary, the CLI, the review page's benchmark). */
export function runOf(tests: TestResultRecord[]): RunResult {
  const count = (status: TestResultRecord['status']) => tests.filter((test) => test.status === status).length;
  return {
    timestamp: 1_700_000_000_000,
    baseBranch: 'main',
    baseCommit: 'a'.repeat(40),
    currentBranch: 'feature',
    currentCommit: 'b'.repeat(40),
    dirty: false,
    commits: [],
    changedFiles: [],
    config: {},
    tests,
    groups: [],
    summary: {
      total: tests.length,
      passed: count('passed'),
      failed: count('failed'),
      errored: count('errored'),
      needsReview: count('needs_review'),
    },
    evaluator: { model: null, calls: 0, cacheHits: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUSD: 0 },
  };
}

/** A results-file checkpoint that needs review; the fields a test does not name are empty. */
export function checkpointResult(fields: Pick<CheckpointResult, 'name'> & Partial<CheckpointResult>): CheckpointResult {
  return {
    status: 'needs_review',
    reason: '',
    baselineImage: null,
    currentImage: null,
    diffImage: null,
    diffMetrics: NO_DIFF,
    evaluation: null,
    signals: NO_SIGNALS,
    stable: true,
    group: null,
    otherGroups: [],
    fingerprint: null,
    intent: null,
    explanation: null,
    ...fields,
  };
}

/** A results-file test of `tests/<spec file>` that needs review, titled by its title path's last part. */
export function testResult(titlePath: string[], checkpoints: CheckpointResult[], fields: Partial<TestResultRecord> = {}): TestResultRecord {
  return {
    title: titlePath[titlePath.length - 1],
    titlePath,
    file: `tests/${titlePath[0]}`,
    project: '',
    status: 'needs_review',
    baselineAvailable: true,
    error: null,
    baseError: null,
    intent: null,
    checkpoints,
    ...fields,
  };
}
