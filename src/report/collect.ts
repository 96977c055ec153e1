import fs from 'node:fs';
import path from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import {
  BASELINE_IMAGE_PREFIX,
  BASELINE_SIGNALS_PREFIX,
  CHECKPOINT_META_PREFIX,
  IMAGE_PREFIX,
  TEST_META_ATTACHMENT,
  type CheckpointMeta,
  type TestMeta,
} from '../capture';
import { manifestPath, testFolder, testKey } from '../config/layout';
import type { BaselineManifest, CapturedSignals, RunContext } from '../types';
import { readJsonFile } from '../util/fs';

/** One checkpoint as the two passes left it: images by path, either side possibly absent. */
export interface CheckpointPair {
  name: string;
  meta: CheckpointMeta | null;
  current: string | null;
  baseline: string | null;
  /** What each side captured besides pixels (null: not captured, e.g. by an older version). */
  signals: { base: CapturedSignals | null; current: CapturedSignals | null };
}

/** One test with its checkpoints paired, read from the test result's attachments. */
export interface CollectedTest {
  test: TestCase;
  result: TestResult;
  key: string;
  folder: string;
  meta: TestMeta | null;
  context: RunContext | null;
  pairs: CheckpointPair[];
}

function attachmentBody(result: TestResult, name: string): string | null {
  const attachment = result.attachments.find((a) => a.name === name);
  if (!attachment) return null;
  if (attachment.body) return attachment.body.toString('utf8');
  if (attachment.path && fs.existsSync(attachment.path)) return fs.readFileSync(attachment.path, 'utf8');
  return null;
}

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function imagePaths(result: TestResult, prefix: string): Map<string, string> {
  const images = new Map<string, string>();
  for (const attachment of result.attachments)
    if (attachment.name.startsWith(prefix) && attachment.path) images.set(attachment.name.slice(prefix.length), attachment.path);
  return images;
}

function manifestOf(context: RunContext | null, cache: Map<string, BaselineManifest | null>): BaselineManifest | null {
  if (!context || context.sameAsBase) return null;
  if (!cache.has(context.baselineDir))
    cache.set(context.baselineDir, readJsonFile<BaselineManifest>(manifestPath(context.baselineDir)));
  return cache.get(context.baselineDir) ?? null;
}

/**
 * Pairs the checkpoints of every test that took one (in either pass). Everything comes from the
 * result's attachments, so the same code serves a local run and `merge-reports` of blob shards;
 * the baseline manifest on disk only adds checkpoints the current pass did not take.
 */
export function collectTests(tests: TestCase[], fallbackContext: RunContext | null): CollectedTest[] {
  const manifests = new Map<string, BaselineManifest | null>();
  const collected: CollectedTest[] = [];
  for (const test of tests) {
    const result = test.results[test.results.length - 1];
    if (!result) continue;
    const meta = parseJson<TestMeta>(attachmentBody(result, TEST_META_ATTACHMENT));
    const context = meta?.context ?? fallbackContext;
    const projectName = test.parent.project()?.name ?? '';
    const titlePath = test.titlePath().slice(2);
    const key = meta?.key ?? testKey(projectName, titlePath);
    const folder = meta?.folder ?? testFolder(projectName, titlePath);
    const current = imagePaths(result, IMAGE_PREFIX);
    const baselines = imagePaths(result, BASELINE_IMAGE_PREFIX);
    const names = new Set<string>(current.keys());
    const record = manifestOf(context, manifests)?.tests[key];
    const baselineNames = meta?.baseline.checkpoints ?? record?.checkpoints ?? [];
    for (const name of baselineNames) names.add(name);
    if (names.size === 0) continue;
    const pairs = [...names].map((name) => {
      let baseline = baselines.get(name) ?? null;
      if (!baseline && context && !context.sameAsBase && !current.has(name)) {
        const onDisk = path.join(context.baselineDir, folder, `${name}.png`);
        if (fs.existsSync(onDisk)) baseline = onDisk;
      }
      const meta = parseJson<CheckpointMeta>(attachmentBody(result, `${CHECKPOINT_META_PREFIX}${name}`));
      return {
        name,
        meta,
        current: current.get(name) ?? null,
        baseline,
        signals: {
          base: parseJson<CapturedSignals>(attachmentBody(result, `${BASELINE_SIGNALS_PREFIX}${name}`)),
          current: meta?.signals ?? null,
        },
      };
    });
    collected.push({ test, result, key, folder, meta, context, pairs });
  }
  return collected;
}
