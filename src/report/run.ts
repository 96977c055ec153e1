import {
  coveringDecision,
  resemblance,
  reviewApprovals,
  tally,
  type Approval,
  type ApprovalSubject,
  type ApprovalTally,
  type CoveringDecision,
} from '../approve';
import { checkpointKey } from '../config/test-identity';
import type { Settings } from '../config/settings';
import type { Evaluator, EvaluatorVerdict } from '../evaluate';
import { interactionOnly } from '../explain';
import type { EvalRecord } from '../trust/eval-record';
import { groupChanges, partExplanation, type ChangeGroup, type Grouping } from '../group';
import type { Region, RunContext } from '../types';
import { compareCheckpoints, imagesOf, type BranchCode, type Compared } from './assess';
import type { CollectedTest } from './collect';
import {
  baseFailed,
  baseFailureNote,
  decideChange,
  mostSevere,
  testStatus,
  unsettledNote,
  outcomeOf,
  type ChangeInput,
  type CheckpointOutcome,
} from './decide';
import { judgeGroups, trustVerdicts, type Different, type GroupToJudge } from './judge';
import type { GroupOutcome, TestOutcome } from './outcome';
import { changedWithinAllowance, type ComparedCount } from './sanity';
import { lap } from '../config/timing';

export interface RunOutcome {
  outcomes: TestOutcome[];
  groups: GroupOutcome[];
  approvals: ApprovalTally;
  /** How many groups the evaluator judged. */
  judged: number;
  /** A baseline image could not be read: the store's entries of its suite must not be used again. */
  baselineUnreadable: boolean;
  compared: ComparedCount;
}

export interface RunInput {
  tests: CollectedTest[];
  context: RunContext | null;
  settings: Settings;
  approvals: Approval[];
  evaluator: Evaluator | null;
  /**
   * Why the configured evaluator could not be made (an invalid option, the openai package missing); null when it was, or none is
   * configured.
   */
  evaluatorProblem?: string | null;
  /** The last `visual-uat eval` of the evaluator's model, for `evaluator.autoApprove`; null when none or the policy is off. */
  evalRecord: EvalRecord | null;
  /**
   * What the branch changed in the app's files, commit by commit: what the explanations attribute changes to; read only by a run with a
   * change.
   */
  code?: BranchCode;
}

export function approvalSubject(checkpoint: Compared): ApprovalSubject {
  const images = imagesOf(checkpoint);
  // A difference the test's pointer or focus alone makes is no change to group, judge or approve (decide: `unsteady`).
  const change =
    checkpoint.comparison.kind === 'different' && !interactionOnly(checkpoint.explanation) ? checkpoint.comparison.change : null;
  return {
    test: checkpoint.test.key,
    project: checkpoint.test.project,
    checkpoint: checkpoint.pair.name,
    baselineImage: images.baseline,
    currentImage: images.current,
    change,
  };
}

/** Per checkpoint and group: the decision that covers that part of its change, or else the approval elsewhere it resembles. */
function decidedParts(grouping: Grouping, subjects: ApprovalSubject[], approvals: Approval[]) {
  const review = reviewApprovals(approvals, subjects);
  const covering = subjects.map(
    (subject, i) =>
      new Map(
        grouping.groupsOf[i].map((id): [string, CoveringDecision | null] => [
          id,
          coveringDecision(review.applied[i], subject.change!, grouping.partsOf[i].get(id)!),
        ]),
      ),
  );
  const resembles = subjects.map(
    (subject, i) =>
      new Map(
        grouping.groupsOf[i].map((id): [string, Approval | null] => [
          id,
          covering[i].get(id) ? null : resemblance(review.resembled[i], subject.change!, grouping.partsOf[i].get(id)!),
        ]),
      ),
  );
  return { review, covering, resembles };
}

/** The Playwright projects that show a group's change, when more than one. */
function projectsShowing(group: ChangeGroup): string[] {
  return group.projects.size > 1 ? [...group.projects.keys()] : [];
}

/**
 * The checkpoint each open group is judged on: its representative when no person decided the
 * change there, else another checkpoint with the change open, fewest other changes first. A change
 * a person approved elsewhere is not open: a person must look, whatever the model says.
 */
function groupsToJudge(
  grouping: Grouping,
  compared: Compared[],
  covering: Map<string, CoveringDecision | null>[],
  resembles: Map<string, Approval | null>[],
): GroupToJudge[] {
  return grouping.groups.flatMap((group: ChangeGroup) => {
    const showing = [...group.members, ...group.alsoIn];
    const open = showing.filter((i) => covering[i].get(group.id) === null && resembles[i].get(group.id) === null);
    if (open.length === 0) return [];
    const chosen = open.includes(group.representative)
      ? group.representative
      : open.reduce((best, i) => (grouping.groupsOf[i].length < grouping.groupsOf[best].length ? i : best));
    return [
      {
        group: group.id,
        representative: compared[chosen] as Different,
        shownOn: showing.map((i) => checkpointKey(compared[i].test.key, compared[i].pair.name)),
        projects: projectsShowing(group),
      },
    ];
  });
}

/**
 * The outcome of a run, stage by stage, each taking values and returning new ones:
 * compare (the auto gate) → group → approvals (the human gate) → evaluate (the AI gate, once per
 * group) → trust (evaluator.autoApprove) → decide. Nothing here writes a file the results name or touches Playwright's objects.
 */
export async function judgeRun(input: RunInput): Promise<RunOutcome> {
  const compared = await compareCheckpoints(input.tests, input.context, input.settings, input.code);
  lap('compare, explain');
  const subjects = compared.map(approvalSubject);
  const grouping = groupChanges(
    subjects.map((subject) => subject.change),
    compared.map((checkpoint) => ({
      project: checkpoint.test.project,
      explanation: checkpoint.explanation,
      regions: changedRegions(checkpoint),
    })),
  );
  lap('group');
  const { review, covering, resembles } = decidedParts(grouping, subjects, input.approvals);
  lap('approve');
  const toJudge = groupsToJudge(grouping, compared, covering, resembles);
  const verdicts = await judgeGroups(
    toJudge,
    input.evaluator,
    input.context,
    toJudge.length && input.code ? await input.code() : [],
    input.evaluatorProblem,
  );
  const judgements = trustVerdicts(verdicts, input.evaluator, input.evalRecord);
  lap('evaluate');
  const sizes = new Map(grouping.groups.map((group) => [group.id, group.members.length + group.alsoIn.length]));
  const projects = new Map(grouping.groups.map((group) => [group.id, projectsShowing(group)]));
  const changesOf = (i: number): ChangeInput[] =>
    grouping.groupsOf[i].map((id) => ({
      group: id,
      part: grouping.partsOf[i].get(id)!,
      others: sizes.get(id)! - 1,
      projects: projects.get(id)!,
      covering: covering[i].get(id) ?? null,
      resembles: resembles[i].get(id) ?? null,
      judgement: judgements.get(id) ?? null,
    }));

  const byTest = new Map<CollectedTest, CheckpointOutcome[]>(input.tests.map((test) => [test, []]));
  compared.forEach((checkpoint, i) => byTest.get(checkpoint.test)!.push(outcomeOf({ ...checkpoint, changes: changesOf(i) })));
  const outcomes = [...byTest].map(
    ([test, checkpoints]): TestOutcome => ({ test, status: testStatus(test.status, checkpoints), checkpoints }),
  );

  const groups = grouping.groups.map((group): GroupOutcome => {
    const showing = [...group.members, ...group.alsoIn];
    const rulings = showing.map((i) => decideChange(changesOf(i).find((change) => change.group === group.id)!, compared[i].signals));
    const worst = rulings[mostSevere(rulings)];
    const judgement: EvaluatorVerdict | undefined = judgements.get(group.id);
    // The group's reason is what the review page and the summary's group line show: a member
    // compared with the capture of a base test that failed after it, or whose capture never
    // settled, may owe its change to that, so it leads, as in its own reason.
    const noteOn = (member: number | undefined, note: (i: number) => string): string => {
      if (member === undefined) return '';
      const where = showing.length > 1 ? ` (${checkpointKey(subjects[member].test, subjects[member].checkpoint)})` : '';
      return `${note(member)}${where}; `;
    };
    const failedBase = noteOn(
      showing.find((i) => baseFailed(compared[i].pair.baseCapture)),
      (i) => baseFailureNote(compared[i].pair.baseCapture!),
    );
    const restless = noteOn(
      showing.find((i) => compared[i].pair.meta?.stable === false),
      (i) => unsettledNote(compared[i].pair.meta?.unsettled ?? null),
    );
    return {
      id: group.id,
      change: group.change,
      projects: group.projects,
      members: group.members.map((i) => checkpointKey(subjects[i].test, subjects[i].checkpoint)),
      alsoIn: group.alsoIn.map((i) => checkpointKey(subjects[i].test, subjects[i].checkpoint)),
      status: worst.status,
      reason: `${failedBase}${restless}${worst.reason}`,
      evaluation: judgement?.evaluation ?? null,
      // Its representative's words for this group's part only: a part that is another group's is said in that group's row.
      explanation: partExplanation(
        group.change,
        subjects[group.representative].change!,
        compared[group.representative].explanation,
        changedRegions(compared[group.representative]),
      ),
    };
  });

  lap('decide');
  return {
    outcomes,
    groups,
    approvals: tally(review, subjects),
    judged: judgements.size,
    baselineUnreadable: compared.some(({ comparison }) => comparison.kind === 'errored' && comparison.side === 'baseline'),
    compared: {
      pairs: compared.filter(({ comparison }) => ['identical', 'within-tolerance', 'different'].includes(comparison.kind)).length,
      same: compared.filter(({ comparison }) => comparison.kind === 'identical' || comparison.kind === 'within-tolerance').length,
      oneSided: compared.filter(({ comparison }) => comparison.kind === 'current-only' || comparison.kind === 'baseline-only').length,
      allowed: allowedPercents(outcomes),
    },
  };
}

function changedRegions({ comparison }: Compared): Region[] | undefined {
  return comparison.kind === 'different' ? comparison.metrics.changedRegions : undefined;
}

/** The share of pixels changed in each checkpoint the pixel allowance let pass (see sanity.ts changedWithinAllowance). */
function allowedPercents(outcomes: TestOutcome[]): number[] {
  return outcomes.flatMap(({ checkpoints }) =>
    checkpoints.filter(changedWithinAllowance).map((checkpoint) => checkpoint.diffMetrics.pixelDiffPercent),
  );
}
