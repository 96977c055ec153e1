import fs from 'node:fs';
import path from 'node:path';
import approvalsSchema from '../../docs/approvals.schema.json';
import { writeFileAtomic } from '../util/fs';
import { schemaProblem } from '../util/schema';

/**
 * The human gate's memory: `visual-uat.approvals.json` beside the Playwright config, meant to be
 * committed. A decision (an approval, or a rejection) names a change by its fingerprint and the
 * checkpoints it was taken on; approve/rule.ts says where it applies. Its format is
 * docs/approvals.schema.json, which every read checks, the whole file: the global setup reads it
 * before any test runs, and each command that writes it reads it first, so a file that does not
 * read stops the run at once and is never written over.
 */

export const APPROVALS_FILE = 'visual-uat.approvals.json';

export type DecisionKind = 'approved' | 'rejected';

/**
 * Where a decision applies: `change`, wherever its change appears (a whole group, and a new page
 * with the same change later); `checkpoints`, only on the checkpoints it lists.
 */
export type Scope = 'change' | 'checkpoints';

/** A checkpoint a decision was taken on. */
export interface ApprovalCheckpoint {
  /** The test key (project › file › describes › title). */
  test: string;
  checkpoint: string;
  /** sha256 of the baseline and current PNG files, when the decided change was the checkpoint's whole change; else null. */
  baseline: string | null;
  current: string | null;
  /**
   * The part of the decided change this checkpoint showed, when it showed only part of it (a full
   * page with a footer's text boxes, whose strip is in a band of its own); absent: all of it.
   */
  change?: string;
  /**
   * The changed regions of the checkpoint its explanation did not account for when the decision
   * was taken ("2 of 7 changed regions not explained: at (0, 120) 1280×400, …"): what was decided
   * on the images alone. Absent: the words accounted for every region, or there were none.
   */
  unexplained?: string;
}

export interface Approval {
  decision: DecisionKind;
  scope: Scope;
  checkpoints: ApprovalCheckpoint[];
  by: string;
  at: string;
  reason: string | null;
  /** The change's fingerprint (compare/fingerprint.ts). */
  change: string;
  /**
   * For a change decided in more than one Playwright project (the same words, other pixels: a
   * desktop and a mobile viewport), by project: its fingerprint as that project showed it. Absent:
   * `change` is what every project showed.
   */
  projects?: Record<string, string>;
}

/**
 * A decision as the file holds it: whether it approves or rejects under the key `verdict`, its name
 * before the code said `decision`, kept so that committed files and older visual-uat versions on
 * teammates' machines read what a newer one writes. fromFile and toFile map the one to the other.
 */
export interface StoredApproval extends Omit<Approval, 'decision'> {
  verdict: DecisionKind;
}

function fromFile({ verdict, ...rest }: StoredApproval): Approval {
  return { decision: verdict, ...rest };
}

function toFile({ decision, ...rest }: Approval): StoredApproval {
  return { verdict: decision, ...rest };
}

const KEY_ORDER: (keyof StoredApproval)[] = ['verdict', 'scope', 'checkpoints', 'by', 'at', 'reason', 'change'];
const CHECKPOINT_KEY_ORDER: (keyof ApprovalCheckpoint)[] = ['test', 'checkpoint', 'baseline', 'current'];

/** The versions this visual-uat reads (the schema's). */
const READ_VERSIONS: number[] = approvalsSchema.properties.version.enum;
/**
 * Decisions; and decisions some of which keep each project's print, written only then so that
 * visual-uat versions before it still read the others.
 */
const DECISIONS_VERSION = 2;
const PROJECTS_VERSION = 3;

/** The approvals file does not read: one line naming it, what is wrong and the fix. */
export class ApprovalsFileError extends Error {}

export function approvalsPath(configDir: string): string {
  return path.join(configDir, APPROVALS_FILE);
}

interface ApprovalsFile {
  version: number;
  approvals: StoredApproval[];
}

/** Why a parsed approvals file does not read, in one line with the fix; null when it reads. */
function fileProblem(file: string, parsed: unknown): string | null {
  const problem = schemaProblem('approvals', parsed);
  if (!problem) return null;
  const [field, index] = problem.path;
  if (field === 'version' && problem.path.length === 1) {
    const version = JSON.stringify((parsed as { version: unknown }).version);
    return (
      `visual-uat: ${file}: version ${version} is not one this visual-uat reads (${READ_VERSIONS.join(' or ')}): ` +
      `upgrade visual-uat if a newer one wrote it, else restore the file from git`
    );
  }
  if (field === 'approvals' && index !== undefined) {
    const entry = (parsed as ApprovalsFile).approvals[Number(index)];
    const inEntry = schemaProblem('approval-entry', entry, 'the entry')!.text;
    return (
      `visual-uat: entry ${Number(index) + 1} of ${file} is not an approval (${inEntry}: ${JSON.stringify(entry).slice(0, 120)}): ` +
      `fix or delete it`
    );
  }
  return (
    `visual-uat: ${file}: ${problem.text}: fix it to {"version": ${DECISIONS_VERSION}, "approvals": [...]} ` +
    `as visual-uat's docs/approvals.schema.json describes, or restore it from git`
  );
}

/** A line git writes into a file it could not merge. */
const CONFLICT_MARKER = /^(<{7}|={7}|>{7})( |$)/m;

/** The decisions in the approvals file ([] when there is none); throws ApprovalsFileError when it does not read. */
export function readApprovals(configDir: string): Approval[] {
  const file = approvalsPath(configDir);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Node quotes the text around the fault, line breaks and all: the message stays one line.
    const fault = (error as Error).message.replace(/\s+/g, ' ');
    const fix = CONFLICT_MARKER.test(text)
      ? 'resolve the merge conflict (keep the entries of both sides) or delete the broken entry'
      : 'restore it from git (git checkout -- visual-uat.approvals.json) or fix the JSON';
    throw new ApprovalsFileError(`visual-uat: ${file} is not valid JSON (${fault}): ${fix}`);
  }
  const problem = fileProblem(file, parsed);
  if (problem) throw new ApprovalsFileError(problem);
  return (parsed as ApprovalsFile).approvals.map(fromFile);
}

function byCheckpoint(a: ApprovalCheckpoint, b: ApprovalCheckpoint): number {
  return a.test.localeCompare(b.test) || a.checkpoint.localeCompare(b.checkpoint);
}

function ordered<T extends object>(value: T, keys: (keyof T)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, value[key] ?? null]));
}

/** Sorted, stable key order, one decision per line (its fingerprints last): diffs and merges of the file stay readable. */
export function formatApprovals(approvals: Approval[]): string {
  const normalised = approvals
    .filter((approval) => approval.checkpoints.length > 0)
    .map((approval) => ({ ...approval, checkpoints: [...approval.checkpoints].sort(byCheckpoint) }));
  const sorted = normalised.sort(
    (a, b) => byCheckpoint(a.checkpoints[0], b.checkpoints[0]) || a.at.localeCompare(b.at) || a.decision.localeCompare(b.decision),
  );
  const lines = sorted.map((approval) => {
    const entry = ordered(toFile(approval), KEY_ORDER);
    entry.checkpoints = approval.checkpoints.map((checkpoint) => ({
      ...ordered(checkpoint, CHECKPOINT_KEY_ORDER),
      ...(checkpoint.change ? { change: checkpoint.change } : {}),
      ...(checkpoint.unexplained ? { unexplained: checkpoint.unexplained } : {}),
    }));
    if (approval.projects) entry.projects = approval.projects;
    return `    ${JSON.stringify(entry)}`;
  });
  const version = approvals.some((approval) => approval.projects) ? PROJECTS_VERSION : DECISIONS_VERSION;
  return `{\n  "version": ${version},\n  "approvals": [\n${lines.join(',\n')}${lines.length ? '\n' : ''}  ]\n}\n`;
}

export function writeApprovals(configDir: string, approvals: Approval[]): void {
  writeFileAtomic(approvalsPath(configDir), formatApprovals(approvals));
}
