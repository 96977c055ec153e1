export { expect, mergeTests } from '@playwright/test';
export { test, type CheckpointOptions, type VisualUatFixtures, type ScreenshotCheckpoint } from './capture';
export { withVisualUat } from './config';
export type * from './types';
export type { RunResult, TestResultRecord, CheckpointResult, EvaluatorUsage } from './report';
