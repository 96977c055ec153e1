import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/fs';

/**
 * The human gate's memory: `visual-uat.approvals.json` beside the Playwright config, meant to be
 * committed. An approval names a test, a checkpoint and the exact pair of images it accepted, so
 * it never carries over to a different change.
 */

export const APPROVALS_FILE = 'visual-uat.approvals.json';

export interface Approval {
  test: string;
  checkpoint: string;
  /** sha256 of the baseline and current PNG files. */
  baseline: string;
  current: string;
  by: string;
  at: string;
  reason: string | null;
}

const KEY_ORDER: (keyof Approval)[] = ['test', 'checkpoint', 'baseline', 'current', 'by', 'at', 'reason'];

export function approvalsPath(configDir: string): string {
  return path.join(configDir, APPROVALS_FILE);
}

export function hashImage(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function readApprovals(configDir: string): Approval[] {
  const file = approvalsPath(configDir);
  if (!fs.existsSync(file)) return [];
  let parsed: { approvals?: Approval[] };
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`visual-uat: ${file} is not valid JSON (${(error as Error).message}): fix the merge conflict or delete the broken entry`);
  }
  return Array.isArray(parsed.approvals) ? parsed.approvals : [];
}

/** Sorted, stable key order, one approval per line: diffs and merges of the file stay readable. */
export function formatApprovals(approvals: Approval[]): string {
  const sorted = [...approvals].sort((a, b) => a.test.localeCompare(b.test) || a.checkpoint.localeCompare(b.checkpoint));
  const lines = sorted.map((approval) => `    ${JSON.stringify(Object.fromEntries(KEY_ORDER.map((key) => [key, approval[key] ?? null])))}`);
  return `{\n  "version": 1,\n  "approvals": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

export function writeApprovals(configDir: string, approvals: Approval[]): void {
  writeFileAtomic(approvalsPath(configDir), formatApprovals(approvals));
}

export function sameCheckpoint(a: Pick<Approval, 'test' | 'checkpoint'>, b: Pick<Approval, 'test' | 'checkpoint'>): boolean {
  return a.test === b.test && a.checkpoint === b.checkpoint;
}

export function describeApproval(approval: Approval): string {
  return `approved by ${approval.by} on ${approval.at.slice(0, 10)}${approval.reason ? `: ${approval.reason}` : ''}`;
}

export {
  BASELINE_IMAGE,
  CASE_FILE,
  CURRENT_IMAGE,
  LABEL_FORMAT_VERSION,
  caseId,
  caseProblem,
  formatCase,
  labelledCase,
  labelsFolder,
  readLabels,
  writeLabel,
  type DecidedCheckpoint,
  type Decision,
  type Label,
  type LabelSource,
  type LabelStore,
  type LabelledCase,
  type LabelledChange,
  type LoadedCase,
} from './labels';
