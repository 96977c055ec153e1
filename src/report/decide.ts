import { describeApproval, type Approval, type CoveringDecision } from '../approve';
import type { BaseCapture } from '../capture';
import { hasNewSignals, NO_DIFF, type ChangePrint, type PairComparison } from '../compare';
import type { EvaluatorVerdict } from '../evaluate';
import { interactionOnly, type Explanation } from '../explain';
import type { CheckpointSignals, CheckpointStatus, DiffMetrics, Evaluation, FailOn, Region, TestStatus } from '../types';
import { firstLine, plural } from '../util/text';
import { imagesOf, type Compared } from './assess';
import { projectsLabel } from '../config/test-identity';

export const NO_EVALUATOR_REASON = 'no evaluator configured';

/** One change of a changed pair, and what decided it. */
export interface ChangeInput {
  /** Its group id. */
  group: string;
  /** The part of the checkpoint's change that is this group's (grouping partsOf): what a decision on the group must cover here. */
  part: ChangePrint;
  /** How many other checkpoints of the run show it. */
  others: number;
  /** The Playwright projects that show it, when more than one (the same words at other viewports); else none. */
  projects?: string[];
  /** A person's decision on it (the human gate), when one applies. */
  covering: CoveringDecision | null;
  /** An approval of the same change on other checkpoints, when no decision applies here: a person must look. */
  resembles: Approval | null;
  /** The evaluator's verdict on its group (the AI gate); null when nobody judged it. */
  judgement: EvaluatorVerdict | null;
}

/** Everything a checkpoint's final status depends on. */
export interface RulingInput {
  comparison: PairComparison;
  /** Why the base pass has no image of the checkpoint, when it has none. */
  baseError: string | null;
  /** For a pair that differs: its changes, the dominant one first. */
  changes: ChangeInput[];
  signals: CheckpointSignals;
  /** Whether the current capture settled (null: current took none), and where it still changed when it did not. */
  stable?: boolean | null;
  unsettled?: Region | null;
  /** What the base pass recorded of this capture (null: no record of the test). */
  baseCapture?: BaseCapture | null;
  /** How the current test ended: one that did not pass may have stopped before a checkpoint. */
  currentTest?: { status: string; error: string | null };
  /**
   * For a pair that differs only where the pointer or focus differs between the sides: those states in words (explain/ `interactionOnly`).
   */
  interactionOnly?: string[] | null;
}

/** What decide rules for a checkpoint, or for one change on it: its status and the reason. */
export interface Ruling {
  status: CheckpointStatus;
  reason: string;
  evaluation: Evaluation | null;
}

function signalsSummary(signals: CheckpointSignals): string {
  const parts = [
    [signals.newConsoleErrors.length, 'console error'],
    [signals.newFailedRequests.length, 'failed request'],
    [signals.newA11yViolations.length, 'accessibility violation'],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, what]) => plural(count, `new ${what}`))
    .join(', ');
}

/** The evaluator may approve the pixels; new errors on the page still need a person's eyes. */
function judged(judgement: EvaluatorVerdict, signals: CheckpointSignals): Ruling {
  const ruling = { status: judgement.status, reason: judgement.reason, evaluation: judgement.evaluation };
  if (judgement.status !== 'changed' || !hasNewSignals(signals)) return ruling;
  return { ...ruling, status: 'needs_review', reason: `${judgement.reason} Not approved: ${signalsSummary(signals)}.` };
}

function decidedOn(approval: Approval): string {
  const [first] = approval.checkpoints;
  const others = approval.checkpoints.length > 1 ? ` (and ${plural(approval.checkpoints.length - 1, 'other checkpoint')})` : '';
  return `${first.test} › ${first.checkpoint}${others}`;
}

/**
 * A change decided alone: a person's decision, else a person must look at a change approved
 * elsewhere only, else the evaluator's verdict, else it needs review.
 */
export function decideChange(change: ChangeInput, signals: CheckpointSignals): Ruling {
  const { covering, resembles } = change;
  if (covering) {
    const carried = covering.how === 'same-change' ? ` (the same change on ${decidedOn(covering.approval)})` : '';
    return {
      status: covering.decision === 'rejected' ? 'regression' : 'changed',
      reason: `${describeApproval(covering.approval)}${carried}`,
      evaluation: null,
    };
  }
  if (resembles)
    return {
      status: 'needs_review',
      reason:
        `same as the change approved in ${decidedOn(resembles)} (${describeApproval(resembles)}); not approved here: ` +
        `nobody saw it on this checkpoint`,
      evaluation: null,
    };
  if (change.judgement) return judged(change.judgement, signals);
  return { status: 'needs_review', reason: NO_EVALUATOR_REASON, evaluation: null };
}

const SEVERITY: CheckpointStatus[] = ['changed', 'needs_review', 'regression'];

/** The index of the most severe of a checkpoint's rulings (a regression over a review over a change; the first on a tie). */
export function mostSevere(rulings: Pick<Ruling, 'status'>[]): number {
  return rulings.reduce((w, d, i) => (SEVERITY.indexOf(d.status) > SEVERITY.indexOf(rulings[w].status) ? i : w), 0);
}

/** "same change as 2 other checkpoints (group g1)", "… (group g1, in [desktop, mobile])": what a member of a group is told. */
export function groupNote(change: Pick<ChangeInput, 'group' | 'others' | 'projects'>): string {
  const projects = change.projects?.length ? `, in ${projectsLabel(change.projects)}` : '';
  return `same change as ${plural(change.others, 'other checkpoint')} (group ${change.group}${projects})`;
}

/**
 * A changed pair's status: the most severe of its changes' (a regression anywhere is a
 * regression; a change nobody approved needs review). The reason is that change's, naming its
 * group, then the other changes' groups.
 */
function decideChanges(changes: ChangeInput[], signals: CheckpointSignals): Ruling {
  const rulings = changes.map((change) => decideChange(change, signals));
  const worst = mostSevere(rulings);
  const shared = changes[worst].others > 0 ? [groupNote(changes[worst])] : [];
  const notes = [
    ...shared,
    ...changes.flatMap((change, i) => (i === worst ? [] : [`also group ${change.group} (${rulings[i].status}: ${rulings[i].reason})`])),
  ];
  const { status, reason, evaluation } = rulings[worst];
  return { status, reason: notes.length ? `${reason} — ${notes.join('; ')}` : reason, evaluation };
}

/** How a test that did not pass ended, in words (a timeout is a failure). */
function ending(testStatus: string): string {
  return testStatus === 'interrupted' || testStatus === 'skipped' ? `was ${testStatus}` : 'failed';
}

/** An error's first line, in brackets, to follow what it explains ('' for none). */
function because(error: string | null | undefined): string {
  return error ? ` (${firstLine(error)})` : '';
}

/** Why the current run has no image of a checkpoint the base took. */
function notCaptured(test: RulingInput['currentTest']): string {
  if (!test || test.status === 'passed' || test.status === 'skipped') return 'the current run did not capture it';
  return `the current test ${ending(test.status)} before it took this checkpoint${because(test.error)}`;
}

/**
 * What a checkpoint's base capture is worth when its base test did not pass, in one line: the
 * error's first line only (the whole error is the test's `baseError` and in the baseline log).
 */
export function baseFailureNote(capture: BaseCapture): string {
  const ended = `the base test ${ending(capture.testStatus)}`;
  const why = because(capture.error);
  if (!capture.taken) return `${ended} before it took this checkpoint${why}`;
  if (capture.settled) return `${ended} after this capture${why}; compared with the capture it took`;
  return `${ended} after this capture, which ${capture.settled === false ? 'never settled' : 'is not known to have settled'}${why}`;
}

/** Whether a checkpoint's base test did not pass (its capture is compared with only when it held still). */
export function baseFailed(capture: BaseCapture | null | undefined): capture is BaseCapture {
  return !!capture && capture.testStatus !== 'passed';
}

/** Why a checkpoint the current run took has no baseline, in one line. */
function noBaselineReason(input: RulingInput): string {
  const capture = input.baseCapture;
  if (baseFailed(capture)) return baseFailureNote(capture);
  return input.baseError ? firstLine(input.baseError) : 'the base version does not take this checkpoint';
}

/**
 * A checkpoint's status and reason, decided once: the auto gate (identical or within tolerance is
 * unchanged), then per change the human gate (a decision in the approvals file), then the AI gate
 * (the evaluator's verdict on its group); a change nobody judged needs review. A base image its
 * test left before failing is compared with, and the reason says so first.
 */
export function decide(input: RulingInput): Ruling {
  const ruling = decideComparison(input);
  const capture = input.baseCapture;
  const kind = input.comparison.kind;
  const compared = kind !== 'current-only' && kind !== 'baseline-only' && kind !== 'same-code';
  return compared && baseFailed(capture) ? { ...ruling, reason: `${baseFailureNote(capture)}; ${ruling.reason}` } : ruling;
}

function decideComparison(input: RulingInput): Ruling {
  const { comparison } = input;
  const plain = (status: CheckpointStatus, reason: string): Ruling => ({ status, reason, evaluation: null });
  switch (comparison.kind) {
    case 'baseline-only':
      return plain('missing', `in the baseline only: ${notCaptured(input.currentTest)}`);
    case 'same-code':
      return plain('unchanged', 'base and current are the same commit with a clean tree');
    case 'current-only':
      return plain('new', `no baseline: ${noBaselineReason(input)}`);
    case 'errored':
      return plain('errored', comparison.message);
    case 'identical':
      return plain('unchanged', 'identical');
    case 'within-tolerance':
      return plain(
        'unchanged',
        comparison.metrics.changedRegions.length ? 'within tolerance' : 'within tolerance: pixels differ, none past the colour threshold',
      );
    case 'different': {
      if (input.interactionOnly?.length && !input.changes.length) return plain('unsteady', unsteadyReason(input.interactionOnly));
      const ruling = input.changes.length ? decideChanges(input.changes, input.signals) : plain('needs_review', NO_EVALUATOR_REASON);
      return input.stable === false ? { ...ruling, reason: `${unsettledNote(input.unsettled ?? null)}; ${ruling.reason}` } : ruling;
    }
  }
}

/**
 * Why a difference the test's own pointer or focus made is not the app's change, and what to do:
 * the status the default failOn leaves out, with the fix in the test.
 */
export function unsteadyReason(states: readonly string[]): string {
  return (
    `the test left the pointer or focus on different elements on the two sides (${states.join('; ')}): not a change of the ` +
    `app; park the pointer before the checkpoint (\`await page.mouse.move(0, 0)\`) or move the focus away (\`await ` +
    `page.locator('body').focus()\`)`
  );
}

/**
 * A difference on a capture that never settled may be the page still moving (a hover, a timer),
 * not the branch: the reason says so first, and where, so the table, the annotation and the
 * review page all show it.
 */
export function unsettledNote(area: Region | null): string {
  const where = area
    ? `: the area at (${area.x}, ${area.y}), ${area.width}×${area.height} px, still changed between its last two captures`
    : '';
  return `the current capture never settled${where}`;
}

/** A capture compared with its baseline while the page was alive (capture/live-check.ts). */
export interface Retakes {
  /** How many screenshots it took. */
  captures: number;
  /** What the first one's difference from the baseline was, in words; null: the first matched. */
  firstDifference: string | null;
}

/** A checkpoint as the results file, the annotations and the summary show it. */
export interface CheckpointOutcome extends Ruling {
  name: string;
  baselineImage: string | null;
  currentImage: string | null;
  diffImage: string | null;
  /** Always an object: zero when nothing changed or nothing was compared. */
  diffMetrics: DiffMetrics;
  /** What current has that base has not, besides pixels; never changes an unchanged status. */
  signals: CheckpointSignals;
  /** Whether the current capture settled (two consecutive captures matched); null when current took none. */
  stable: boolean | null;
  /**
   * How many screenshots the capture took beside its baseline while the page was alive, and what differed first; absent: it had none at
   * hand.
   */
  retakes?: Retakes;
  /** Its changes' groups, the dominant one first; empty when the pair does not differ. */
  groups: string[];
  /** Each group's part of its change, in the order of `groups`. */
  groupParts: ChangePrint[];
  /** What changed, when the pair differs. */
  change: ChangePrint | null;
  /** The checkpoint's own intent. */
  intent: string | null;
  /** What changed, in words (explain/), when the pair differs. */
  explanation: Explanation | null;
}

export interface Judged extends Compared {
  changes: ChangeInput[];
}

export function outcomeOf(checkpoint: Judged): CheckpointOutcome {
  const { pair, comparison, signals } = checkpoint;
  const images = imagesOf(checkpoint);
  const ruling = decide({
    comparison,
    baseError: checkpoint.test.baselineError,
    changes: checkpoint.changes,
    signals,
    stable: pair.meta?.stable ?? null,
    unsettled: pair.meta?.unsettled ?? null,
    baseCapture: pair.baseCapture,
    currentTest: checkpoint.test,
    interactionOnly: interactionOnly(checkpoint.explanation),
  });
  return {
    name: pair.name,
    ...ruling,
    baselineImage: images.baseline,
    currentImage: images.current,
    diffImage: comparison.kind === 'different' ? comparison.diffImage : null,
    diffMetrics: comparison.kind === 'different' || comparison.kind === 'within-tolerance' ? comparison.metrics : NO_DIFF,
    signals,
    stable: pair.meta?.stable ?? null,
    ...(pair.meta?.captures ? { retakes: { captures: pair.meta.captures, firstDifference: pair.meta.firstDifference ?? null } } : {}),
    groups: checkpoint.changes.map((change) => change.group),
    groupParts: checkpoint.changes.map((change) => change.part),
    change: comparison.kind === 'different' ? comparison.change : null,
    intent: pair.meta?.intent ?? null,
    explanation: checkpoint.explanation,
  };
}

/**
 * The status a checkpoint gives its test, the one word the terminal's tag, the report's annotation and the
 * results file all say: a checkpoint missing because its test failed on its own says the test errored.
 */
export function statusForTest(status: CheckpointStatus, testEnded: Compared['test']['status']): Exclude<CheckpointStatus, 'missing'> {
  if (status !== 'missing') return status;
  return testEnded === 'passed' || testEnded === 'skipped' ? 'needs_review' : 'errored';
}

export function testStatus(status: Compared['test']['status'], checkpoints: CheckpointOutcome[]): TestStatus {
  const said = checkpoints.map((checkpoint) => statusForTest(checkpoint.status, status));
  if (!(status === 'passed' || status === 'skipped') || said.includes('errored')) return 'errored';
  if (said.includes('regression')) return 'failed';
  if (said.includes('needs_review')) return 'needs_review';
  return 'passed';
}

/** The checkpoints that make the run exit 1: a status in failOn, or any new signal with 'signals' in it. */
export function failingCheckpoints<Checkpoint extends Pick<CheckpointOutcome, 'status' | 'signals'>>(
  checkpoints: readonly Checkpoint[],
  failOn: readonly FailOn[],
): Checkpoint[] {
  return checkpoints.filter(
    (checkpoint) =>
      (failOn as readonly string[]).includes(checkpoint.status) || (failOn.includes('signals') && hasNewSignals(checkpoint.signals)),
  );
}
