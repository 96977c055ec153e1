import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { slug, testKey } from '../config/test-identity';
import type { Explanation } from '../explain';
import type { CheckpointSignals, DiffMetrics } from '../types';
import { schemaProblem } from '../util/schema';
import { errorCode } from '../util/fs';

/**
 * Labelled cases: what a person decided about one changed checkpoint (intended or regression),
 * with the images, intent and commit context it was decided on. One folder per case, holding
 * `case.json` and copies of `baseline.png` and `current.png`, so a label outlives the run whose
 * images it was made on. `visual-uat eval` replays them to measure how far a model can be trusted.
 * The format is documented in docs/labels.md; docs/label-case.schema.json is its definition.
 */

export const CASE_FILE = 'case.json';
export const BASELINE_IMAGE = 'baseline.png';
export const CURRENT_IMAGE = 'current.png';
export const LABEL_FORMAT_VERSION = 1;

export type Label = 'intended' | 'regression';
/** Where a label came from: an Approve, a Reject, or the corpus shipped with visual-uat. */
export type LabelSource = 'approve' | 'reject' | 'corpus';

/** The git side of the decision: the parts of the run's context the evaluator is shown. */
export interface LabelledChange {
  baseBranch: string;
  baseCommit: string;
  currentBranch: string | null;
  currentCommit: string;
  dirty: boolean;
  /** `<short sha> <subject>`, newest first, as the run recorded them. */
  commits: string[];
  /** `<status> <path>` lines. */
  changedFiles: string[];
}

export interface LabelledCase {
  version: typeof LABEL_FORMAT_VERSION;
  id: string;
  label: Label;
  source: LabelSource;
  by: string;
  /** ISO 8601. */
  at: string;
  /** Why the person decided so (an approval's reason), or null. */
  note: string | null;
  /** `titlePath` as the results file has it: spec file, describes, test title. */
  test: { project: string; titlePath: string[]; file: string | null };
  checkpoint: string;
  intent: { test: string | null; checkpoint: string | null };
  /** Null when the run had no git context. */
  change: LabelledChange | null;
  /** As the run measured them; `visual-uat eval` measures them again with the current engine. */
  diffMetrics: DiffMetrics;
  signals: CheckpointSignals;
  /**
   * The change in words as the run explained it, which the model is shown with the images; absent
   * in cases made before explanations existed (the corpus shipped with visual-uat is one).
   */
  explanation?: Explanation | null;
}

/** A changed checkpoint as the place that records a decision knows it (the review page, `approve`). */
export interface DecidedCheckpoint {
  project: string;
  titlePath: string[];
  file: string | null;
  checkpoint: string;
  intent: { test: string | null; checkpoint: string | null };
  /** The run's git context (a RunContext, or what the results file keeps of it); null without one. */
  context: LabelledChange | null;
  diffMetrics: DiffMetrics;
  signals: CheckpointSignals;
  explanation: Explanation | null;
  /** sha256 of the two PNG files, as approvals record them (approve's hashImage). */
  imageHashes: { baseline: string; current: string };
}

export interface Decision {
  label: Label;
  source: LabelSource;
  by: string;
  at: string;
  note: string | null;
}

export interface LoadedCase {
  case: LabelledCase;
  folder: string;
  images: { baseline: string; current: string };
}

export interface LabelStore {
  cases: LoadedCase[];
  /** One line per folder that could not be read, naming it and the fix. */
  problems: string[];
}

/**
 * Readable, and the same for the same checkpoint and images: deciding the same pair again (an
 * Approve after a Reject) replaces the label instead of adding a second, contradictory one.
 */
export function caseId(
  project: string,
  titlePath: readonly string[],
  checkpoint: string,
  imageHashes: { baseline: string; current: string },
): string {
  const hash = crypto
    .createHash('sha256')
    .update([testKey(project, titlePath), checkpoint, imageHashes.baseline, imageHashes.current].join('\0'))
    .digest('hex')
    .slice(0, 10);
  return `${slug([...titlePath.slice(1), checkpoint].join(' '))}-${hash}`;
}

export function labelledCase(checkpoint: DecidedCheckpoint, decision: Decision): LabelledCase {
  const context = checkpoint.context;
  return {
    version: LABEL_FORMAT_VERSION,
    id: caseId(checkpoint.project, checkpoint.titlePath, checkpoint.checkpoint, checkpoint.imageHashes),
    label: decision.label,
    source: decision.source,
    by: decision.by,
    at: decision.at,
    note: decision.note,
    test: { project: checkpoint.project, titlePath: checkpoint.titlePath, file: checkpoint.file },
    checkpoint: checkpoint.checkpoint,
    intent: checkpoint.intent,
    change: context && {
      baseBranch: context.baseBranch,
      baseCommit: context.baseCommit,
      currentBranch: context.currentBranch,
      currentCommit: context.currentCommit,
      dirty: context.dirty,
      commits: context.commits,
      changedFiles: context.changedFiles,
    },
    diffMetrics: checkpoint.diffMetrics,
    signals: checkpoint.signals,
    explanation: checkpoint.explanation,
  };
}

/** Keys in a fixed order, two-space indented: a committed label folder diffs and merges well. */
export function formatCase(labelled: LabelledCase): string {
  const ordered: LabelledCase = {
    version: labelled.version,
    id: labelled.id,
    label: labelled.label,
    source: labelled.source,
    by: labelled.by,
    at: labelled.at,
    note: labelled.note,
    test: { project: labelled.test.project, titlePath: labelled.test.titlePath, file: labelled.test.file },
    checkpoint: labelled.checkpoint,
    intent: { test: labelled.intent.test, checkpoint: labelled.intent.checkpoint },
    change: labelled.change && {
      baseBranch: labelled.change.baseBranch,
      baseCommit: labelled.change.baseCommit,
      currentBranch: labelled.change.currentBranch,
      currentCommit: labelled.change.currentCommit,
      dirty: labelled.change.dirty,
      commits: labelled.change.commits,
      changedFiles: labelled.change.changedFiles,
    },
    diffMetrics: labelled.diffMetrics,
    signals: labelled.signals,
    ...(labelled.explanation !== undefined ? { explanation: labelled.explanation } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** The first thing wrong with a parsed case.json (docs/label-case.schema.json), or null when it is a labelled case. */
export function caseProblem(value: unknown): string | null {
  return schemaProblem('label-case', value)?.text ?? null;
}

function assertSafeId(id: string): void {
  if (!id || id.startsWith('.') || /[\\/\x00-\x1f]/.test(id) || id.length > 120)
    throw new Error(
      `visual-uat: the labelled case id ${JSON.stringify(id)} cannot name a folder: use letters, digits, dashes (at most 120)`,
    );
}

/**
 * Writes `<dir>/<id>/` with case.json and copies of the two images. The folder is built aside and
 * renamed into place, so a reader never sees half a case; an existing case of the same id (the
 * same checkpoint and images decided again) is replaced.
 */
export function writeLabel(dir: string, labelled: LabelledCase, images: { baseline: string; current: string }): string {
  assertSafeId(labelled.id);
  const problem = caseProblem(labelled);
  if (problem) throw new Error(`visual-uat: the labelled case ${labelled.id} is malformed: ${problem}`);
  const target = path.join(dir, labelled.id);
  const staging = path.join(dir, `.${labelled.id}.${process.pid}.${Date.now()}.tmp`);
  fs.mkdirSync(staging, { recursive: true });
  try {
    for (const [source, name] of [
      [images.baseline, BASELINE_IMAGE],
      [images.current, CURRENT_IMAGE],
    ] as const) {
      try {
        fs.copyFileSync(source, path.join(staging, name));
      } catch (error) {
        throw new Error(`visual-uat: cannot keep the labelled case ${labelled.id}: ${source} cannot be read (${errorCode(error)})`);
      }
    }
    fs.writeFileSync(path.join(staging, CASE_FILE), formatCase(labelled));
    const replaced = fs.existsSync(target) ? `${staging}.old` : null;
    if (replaced) fs.renameSync(target, replaced);
    fs.renameSync(staging, target);
    if (replaced) fs.rmSync(replaced, { recursive: true, force: true });
    return target;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function readCase(folder: string): LoadedCase | string {
  const file = path.join(folder, CASE_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no case.json' : `case.json is not valid JSON (${(error as Error).message})`;
    return `${folder}: ${reason}: fix it or delete the folder`;
  }
  const problem = caseProblem(parsed);
  if (problem) return `${file}: ${problem}: fix it or delete the folder`;
  const labelled = parsed as LabelledCase;
  if (labelled.id !== path.basename(folder))
    return `${file}: id "${labelled.id}" does not match its folder "${path.basename(folder)}": rename one of them`;
  const images = { baseline: path.join(folder, BASELINE_IMAGE), current: path.join(folder, CURRENT_IMAGE) };
  const missing = Object.values(images).filter((image) => !fs.existsSync(image));
  if (missing.length)
    return `${folder}: ${missing.map((image) => path.basename(image)).join(' and ')} missing: a label needs both images; delete the folder`;
  return { case: labelled, folder, images };
}

/** Every case under `dir` (one folder each, sorted by id); a missing folder has none. */
export function readLabels(dir: string): LabelStore {
  if (!fs.existsSync(dir)) return { cases: [], problems: [] };
  const folders = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
  const store: LabelStore = { cases: [], problems: [] };
  for (const name of folders) {
    const read = readCase(path.join(dir, name));
    if (typeof read === 'string') store.problems.push(read);
    else store.cases.push(read);
  }
  return store;
}
