import type { TestInfo } from '@playwright/test';
import { readRunContext } from '../baseline/context';
import { readManifest } from '../baseline/store';
import { BASELINE_DIR_ENV, EXPECTED_CHECKPOINTS_ENV, currentRole, runningCheckpointsDir, testFolder, testKey, type Role } from '../config/layout';
import { resolveSettings } from '../config/options';
import type { BaselineManifest, RunContext, VisualUatTestOptions } from '../types';
import { readJsonFile } from '../util/fs';
import type { BaselineInfo, TestMeta } from './codec';

/** What a test's checkpoints share: where images go, what the baseline pass left for this test. */
export interface CaptureTarget {
  role: Role;
  key: string;
  folder: string;
  imageRoot: string;
  baselineRoot: string | null;
  context: RunContext | null;
  /** The cache entry's manifest (null: none, or not written yet). */
  manifest?: BaselineManifest | null;
  /** Baseline role: the checkpoints this test took in the last run of the same sources (null: unknown). */
  expected?: readonly string[] | null;
}

/** The annotation of a base test ended after its last expected checkpoint: it passed as far as the baselines go. */
export const ENDED_AFTER_LAST_CHECKPOINT = 'visual-uat-ended-after-last-checkpoint';

let expectedByTest: Map<string, string[]> | null = null;

/** Baseline role: what each test took in the last run (see baseline/record), read once per worker. */
function expectedCheckpoints(key: string): string[] | null {
  const file = process.env[EXPECTED_CHECKPOINTS_ENV];
  if (!file) return null;
  expectedByTest ??= new Map(Object.entries(readJsonFile<Record<string, string[]>>(file) ?? {}));
  return expectedByTest.get(key) ?? null;
}

/** What a worker process reads once: the run context the setup wrote, the output folder, the manifest. */
interface WorkerState {
  context: RunContext | null;
  outputDir: string;
  manifest: { dir: string; manifest: BaselineManifest | null } | null;
}

let worker: WorkerState | null = null;

function workerState(testInfo: TestInfo): WorkerState {
  if (!worker) {
    worker = {
      context: readRunContext(),
      outputDir: resolveSettings(testInfo.config.configFile ?? null, undefined, process.env, testInfo.config.rootDir).outputDir,
      manifest: null,
    };
  }
  return worker;
}

function baselineManifest(state: WorkerState, baselineDir: string): BaselineManifest | null {
  if (state.manifest?.dir !== baselineDir) state.manifest = { dir: baselineDir, manifest: readManifest(baselineDir) };
  return state.manifest.manifest;
}

export function captureTarget(testInfo: TestInfo): CaptureTarget {
  const role = currentRole();
  const key = testKey(testInfo.project.name, testInfo.titlePath);
  const folder = testFolder(testInfo.project.name, testInfo.titlePath);
  if (role === 'baseline') {
    const baselineDir = process.env[BASELINE_DIR_ENV];
    if (!baselineDir) throw new Error('visual-uat: the baseline pass started without VISUAL_UAT_BASELINE_DIR: run it through withVisualUat');
    return { role, key, folder, imageRoot: baselineDir, baselineRoot: null, context: null, expected: expectedCheckpoints(key) };
  }
  const state = workerState(testInfo);
  const { context } = state;
  const imageRoot = runningCheckpointsDir(testInfo.project.outputDir);
  // While the baseline pass runs beside the current tests, there is nothing to read yet.
  if (!context || context.sameAsBase || context.baselinePending) return { role, key, folder, imageRoot, baselineRoot: null, context };
  const manifest = baselineManifest(state, context.baselineDir);
  return { role, key, folder, imageRoot, baselineRoot: context.baselineDir, context, manifest };
}

/**
 * Whether a test has a baseline to compare with, and why not when it has none: from the run
 * context and the baseline manifest's record of the test. The capture asks it, or the reporter
 * when the baseline pass ran beside the current one.
 */
export function baselineInfo(context: RunContext | null, manifest: BaselineManifest | null, key: string): BaselineInfo {
  const record = manifest?.tests[key] ?? null;
  const baselineError = context?.baselineError ?? null;
  const available = !!context && (context.sameAsBase || (!!record && !baselineError && record.status === 'passed'));
  return {
    available,
    error: baselineError ?? record?.error ?? (context && !context.sameAsBase && !record ? notRunReason(manifest) : null),
    checkpoints: record?.checkpoints ?? [],
  };
}

/** What the current pass records of a test's baseline: nothing yet while the baseline pass runs beside it. */
export function testMeta(target: CaptureTarget, options: VisualUatTestOptions): TestMeta {
  const { context } = target;
  const pending = !!context?.baselinePending;
  const manifest = target.manifest ?? null;
  return { key: target.key, folder: target.folder, baseline: pending ? null : baselineInfo(context, manifest, target.key), options };
}

function notRunReason(manifest: BaselineManifest | null): string {
  if (manifest?.selection)
    return 'the baseline pass left this test out: no checkpoint call was found in its source (a checkpoint taken through code visual-uat cannot see; see README "Cold runs")';
  return 'the baseline pass did not run this test';
}
