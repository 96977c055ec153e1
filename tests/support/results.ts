import fs from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../src/report';

export function readLatest(dir: string, outputDir = '.visual-uat'): RunResult {
  return JSON.parse(fs.readFileSync(path.join(dir, outputDir, 'results', 'latest.json'), 'utf8')) as RunResult;
}

export function checkpoint(run: RunResult, testTitle: string, name: string) {
  const test = run.tests.find((t) => t.title === testTitle);
  const found = test?.checkpoints.find((c) => c.name === name);
  if (!test || !found) throw new Error(`no checkpoint ${testTitle} › ${name} in ${JSON.stringify(run.tests.map((t) => [t.title, t.checkpoints.map((c) => c.name)]))}`);
  return { test, checkpoint: found };
}

export function statuses(run: RunResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const test of run.tests) for (const c of test.checkpoints) out[`${test.title} › ${c.name}`] = c.status;
  return out;
}

/** The demo app's checkpoints on its feature branch, without an evaluator. */
export const DEMO_STATUSES = {
  'home › landing': 'unchanged',
  'plans › plans': 'needs_review',
  'plans › header': 'unchanged',
  'about › contact': 'needs_review',
  'pricing › pricing-header': 'unchanged',
};
