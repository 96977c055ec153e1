import path from 'node:path';
import { outputPath } from '../config/paths';
import type { EvaluatorUsage } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';
import type { CaseOutcome, ConfidenceRow, EvalFigures } from './score';

/**
 * The last eval of one model on this project, kept as `<outputDir>/eval/<model>.json`: what the
 * auto-approve policy reads, and what `visual-uat eval --json` prints.
 */
export interface EvalRecord {
  version: 1;
  model: string;
  baseURL: string | null;
  /** The evaluator prompt's version: an eval of another wording says nothing about this one. */
  promptVersion: number;
  /** ISO 8601, when the eval ended. */
  at: string;
  labels: { source: 'corpus' | 'labels'; folder: string };
  thresholds: { approveAt: number; rejectAt: number };
  figures: EvalFigures;
  /** The highest confidence at which a labelled regression got an unhedged "pass"; null when none did. */
  riskiestApproval: number | null;
  byConfidence: ConfidenceRow[];
  usage: EvaluatorUsage;
  /** False when the model has no price: its cost is unknown, not 0. */
  priced: boolean;
  timeMs: number;
  outcomes: CaseOutcome[];
  /** Label folders that could not be read (skipped), one line each naming the fix. */
  unreadable: string[];
}

/** Model names carry `/` and `:` (`openai/gpt-4o`, `qwen2.5vl:7b`): each becomes a file name of its own. */
export function evalRecordPath(outputDir: string, model: string): string {
  const name = encodeURIComponent(model).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return path.join(outputPath(outputDir, 'eval'), `${name}.json`);
}

export function readEvalRecord(outputDir: string, model: string): EvalRecord | null {
  const record = readJsonFile<EvalRecord>(evalRecordPath(outputDir, model));
  return record && record.version === 1 && record.model === model && Array.isArray(record.outcomes) ? record : null;
}

export function writeEvalRecord(outputDir: string, record: EvalRecord): string {
  const file = evalRecordPath(outputDir, record.model);
  writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}
