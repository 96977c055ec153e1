import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import { noteCapturingTest } from '../baseline/top-up';
import { currentRole, ENV, type Role } from '../config/environment';
import { runningCheckpointsDir } from '../config/paths';
import { identityOfTestInfo } from '../config/test-identity';
import { resolveSettings } from '../config/settings';
import { readManifest, readRunContext } from '../files/run-folder';
import type { BaselineManifest, BaselineTestRecord, ComparisonTolerance, RunContext, VisualUatTestOptions } from '../types';
import type { BaselineInfo, TestMeta } from './codec';

/** What a test's checkpoints share: where images go, what the baseline pass left for this test. */
export interface CaptureTarget {
  role: Role;
  key: string;
  folder: string;
  imageRoot: string;
  baselineRoot: string | null;
  context: RunContext | null;
  /** The run's baseline entry's manifest (null: none, or not written yet). */
  manifest?: BaselineManifest | null;
  /** Current role: the run's output folder, where the test notes that it took a checkpoint. */
  outputDir?: string;
  /** Current role: the run's tolerance, which a live check of a capture beside its baseline starts from. */
  tolerance?: Required<ComparisonTolerance>;
}

/**
 * Whether this process runs under visual-uat: its global setup prepared the run (and handed the
 * run context down), or this is the baseline pass it started. A config without `withVisualUat`
 * runs neither.
 */
export function inVisualUatRun(env: NodeJS.ProcessEnv = process.env): boolean {
  return currentRole(env) === 'baseline' || ENV.contextFile.read(env) !== undefined;
}

/**
 * Why a checkpoint outside a visual-uat run fails its test: nothing would compare it, and the run
 * would pass with its changes unseen. Null inside a run.
 */
export function outsideRunError(name: string, configFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (inVisualUatRun(env)) return null;
  const config = configFile ? path.basename(configFile) : 'playwright.config.ts';
  return `visual-uat: checkpoint "${name}" ran without withVisualUat, so nothing compared it: wrap the export of ${config} in withVisualUat (npx visual-uat init does it)`;
}

/** What a worker process reads once: the run context the setup wrote, the output folder, the manifest. */
interface WorkerState {
  context: RunContext | null;
  outputDir: string;
  tolerance: Required<ComparisonTolerance>;
  manifest: { dir: string; manifest: BaselineManifest | null } | null;
}

let worker: WorkerState | null = null;

function workerState(testInfo: TestInfo): WorkerState {
  if (!worker) {
    const { outputDir, options } = resolveSettings(testInfo.config.configFile ?? null, undefined, process.env, testInfo.config.rootDir);
    worker = {
      context: readRunContext(),
      outputDir,
      tolerance: { threshold: options.threshold, maxDiffPixels: options.maxDiffPixels, maxDiffPixelRatio: options.maxDiffPixelRatio },
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
  const { key, folder } = identityOfTestInfo(testInfo);
  if (role === 'baseline') {
    const baselineDir = ENV.baselineDir.read();
    if (!baselineDir)
      throw new Error(`visual-uat: the baseline pass started without ${ENV.baselineDir.name}: run it through withVisualUat`);
    return { role, key, folder, imageRoot: baselineDir, baselineRoot: null, context: null };
  }
  const state = workerState(testInfo);
  const { context } = state;
  const imageRoot = runningCheckpointsDir(testInfo.project.outputDir);
  // While the baseline pass renders this test beside the current tests, there is nothing to read yet.
  if (!context || context.sameAsBase || baselinePending(context, key))
    return { role, key, folder, imageRoot, baselineRoot: null, context, outputDir: state.outputDir };
  const manifest = baselineManifest(state, context.baselineDir);
  return {
    role,
    key,
    folder,
    imageRoot,
    baselineRoot: context.baselineDir,
    context,
    manifest,
    outputDir: state.outputDir,
    tolerance: state.tolerance,
  };
}

/** The current run's note that a test took a checkpoint, for the check of the base pass's selection (see baseline/top-up). */
export function noteCapture(testInfo: TestInfo, target: CaptureTarget): void {
  if (!target.outputDir || !target.context || target.context.sameAsBase) return;
  noteCapturingTest(target.outputDir, {
    key: target.key,
    project: testInfo.project.name,
    relativeFile: path.relative(testInfo.config.rootDir, testInfo.file),
    titlePath: testInfo.titlePath.slice(1),
    line: testInfo.line,
    column: testInfo.column,
  });
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
    record,
  };
}

/** What the base pass recorded of one checkpoint's capture. */
export interface BaseCapture {
  /** How the base test ended: Playwright's status ('passed', 'failed', 'timedOut', 'interrupted', 'skipped'). */
  testStatus: string;
  /** The base test's errors; null when it passed. */
  error: string | null;
  /** Whether the base took this checkpoint. */
  taken: boolean;
  /** Whether its capture held still (null: not taken, or not known, as for a stored test). */
  settled: boolean | null;
  /** Whether its capture wrote a layout record (false when it was not taken). */
  layout: boolean;
}

/** A checkpoint's capture as its test's base record tells it; null without a record (the base pass did not run the test). */
export function baseCapture(record: BaselineTestRecord | null, name: string): BaseCapture | null {
  if (!record) return null;
  const taken = record.checkpoints.includes(name);
  return {
    testStatus: record.status,
    error: record.status === 'passed' ? null : record.error,
    taken,
    settled: taken && record.unsettled ? !record.unsettled.includes(name) : null,
    layout: taken && record.layouts.includes(name),
  };
}

/**
 * Whether a base image may be compared with: its test passed on the base, or ended otherwise only
 * after this capture had held still. An image a failed test left before it settled (or without
 * saying whether it did) shows a page nobody saw at rest.
 */
export function baseImageUsable(capture: BaseCapture | null): boolean {
  return !capture || capture.testStatus === 'passed' || capture.settled === true;
}

/** Whether the baseline pass beside the current tests renders this test (see RunContext.baselinePending). */
function baselinePending(context: RunContext | null, key: string): boolean {
  const pending = context?.baselinePending;
  return pending === 'all' || !!pending?.includes(key);
}

/** What the current pass records of a test's baseline: nothing yet while the baseline pass renders it beside. */
export function testMeta(target: CaptureTarget, options: VisualUatTestOptions): TestMeta {
  const { context } = target;
  const pending = baselinePending(context, target.key);
  const manifest = target.manifest ?? null;
  return { key: target.key, folder: target.folder, baseline: pending ? null : baselineInfo(context, manifest, target.key), options };
}

function notRunReason(manifest: BaselineManifest | null): string {
  if (manifest?.selection)
    return (
      'the baseline pass left this test out (no capture found in its source), and the top-up pass after the tests could ' +
      'not run it: see the baseline log'
    );
  return 'the baseline pass did not run this test';
}
