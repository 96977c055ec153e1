import type { RunResult, TestResultRecord } from '../../src/report';

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
    summary: { total: tests.length, passed: count('passed'), failed: count('failed'), errored: count('errored'), needsReview: count('needs_review') },
    evaluator: { model: null, calls: 0, cacheHits: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUSD: 0 },
  };
}
