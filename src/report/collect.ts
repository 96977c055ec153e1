import type { TestCase, TestResult } from '@playwright/test/reporter';
import { readManifest } from '../baseline/store';
import { baselineInfo, readBaselineSide, readCheckpoints, type CheckpointMeta, type DecodedResult, type TestMeta } from '../capture';
import { testFolder, testKey } from '../config/layout';
import type { BaselineManifest, CapturedSignals, RunContext } from '../types';
import { errorsText, plainText } from '../util/text';

/** One checkpoint as the two passes left it: images by path, either side possibly absent. */
export interface CheckpointPair {
  name: string;
  current: string | null;
  baseline: string | null;
  /** The current capture's meta: intent, tolerance, stability, signals (null: not taken in current). */
  meta: CheckpointMeta | null;
  /** What the base capture recorded besides pixels (null: not captured, e.g. by an older version). */
  baseSignals: CapturedSignals | null;
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
 * The run context the results carry (any result of the run has it), else the one the setup wrote.
 * When the baseline pass ran beside the tests, theirs says it was pending: the setup's, rewritten
 * when the pass ended, is the final one.
 */
function runContext(tests: readonly TestCase[], fromSetup: RunContext | null): RunContext | null {
  for (const test of tests)
    for (const result of test.results) {
      const context = readCheckpoints(result.attachments).context;
      if (context) return context.baselinePending && fromSetup ? fromSetup : context;
    }
  return fromSetup;
}

function pairsOf(decoded: DecodedResult, baselineNames: readonly string[], folder: string, context: RunContext | null): CheckpointPair[] {
  const taken = new Map(decoded.checkpoints.map((checkpoint) => [checkpoint.name, checkpoint]));
  const names = [...new Set([...taken.keys(), ...baselineNames])];
  return names.map((name) => {
    const checkpoint = taken.get(name);
    // A checkpoint only the base took travels in no attachment: its image is in the baseline entry.
    // A checkpoint only the base took, or any taken while the base pass ran beside, has its base side on disk only.
    const onDisk = (!checkpoint || !checkpoint.baseline.image) && context && !context.sameAsBase;
    const base = onDisk ? readBaselineSide(context.baselineDir, folder, name) : checkpoint?.baseline;
    return { name, current: checkpoint?.image ?? null, baseline: base?.image ?? null, meta: checkpoint?.meta ?? null, baseSignals: base?.signals ?? null };
  });
}

/**
 * Pairs the checkpoints of every test that took one (in either pass), and lists every test that
 * failed, with or without a checkpoint. Everything comes from the
 * results' attachments, so the same code serves a local run and `merge-reports` of blob shards;
 * the baseline manifest on disk only adds checkpoints the current pass did not take.
 */
export function collectTests(tests: readonly TestCase[], contextFromSetup: RunContext | null): Collected {
  const context = runContext(tests, contextFromSetup);
  const manifest: BaselineManifest | null = context && !context.sameAsBase ? readManifest(context.baselineDir) : null;
  const collected: CollectedTest[] = [];
  for (const test of tests) {
    const result = test.results[test.results.length - 1];
    if (!result) continue;
    const decoded = readCheckpoints(result.attachments);
    const meta = decoded.test;
    const project = test.parent.project()?.name ?? '';
    const titlePath = test.titlePath().slice(2);
    const key = meta?.key ?? testKey(project, titlePath);
    const folder = meta?.folder ?? testFolder(project, titlePath);
    // A test captured while the baseline pass ran beside it learns its baseline from the manifest now.
    const baseline = meta ? (meta.baseline ?? baselineInfo(context, manifest, key)) : null;
    const baselineNames = baseline?.checkpoints ?? manifest?.tests[key]?.checkpoints ?? [];
    const pairs = pairsOf(decoded, baselineNames, folder, context);
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
