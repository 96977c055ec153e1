/**
 * visual-uat's public API: what a user imports from 'visual-uat'. Every name here is semver API
 * (docs/api-report.txt lists them; tests/unit/api-report.test.ts fails when one appears or goes
 * unintentionally). The rest of src/ is internal.
 */
import { useBaselineCheck } from './capture/live-check';

export { mergeTests } from '@playwright/test';
export { expect, type ToHaveScreenshotOptions, type CheckpointOptions, type VisualUatFixtures, type ScreenshotCheckpoint } from './capture';
export { test, defineOxTests, type OxtestFixtures, type OxtestRunner } from './oxtest';
export { withVisualUat } from './config';
export type {
  A11yViolation,
  AutoApprovePolicy,
  BaseWebServer,
  CheckpointSignals,
  CheckpointStatus,
  ComparisonTolerance,
  DiffMetrics,
  Evaluation,
  EvaluatorOptions,
  FailOn,
  Region,
  RegionKind,
  TestStatus,
  VisualUatOptions,
  VisualUatTestOptions,
} from './types';
export type { RunResult, TestResultRecord, CheckpointResult, EvaluatorUsage } from './report';

// The composition root: capture compares a capture with its baseline while the page is alive by
// compare/'s and explain/'s rules, which come after it (docs/architecture.md). Loaded on the first
// capture that differs from its baseline, so a worker whose captures match loads neither.
useBaselineCheck(async (input) => (await import('./explain/baseline-look')).lookAtCapture(input));
