import type { TestCase, TestResult } from '@playwright/test/reporter';
import {
  baseCapture,
  baseImageUsable,
  baselineInfo,
  readCheckpoints,
  type BaseCapture,
  type CheckpointMeta,
  type DecodedResult,
  type TestMeta,
} from '../capture';
import { identityOfTestCase } from '../config/test-identity';
import type { RunFolder } from '../files/run-folder';
import type { BaselineTestRecord, CapturedSignals, RunContext } from '../types';
import { errorsText, plainText } from '../util/text';

/** One checkpoint as the two passes left it: images by path, either side possibly absent. */
export interface CheckpointPair {
  name: string;
  current: string | null;
  baseline: string | null;
  /** The current capture's meta: intent, tolerance, stability, signals (null: not taken in current). */
  meta: CheckpointMeta | null;
  /** What the base capture recorded besides pixels (null: not captured). */
  baseSignals: CapturedSignals | null;
  /** Each side's layout record, by path (null: none taken). */
  layouts: { baseline: string | null; current: string | null };
  /** What the base pass recorded of this capture: how its test ended, whether it held still (null: no record of the test). */
  baseCapture: BaseCapture | null;
  /** The diff image of the comparison the worker made while the page was alive (meta.comparison), by path. */
  liveDiff: string | null;
}

/** One test with its checkpoints paired: plain values, read once from Playwright's results. */
export interface CollectedTest {
  /** Playwright's own objects, for the annotation edge only. */
  test: TestCase;
  result: TestResult;
  key: string;
  folder: string;
  project: string;
  title: string;
  /** File (relative to the test folder), describes, title: as every site names a test. */
  titlePath: string[];
  /** The spec file, absolute. */
  file: string;
  /** How the current test ended; its errors as plain text. */
  status: TestResult['status'];
  error: string | null;
  meta: TestMeta | null;
  /** Whether the base pass left this test a baseline; why not when it did not. */
  baselineAvailable: boolean;
  baselineError: string | null;
  pairs: CheckpointPair[];
}

export interface Collected {
  context: RunContext | null;
  tests: CollectedTest[];
}

/**
 * The context the setup wrote for this run, rewritten once the base passes ended (a pass beside
 * the tests, a top-up pass): the final one. Without it (merge-reports of blobs), the one the
 * results carry (any result of the run has it).
 */
export function runContextOf(tests: readonly TestCase[], fromSetup: RunContext | null): RunContext | null {
  if (fromSetup) return fromSetup;
  for (const test of tests)
    for (const result of test.results) {
      const context = readCheckpoints(result.attachments).context;
      if (context) return context;
    }
  return null;
}

function pairsOf(
  decoded: DecodedResult,
  baselineNames: readonly string[],
  folder: string,
  files: RunFolder,
  record: BaselineTestRecord | null,
): CheckpointPair[] {
  const taken = new Map(decoded.checkpoints.map((checkpoint) => [checkpoint.name, checkpoint]));
  const names = [...new Set([...taken.keys(), ...baselineNames])];
  return names.map((name) => {
    const checkpoint = taken.get(name);
    const capture = baseCapture(record, name);
    // A checkpoint only the base took travels in no attachment: its image is in the baseline entry.
    // A checkpoint only the base took, or any taken while the base pass ran beside, has its base side on disk only.
    const onDisk = !checkpoint?.baseline.image;
    const found = (onDisk ? files.baseSide(folder, name) : null) ?? checkpoint?.baseline;
    // The image a failed base test left unsettled is no baseline; one only the base took still shows what went missing.
    const base = !checkpoint || baseImageUsable(capture) ? found : null;
    return {
      name,
      current: checkpoint?.image ?? null,
      baseline: base?.image ?? null,
      meta: checkpoint?.meta ?? null,
      baseSignals: base?.signals ?? null,
      layouts: { baseline: base?.layout ?? null, current: checkpoint?.layout ?? null },
      baseCapture: capture,
      liveDiff: checkpoint?.liveDiff ?? null,
    };
  });
}

/**
 * Pairs the checkpoints of every test that took one (in either pass), and lists every test that
 * failed, with or without a checkpoint. Everything comes from the
 * results' attachments, so the same code serves a local run and `merge-reports` of blob shards;
 * the baseline entry (`files`, the run folder's reading of it) only adds checkpoints the current
 * pass did not take, and the base side of those it took while the base pass ran beside it.
 */
export function collectTests(tests: readonly TestCase[], context: RunContext | null, files: RunFolder): Collected {
  const { manifest } = files;
  const collected: CollectedTest[] = [];
  for (const test of tests) {
    const result = test.results[test.results.length - 1];
    if (!result) continue;
    const decoded = readCheckpoints(result.attachments);
    const meta = decoded.test;
    const identity = identityOfTestCase(test);
    const { project, titlePath } = identity;
    // What the capture recorded (its images are there), else the test's identity.
    const { key, folder } = meta ?? identity;
    // A test captured while the baseline pass ran beside it, or before a top-up pass gave it a
    // baseline, learns its baseline from the manifest now; so does every test of a run whose pass
    // failed (beside the tests, it failed after the stored tests' captures found their baselines).
    const afterCapture = !meta?.baseline || !!context?.toppedUp?.includes(key) || !!context?.baselineError;
    const baseline = meta ? (afterCapture ? baselineInfo(context, manifest, key) : meta.baseline) : null;
    const record = baseline?.record ?? manifest?.tests[key] ?? null;
    const baselineNames = baseline?.checkpoints ?? record?.checkpoints ?? [];
    const pairs = pairsOf(decoded, baselineNames, folder, files, record);
    // A test that took no checkpoint in either pass is not a visual test, unless it failed: a crash
    // before its first checkpoint must show in the results, not vanish from them.
    if (pairs.length === 0 && (result.status === 'passed' || result.status === 'skipped')) continue;
    const baselineError = baseline?.error ?? context?.baselineError ?? null;
    collected.push({
      test,
      result,
      key,
      folder,
      project,
      title: test.title,
      titlePath,
      file: test.location.file,
      status: result.status,
      error: errorsText(result.errors),
      meta,
      baselineAvailable: baseline?.available ?? false,
      baselineError: baselineError === null ? null : plainText(baselineError),
      pairs,
    });
  }
  return { context, tests: collected };
}
