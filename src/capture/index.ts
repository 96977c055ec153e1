export { test, type VisualUatFixtures, type ScreenshotCheckpoint } from './fixtures';
export { screenshotCheckpoint } from './playwright';
export { takeCheckpoint, type CheckpointOptions } from './checkpoint';
export { validateCheckpointName } from './names';
export { readCheckpoints, readBaselineSide, type CheckpointMeta, type DecodedCheckpoint, type DecodedResult, type TestMeta, type BaselineSide, type BaselineInfo } from './codec';
export { baselineInfo } from './session';
