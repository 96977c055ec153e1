export { test, type VisualUatFixtures, type ScreenshotCheckpoint } from './fixtures';
export { screenshotCheckpoint } from './playwright';
export { takeCheckpoint, type CheckpointOptions, type CheckpointMeta } from './checkpoint';
export { validateCheckpointName } from './names';
export type { TestMeta } from './session';
export * from './attachments';
