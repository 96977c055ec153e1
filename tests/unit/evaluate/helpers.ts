import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareImages, NO_SIGNALS } from '../../../src/compare';
import { createEvaluator, type EvaluationRequest, type Evaluator } from '../../../src/evaluate';
import type { EvaluatorOptions, RunContext } from '../../../src/types';
import { writePng } from '../../support/png';

export const API_KEY = 'sk-test-DO-NOT-LEAK-0123456789abcdef';

export const CONTEXT: RunContext = {
  baseBranch: 'main',
  baseRef: 'main',
  baseCommit: 'a'.repeat(40),
  currentBranch: 'feature/pro-plan',
  currentCommit: 'b'.repeat(40),
  dirty: true,
  sameAsBase: false,
  commits: ['Highlight the Pro plan', 'Tidy pricing copy'],
  changedFiles: ['src/pricing.tsx', 'src/pricing.css'],
  appFilesChanged: ['src/pricing.tsx', 'src/pricing.css'],
  baselineDir: '/unused',
  baselineError: null,
};

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-eval-'));
}

export interface PairOptions {
  width?: number;
  height?: number;
  /** Where the change is (a 100×40 box). */
  changeAt?: { x: number; y: number };
  currentHeight?: number;
  /** The changed box's colour in the current image (default blue). */
  colour?: [number, number, number, number];
  /** How many checkpoints share the change (default 1). */
  checkpoints?: number;
}

/** A real changed pair: two PNGs, compared by the product's own diff engine. */
export async function changedPair(dir: string, name: string, options: PairOptions = {}): Promise<EvaluationRequest> {
  const width = options.width ?? 320;
  const height = options.height ?? 240;
  const at = options.changeAt ?? { x: 20, y: 20 };
  const folder = path.join(dir, 'images', name);
  const baseline = writePng(path.join(folder, 'baseline.png'), width, height, [
    { ...at, width: 100, height: 40, rgba: [200, 200, 200, 255] },
  ]);
  const current = writePng(path.join(folder, 'current.png'), width, options.currentHeight ?? height, [
    { ...at, width: 100, height: 40, rgba: options.colour ?? [30, 90, 220, 255] },
  ]);
  const outcome = await compareImages({
    baseline,
    current,
    diffOutput: path.join(folder, 'diff.png'),
    tolerance: { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 },
  });
  if (outcome.kind !== 'different') throw new Error(`test pair ${name} did not differ`);
  return {
    name,
    project: 'chromium',
    intent: {
      test: 'Pricing shows three plans; the Pro plan is highlighted',
      checkpoint: 'The Pro card is blue',
      titlePath: ['pricing.spec.ts', 'pricing'],
    },
    context: CONTEXT,
    metrics: outcome.metrics,
    signals: NO_SIGNALS,
    images: { baseline, current, diff: outcome.diffImage },
    change: outcome.change,
    group: { id: 'g1', shownOn: Array.from({ length: options.checkpoints ?? 1 }, (_, i) => `pricing.spec.ts › page ${i + 1} › ${name}`) },
  };
}

export interface Harness {
  evaluator: Evaluator;
  outputDir: string;
  log: string[];
}

/** An evaluator against a fake server, with a short backoff so retry tests stay fast. */
export function evaluatorFor(baseURL: string, outputDir: string, options: EvaluatorOptions = {}, heartbeatMs?: number): Harness {
  const log: string[] = [];
  const evaluator = createEvaluator(
    { model: 'gpt-4o-mini', ...options },
    { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: baseURL },
    { outputDir, log: (line) => log.push(line), heartbeatMs, callPolicy: { backoffBaseMs: 1, backoffMaxMs: 5 } },
  );
  if (!evaluator) throw new Error('expected an evaluator');
  return { evaluator, outputDir, log };
}
