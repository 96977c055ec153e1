import path from 'node:path';
import type { ResolvedOptions } from '../config/options';
import { resultsDir } from '../config/layout';
import type { CheckpointSignals, CheckpointStatus, Evaluation, EvaluatorUsage, RunContext, TestStatus } from '../types';
import { writeFileAtomic } from '../util/fs';
import type { CollectedTest } from './collect';
import type { CheckpointVerdict } from './verdicts';

export interface CheckpointResult {
  name: string;
  status: CheckpointStatus;
  reason: string;
  baselineImage: string | null;
  currentImage: string | null;
  diffImage: string | null;
  diffMetrics: CheckpointVerdict['diffMetrics'];
  evaluation: Evaluation | null;
  signals: CheckpointSignals;
}

export interface TestResultRecord {
  title: string;
  titlePath: string[];
  file: string;
  project: string;
  status: TestStatus;
  baselineAvailable: boolean;
  error: string | null;
  checkpoints: CheckpointResult[];
}

export type { EvaluatorUsage } from '../types';

export interface RunResult {
  timestamp: number;
  baseBranch: string | null;
  baseCommit: string | null;
  currentBranch: string | null;
  currentCommit: string | null;
  dirty: boolean;
  config: Record<string, unknown>;
  tests: TestResultRecord[];
  summary: { total: number; passed: number; failed: number; errored: number; needsReview: number };
  evaluator: EvaluatorUsage;
}

export interface TestOutcome {
  test: CollectedTest;
  status: TestStatus;
  checkpoints: CheckpointVerdict[];
}

function relativeTo(dir: string, file: string | null): string | null {
  return file ? path.relative(dir, file) : null;
}

/** The effective options as the results file shows them: never a key. */
export function publicConfig(options: ResolvedOptions): Record<string, unknown> {
  const evaluator = options.evaluator ? { model: options.evaluator.model ?? null, baseURL: options.evaluator.baseURL ?? null } : false;
  return { ...options, evaluator };
}

function testError(outcome: TestOutcome): string | null {
  const errors = outcome.test.result.errors.map((error) => error.message ?? error.value ?? '').filter(Boolean);
  if (errors.length) return errors.join('\n');
  if (!outcome.test.meta?.baseline.available) return outcome.test.meta?.baseline.error ?? null;
  return null;
}

export function buildRunResult(
  outcomes: TestOutcome[],
  context: RunContext | null,
  options: ResolvedOptions,
  evaluator: EvaluatorUsage,
  outputDir: string,
  configDir: string,
): RunResult {
  const dir = resultsDir(outputDir);
  const tests: TestResultRecord[] = outcomes.map((outcome) => {
    const { test } = outcome.test;
    return {
      title: test.title,
      titlePath: test.titlePath().slice(2),
      file: path.relative(configDir, test.location.file),
      project: test.parent.project()?.name ?? '',
      status: outcome.status,
      baselineAvailable: outcome.test.meta?.baseline.available ?? false,
      error: testError(outcome),
      checkpoints: outcome.checkpoints.map((verdict) => ({
        name: verdict.name,
        status: verdict.status,
        reason: verdict.reason,
        baselineImage: relativeTo(dir, verdict.baselineImage),
        currentImage: relativeTo(dir, verdict.currentImage),
        diffImage: relativeTo(dir, verdict.diffImage),
        diffMetrics: verdict.diffMetrics,
        evaluation: verdict.evaluation,
        signals: verdict.signals,
      })),
    };
  });
  const count = (status: TestStatus) => tests.filter((test) => test.status === status).length;
  return {
    timestamp: Date.now(),
    baseBranch: context?.baseBranch ?? null,
    baseCommit: context?.baseCommit ?? null,
    currentBranch: context?.currentBranch ?? null,
    currentCommit: context?.currentCommit ?? null,
    dirty: context?.dirty ?? false,
    config: publicConfig(options),
    tests,
    summary: { total: tests.length, passed: count('passed'), failed: count('failed'), errored: count('errored'), needsReview: count('needs_review') },
    evaluator,
  };
}

/** Stores `<outputDir>/results/<timestamp>.json` and `latest.json`, each written atomically. */
export function writeRunResult(outputDir: string, run: RunResult): { file: string; latest: string } {
  const dir = resultsDir(outputDir);
  const text = `${JSON.stringify(run, null, 2)}\n`;
  const file = path.join(dir, `${run.timestamp}.json`);
  const latest = path.join(dir, 'latest.json');
  writeFileAtomic(file, text);
  writeFileAtomic(latest, text);
  return { file, latest };
}
