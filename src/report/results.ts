import path from 'node:path';
import type { ResolvedOptions, Settings } from '../config/settings';
import { outputPath, resultsFile } from '../config/paths';
import type { CheckpointSignals, CheckpointStatus, DiffMetrics, Evaluation, EvaluatorUsage, RunContext, TestStatus } from '../types';
import { writeFileAtomic } from '../util/fs';
import { encodeChange } from '../compare';
import type { Explanation } from '../explain';
import type { GroupOutcome, TestOutcome } from './outcome';
import type { Retakes } from './decide';

/** The results file's shape; docs/results.schema.json is its JSON Schema. */
export interface CheckpointResult {
  name: string;
  status: CheckpointStatus;
  reason: string;
  baselineImage: string | null;
  currentImage: string | null;
  diffImage: string | null;
  diffMetrics: DiffMetrics;
  evaluation: Evaluation | null;
  signals: CheckpointSignals;
  /** Whether the current capture settled before its timeout; null when the current run took none. */
  stable: boolean | null;
  /**
   * When the capture was compared with its baseline while the page was alive: how many screenshots it took, and what its first one's
   * difference was (null: the first matched). Absent: no baseline was at hand at capture.
   */
  retakes?: Retakes;
  /** The group of its dominant change; null when the pair does not differ. */
  group: string | null;
  /** The groups of its other changes. */
  otherGroups: string[];
  /**
   * When it is in more than one group: each group's part of its change (a fingerprint), what a decision on that group must cover
   * here. In one group, its group's part is its whole `fingerprint`.
   */
  groupParts?: Record<string, string>;
  /** What changed (compare/fingerprint.ts), when the pair differs: what approvals are matched against. */
  fingerprint: string | null;
  /** The checkpoint's own intent, as the evaluator is told it. */
  intent: string | null;
  /** When the pair differs: the change in words (explain/), no model involved. */
  explanation: Explanation | null;
}

/**
 * A change of the run as the results file holds it: its change encoded as a fingerprint (compare/fingerprint.ts), and, when its checkpoints
 * are in more than one Playwright project, the change as each project shows it (the same words, other pixels).
 */
export type GroupRecord = Omit<GroupOutcome, 'change' | 'projects'> & { fingerprint: string; projects?: Record<string, string> };

export interface TestResultRecord {
  title: string;
  titlePath: string[];
  file: string;
  project: string;
  status: TestStatus;
  baselineAvailable: boolean;
  /** The test's own errors in this run; null when it ran without one. */
  error: string | null;
  /**
   * Why the base left it no whole baseline: its errors on the base, the pass's failure, or that the
   * pass did not run it; null when it passed there.
   */
  baseError: string | null;
  /** The test's intent, as the evaluator is told it. */
  intent: string | null;
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
  /** `<short sha> <subject>` from the base to the current commit, newest first: what the evaluator and a label are told. */
  commits: string[];
  /** `<status> <path>` lines of the files changed since the base commit. */
  changedFiles: string[];
  config: Record<string, unknown>;
  tests: TestResultRecord[];
  groups: GroupRecord[];
  summary: { total: number; passed: number; failed: number; errored: number; needsReview: number };
  evaluator: EvaluatorUsage;
}

export const NO_USAGE: EvaluatorUsage = {
  model: null,
  calls: 0,
  cacheHits: 0,
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
  costUSD: 0,
};

function relativeTo(dir: string, file: string | null): string | null {
  return file ? path.relative(dir, file) : null;
}

/** The effective options as the results file shows them: never a key. */
export function publicConfig(options: ResolvedOptions): Record<string, unknown> {
  const evaluator = options.evaluator ? { model: options.evaluator.model ?? null, baseURL: options.evaluator.baseURL ?? null } : false;
  return { ...options, evaluator };
}

export function buildRunResult(
  outcomes: TestOutcome[],
  groups: GroupOutcome[],
  context: RunContext | null,
  settings: Settings,
  evaluator: EvaluatorUsage,
  timestamp = Date.now(),
): RunResult {
  const dir = outputPath(settings.outputDir, 'results');
  const tests: TestResultRecord[] = outcomes.map((outcome) => {
    const { test } = outcome;
    return {
      title: test.title,
      titlePath: test.titlePath,
      file: path.relative(settings.configDir, test.file),
      project: test.project,
      status: outcome.status,
      baselineAvailable: test.baselineAvailable,
      // Apart: a base error is never the error of a test that passed here.
      error: test.error,
      baseError: test.baselineAvailable ? null : test.baselineError,
      intent: test.meta?.options.intent ?? null,
      checkpoints: outcome.checkpoints.map((checkpoint) => ({
        name: checkpoint.name,
        status: checkpoint.status,
        reason: checkpoint.reason,
        baselineImage: relativeTo(dir, checkpoint.baselineImage),
        currentImage: relativeTo(dir, checkpoint.currentImage),
        diffImage: relativeTo(dir, checkpoint.diffImage),
        diffMetrics: checkpoint.diffMetrics,
        evaluation: checkpoint.evaluation,
        signals: checkpoint.signals,
        stable: checkpoint.stable,
        ...(checkpoint.retakes ? { retakes: checkpoint.retakes } : {}),
        group: checkpoint.groups[0] ?? null,
        otherGroups: checkpoint.groups.slice(1),
        ...(checkpoint.groups.length > 1
          ? { groupParts: Object.fromEntries(checkpoint.groups.map((id, i) => [id, encodeChange(checkpoint.groupParts[i])])) }
          : {}),
        fingerprint: checkpoint.change && encodeChange(checkpoint.change),
        intent: checkpoint.intent,
        explanation: checkpoint.explanation,
      })),
    };
  });
  const count = (status: TestStatus) => tests.filter((test) => test.status === status).length;
  return {
    timestamp,
    baseBranch: context?.baseBranch ?? null,
    baseCommit: context?.baseCommit ?? null,
    currentBranch: context?.currentBranch ?? null,
    currentCommit: context?.currentCommit ?? null,
    dirty: context?.dirty ?? false,
    commits: context?.commits ?? [],
    changedFiles: context?.changedFiles ?? [],
    config: publicConfig(settings.options),
    tests,
    groups: groups.map(({ change, projects, ...group }) => ({
      id: group.id,
      fingerprint: encodeChange(change),
      ...(projects.size > 1 ? { projects: Object.fromEntries([...projects].map(([name, print]) => [name, encodeChange(print)])) } : {}),
      members: group.members,
      alsoIn: group.alsoIn,
      status: group.status,
      reason: group.reason,
      evaluation: group.evaluation,
      explanation: group.explanation,
    })),
    summary: {
      total: tests.length,
      passed: count('passed'),
      failed: count('failed'),
      errored: count('errored'),
      needsReview: count('needs_review'),
    },
    evaluator,
  };
}

/** Stores `<outputDir>/results/<timestamp>.json` and `latest.json`, each written atomically. */
export function writeRunResult(outputDir: string, run: RunResult): { file: string; latest: string } {
  const text = `${JSON.stringify(run, null, 2)}\n`;
  const file = resultsFile(outputDir, run.timestamp);
  const latest = outputPath(outputDir, 'latestResults');
  writeFileAtomic(file, text);
  writeFileAtomic(latest, text);
  return { file, latest };
}
