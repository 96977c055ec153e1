import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import {
  BASELINE_DIR_ENV,
  CONTEXT_FILE_ENV,
  OUTPUT_DIR_ENV,
  checkpointFile,
  currentRole,
  currentScreenshotsDir,
  manifestPath,
  testFolder,
  testKey,
  type Role,
} from '../config/layout';
import { optionsFromEnv, resolveOptions } from '../config/options';
import type { BaselineManifest, BaselineTestRecord, RunContext, VisualUatTestOptions } from '../types';
import { readJsonFile } from '../util/fs';
import { TEST_META_ATTACHMENT } from './attachments';

/** What a test's checkpoints share: where images go, what the baseline pass left for this test. */
export interface CaptureTarget {
  role: Role;
  imageRoot: string;
  baselineRoot: string | null;
  context: RunContext | null;
  baseline: BaselineTestRecord | null;
  /** The baseline pass ran only the tests that can capture, and this one was not among them. */
  leftOut?: boolean;
}

/** Everything a test result carries so the reporter can pair it without reading the output folder. */
export interface TestMeta {
  key: string;
  /** The test's folder under every image root (see config/layout). */
  folder: string;
  context: RunContext | null;
  baseline: { available: boolean; error: string | null; checkpoints: string[] };
  options: VisualUatTestOptions;
}

let cachedContext: { file: string; context: RunContext | null } | null = null;
let cachedManifest: { file: string; manifest: BaselineManifest | null } | null = null;

function runContext(): RunContext | null {
  const file = process.env[CONTEXT_FILE_ENV];
  if (!file) return null;
  if (cachedContext?.file !== file) cachedContext = { file, context: readJsonFile<RunContext>(file) };
  return cachedContext.context;
}

function baselineManifest(baselineDir: string): BaselineManifest | null {
  const file = manifestPath(baselineDir);
  if (cachedManifest?.file !== file) cachedManifest = { file, manifest: readJsonFile<BaselineManifest>(file) };
  return cachedManifest.manifest;
}

function outputDirFor(testInfo: TestInfo): string {
  const fromSetup = process.env[OUTPUT_DIR_ENV];
  if (fromSetup) return fromSetup;
  const configDir = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : testInfo.config.rootDir;
  return path.resolve(configDir, resolveOptions(optionsFromEnv()).outputDir);
}

export function captureTarget(testInfo: TestInfo): CaptureTarget {
  const role = currentRole();
  if (role === 'baseline') {
    const baselineDir = process.env[BASELINE_DIR_ENV];
    if (!baselineDir) throw new Error('visual-uat: the baseline pass started without VISUAL_UAT_BASELINE_DIR: run it through withVisualUat');
    return { role, imageRoot: baselineDir, baselineRoot: null, context: null, baseline: null };
  }
  const context = runContext();
  const imageRoot = currentScreenshotsDir(outputDirFor(testInfo));
  if (!context) return { role, imageRoot, baselineRoot: null, context: null, baseline: null };
  const key = testKey(testInfo.project.name, testInfo.titlePath);
  const manifest = context.sameAsBase ? null : baselineManifest(context.baselineDir);
  const record = manifest?.tests[key] ?? null;
  return { role, imageRoot, baselineRoot: context.sameAsBase ? null : context.baselineDir, context, baseline: record, leftOut: !record && !!manifest?.selection };
}

export function checkpointPath(root: string, testInfo: TestInfo, name: string): string {
  return checkpointFile(root, testInfo.project.name, testInfo.titlePath, name);
}

export function testMeta(testInfo: TestInfo, target: CaptureTarget, options: VisualUatTestOptions): TestMeta {
  const baselineError = target.context?.baselineError ?? null;
  const record = target.baseline;
  const available = !!target.context && (target.context.sameAsBase || (!!record && !baselineError && record.status === 'passed'));
  return {
    key: testKey(testInfo.project.name, testInfo.titlePath),
    folder: testFolder(testInfo.project.name, testInfo.titlePath),
    context: target.context,
    baseline: {
      available,
      error: baselineError ?? record?.error ?? (target.context && !target.context.sameAsBase && !record ? notRunReason(target) : null),
      checkpoints: record?.checkpoints ?? [],
    },
    options,
  };
}

function notRunReason(target: CaptureTarget): string {
  if (target.leftOut)
    return 'the baseline pass left this test out: no checkpoint call was found in its source (a checkpoint taken through code visual-uat cannot see; see README "Cold runs")';
  return 'the baseline pass did not run this test';
}

export async function attachTestMeta(testInfo: TestInfo, meta: TestMeta): Promise<void> {
  await testInfo.attach(TEST_META_ATTACHMENT, { body: JSON.stringify(meta), contentType: 'application/json' });
}
