export { mergeTests } from '@playwright/test';
export { expect, type ToHaveScreenshotOptions, type CheckpointOptions, type VisualUatFixtures, type ScreenshotCheckpoint } from './capture';
export { test, defineOxTests, type OxtestFixtures, type OxtestRunner } from './oxtest';
export { withVisualUat } from './config';
export type * from './types';
export type { RunResult, TestResultRecord, CheckpointResult, EvaluatorUsage } from './report';
