/**
 * Names of the attachments a checkpoint leaves on the test result. They start with "_" so the
 * HTML report hides them; the reporter (also at merge-reports time, from a blob) reads them back.
 */
export const TEST_META_ATTACHMENT = '_visual-uat-test';
export const CHECKPOINT_META_PREFIX = '_visual-uat-checkpoint:';
export const IMAGE_PREFIX = '_visual-uat-image:';
export const BASELINE_IMAGE_PREFIX = '_visual-uat-baseline:';
export const BASELINE_SIGNALS_PREFIX = '_visual-uat-baseline-signals:';
