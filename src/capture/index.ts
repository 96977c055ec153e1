export { test, type VisualUatFixtures, type ScreenshotCheckpoint } from './fixtures';
export { screenshotCheckpoint } from './playwright';
export { expect, type ToHaveScreenshotOptions } from './expect';
export { takeCheckpoint, type CheckpointOptions } from './checkpoint';
export { validateCheckpointName } from './names';
export {
  readCheckpoints,
  type CheckpointMeta,
  type DecodedCheckpoint,
  type DecodedResult,
  type TestMeta,
  type BaselineInfo,
} from './codec';
export { baseCapture, baseImageUsable, baselineInfo, type BaseCapture } from './target';
