import fs from 'node:fs';
import path from 'node:path';
import {
  labelledCase,
  recordDecisions,
  writeLabel,
  type ApprovalSubject,
  type DecisionRequest,
  type LabelledChange,
  type Recorded,
  type DecisionKind,
} from '../approve';
import type { Settings } from '../config/settings';
import { decodeChange } from '../compare';
import { unexplainedWords } from '../explain';
import { runGit } from '../git';
import { checkpointKey, testKey } from '../config/test-identity';
import { outputPath } from '../config/paths';
import type { RunResult } from '../report';
import type { CheckpointResult, GroupRecord, TestResultRecord } from '../report/results';
import { checkpointTitle } from '../report/summary';
import { ENV } from '../config/environment';
import { schemaProblem } from '../util/schema';

/**
 * The latest run as `approve`, `reject`, `report` and the review page see it: read from the
 * results file alone (a local run, or an output folder downloaded from CI after merge-reports),
 * with images that still open.
 */

/**
 * The latest results file, checked against docs/results.schema.json as every file visual-uat reads
 * back is: one it cannot read (cut short, edited, written by another visual-uat version) is one line
 * that says to run the tests again.
 */
export function readLatestRun(outputDir: string): RunResult {
  const file = outputPath(outputDir, 'latestResults');
  const shown = path.relative(process.cwd(), file) || file;
  if (!fs.existsSync(file))
    throw new Error(`visual-uat: no run yet (${shown} does not exist): run npx visual-uat test (or npx playwright test) first`);
  let run: unknown;
  try {
    run = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    run = undefined;
  }
  const problem = run === undefined ? 'it is not JSON' : schemaProblem('results', run)?.text;
  if (problem) throw new Error(`visual-uat: ${shown} does not read as a results file (${problem}): run the tests again`);
  return run as RunResult;
}

/** "2026-11-23 23:43:39 UTC: main @ f9a1655f → feature/pricing @ 6c054beb": when the run ended and what it compared. */
export function runHeading(run: RunResult): string {
  const when = new Date(run.timestamp).toISOString().replace('T', ' ').slice(0, 19);
  const base = run.baseCommit ? `${run.baseBranch} @ ${run.baseCommit.slice(0, 8)}` : 'no base';
  const current = `${run.currentBranch ?? 'detached'} @ ${(run.currentCommit ?? '').slice(0, 8)}${run.dirty ? ' (dirty)' : ''}`;
  return `${when} UTC: ${base} → ${current}`;
}

/** A checkpoint of the latest run. */
export interface RunCheckpoint {
  /** `<test key> › <checkpoint>`, as the results' groups name it. */
  key: string;
  /** `<title path> › <checkpoint>`, as the table shows it. */
  title: string;
  test: TestResultRecord;
  checkpoint: CheckpointResult;
  subject: ApprovalSubject;
}

/**
 * The latest run's checkpoints with their images as files. A checkpoint whose recorded image is
 * gone from disk is left out: the approval rule cannot tell anything about it.
 */
export function runCheckpoints(run: RunResult, outputDir: string): RunCheckpoint[] {
  const dir = outputPath(outputDir, 'results');
  const file = (recorded: string | null) => (recorded ? path.resolve(dir, recorded) : null);
  return run.tests.flatMap((test) =>
    test.checkpoints.flatMap((checkpoint) => {
      const baselineImage = file(checkpoint.baselineImage);
      const currentImage = file(checkpoint.currentImage);
      if ([baselineImage, currentImage].some((image) => image && !fs.existsSync(image))) return [];
      const key = testKey(test.project, test.titlePath);
      const change = checkpoint.fingerprint ? decodeChange(checkpoint.fingerprint) : null;
      return [
        {
          key: checkpointKey(key, checkpoint.name),
          title: checkpointTitle(test, checkpoint.name),
          test,
          checkpoint,
          subject: { test: key, project: test.project, checkpoint: checkpoint.name, baselineImage, currentImage, change },
        },
      ];
    }),
  );
}

/** The git user of the config's repository, as a decision records who took it. */
export async function reviewer(configDir: string): Promise<string> {
  const read = async (key: string) => (await runGit(configDir, ['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (name || email) return email ? `${name || email} <${email}>` : name;
  return ENV.user.read() ?? 'unknown';
}

/** Who decides, when, why. */
export interface Decider {
  by: string;
  at: string;
  reason: string | null;
}

/** The groups a checkpoint shows, its dominant one first: a person who decides on it by name decides on all of them. */
export function groupsShownBy(run: RunResult, checkpoint: RunCheckpoint): GroupRecord[] {
  return [checkpoint.checkpoint.group, ...checkpoint.checkpoint.otherGroups].flatMap((id) => run.groups.filter((group) => group.id === id));
}

/** The checkpoints of the run that show a group's change. */
export function groupCheckpoints(group: GroupRecord, checkpoints: RunCheckpoint[]): RunCheckpoint[] {
  const keys = new Set([...group.members, ...group.alsoIn]);
  return checkpoints.filter((c) => keys.has(c.key));
}

/**
 * What a checkpoint shows of a group's change, as the run grouped it (a fingerprint): its part of the group when it is in several, its
 * whole change when in one; null when it does not show the group. A decision on the group covers this part there, as the run checks it.
 */
export function groupPartOf(checkpoint: CheckpointResult, groupId: string): string | null {
  if (checkpoint.group !== groupId && !checkpoint.otherGroups.includes(groupId)) return null;
  return checkpoint.groupParts?.[groupId] ?? checkpoint.fingerprint;
}

/** A decision on a group's change: wherever it appears, now and in later runs; in each project, as that project showed it. */
export function groupDecision(group: GroupRecord, checkpoints: RunCheckpoint[], decision: DecisionKind, decider: Decider): DecisionRequest {
  const targets = groupCheckpoints(group, checkpoints).map((c) => ({
    subject: c.subject,
    whole: c.checkpoint.group === group.id && c.checkpoint.otherGroups.length === 0,
    part: groupPartOf(c.checkpoint, group.id) ?? undefined,
    unexplained: unexplainedWords(c.checkpoint.explanation),
  }));
  return {
    decision,
    scope: 'change',
    change: group.fingerprint,
    ...(group.projects ? { projects: group.projects } : {}),
    checkpoints: targets,
    ...decider,
  };
}

/** A decision on one checkpoint's whole change, there only. */
export function checkpointDecision(checkpoint: RunCheckpoint, decision: DecisionKind, decider: Decider): DecisionRequest {
  const target = { subject: checkpoint.subject, whole: true, unexplained: unexplainedWords(checkpoint.checkpoint.explanation) };
  return { decision, scope: 'checkpoints', change: checkpoint.checkpoint.fingerprint!, checkpoints: [target], ...decider };
}

/** The run's git context as a label keeps it; null when the run had none. */
function runChange(run: RunResult): LabelledChange | null {
  if (!run.baseCommit || !run.currentCommit) return null;
  const { baseCommit, currentBranch, currentCommit, dirty, commits, changedFiles } = run;
  return { baseBranch: run.baseBranch ?? baseCommit, baseCommit, currentBranch, currentCommit, dirty, commits, changedFiles };
}

export interface RecordedDecisions extends Recorded {
  /** The labelled cases written, one folder each. */
  labels: string[];
  /** Why a case could not be kept, one line each (the decisions are recorded regardless). */
  labelProblems: string[];
}

/**
 * Records decisions on the latest run's checkpoints: the approvals file (approve/decisions.ts, the
 * one rule), then one labelled case per decision for `visual-uat eval`, taken on the first
 * checkpoint the decided change is all of. One case per decision and not per checkpoint: forty
 * pages showing one header change are one question for the model, not forty.
 */
export function recordRunDecisions(
  settings: Settings,
  run: RunResult,
  checkpoints: RunCheckpoint[],
  requests: DecisionRequest[],
  options: { dryRun?: boolean } = {},
): RecordedDecisions {
  const recorded = recordDecisions(
    settings.configDir,
    checkpoints.map((c) => c.subject),
    requests,
    options,
  );
  const result: RecordedDecisions = { ...recorded, labels: [], labelProblems: [] };
  if (!recorded.written) return result;
  requests.forEach((request, i) => {
    const at = request.checkpoints.findIndex((target) => target.whole);
    const hashes = recorded.added[i].checkpoints[at];
    const decided = checkpoints.find((c) => c.subject === request.checkpoints[at]?.subject);
    if (!decided || !hashes?.baseline || !hashes.current) return;
    const { test, checkpoint, subject } = decided;
    const labelled = labelledCase(
      {
        project: test.project,
        titlePath: test.titlePath,
        file: test.file,
        checkpoint: checkpoint.name,
        intent: { test: test.intent, checkpoint: checkpoint.intent },
        context: runChange(run),
        diffMetrics: checkpoint.diffMetrics,
        signals: checkpoint.signals,
        explanation: checkpoint.explanation ?? null,
        imageHashes: { baseline: hashes.baseline, current: hashes.current },
      },
      {
        label: request.decision === 'approved' ? 'intended' : 'regression',
        source: request.decision === 'approved' ? 'approve' : 'reject',
        by: request.by,
        at: request.at,
        note: request.reason,
      },
    );
    try {
      result.labels.push(writeLabel(settings.labelsDir, labelled, { baseline: subject.baselineImage!, current: subject.currentImage! }));
    } catch (error) {
      result.labelProblems.push((error as Error).message);
    }
  });
  return result;
}
