import type { FullResult, TestCase } from '@playwright/test/reporter';
import { readCheckpoints } from '../capture/codec';
import { identityOfTestCase } from '../config/test-identity';
import type { BaselineManifest } from '../types';
import { errorsText } from '../util/text';

/**
 * The baseline role's record of its pass: each test's status, error and checkpoints (which held
 * still, which wrote a layout record), read from the same attachments as in the current role. A
 * pass that failed outside its tests (the base app did not start) or was interrupted is
 * incomplete: its baselines are not to be trusted.
 */
export function baselineManifest(
  tests: readonly TestCase[],
  status: FullResult['status'],
  globalErrors: readonly string[],
): BaselineManifest {
  const records: BaselineManifest['tests'] = {};
  for (const test of tests) {
    const result = test.results[test.results.length - 1];
    if (!result) continue;
    const decoded = readCheckpoints(result.attachments);
    // What the capture recorded (its images are there), else the test's identity.
    const identity = decoded.test ?? identityOfTestCase(test);
    records[identity.key] = {
      folder: identity.folder,
      status: result.status,
      error: errorsText(result.errors),
      checkpoints: decoded.checkpoints.map((checkpoint) => checkpoint.name),
      // A capture whose meta is not there is not known to have held still.
      unsettled: decoded.checkpoints.filter((checkpoint) => checkpoint.meta?.stable !== true).map((checkpoint) => checkpoint.name),
      layouts: decoded.checkpoints.filter((checkpoint) => checkpoint.layout).map((checkpoint) => checkpoint.name),
    };
  }
  return { complete: status !== 'interrupted' && globalErrors.length === 0, tests: records };
}
