import { decodeChange, encodeChange, findShown, partOf, type ChangePrint, type Found } from '../compare';
import {
  readApprovals,
  writeApprovals,
  type Approval,
  type ApprovalCheckpoint,
  type Scope,
  type DecisionKind,
} from '../files/approvals-file';
import { classify, decidedIn, memoHasher, names, reviewApprovals, type ApprovalSubject, type Hasher, type StaleCheckpoint } from './rule';

/** A checkpoint a decision is taken on; `whole`: the decided change is all that changed there. */
export interface DecisionTarget {
  subject: ApprovalSubject;
  whole: boolean;
  /**
   * Its part of the decided change as the run grouped it (a fingerprint): one edit's members show it in other pixels than the group's
   * print, and the run holds the decision to this part. Absent: what it shows of the decided change.
   */
  part?: string;
  /** Its changed regions the explanation did not account for, in words (explain unexplainedWords); absent or '' when none. */
  unexplained?: string;
}

/** One person's decision on one change. */
export interface DecisionRequest {
  decision: DecisionKind;
  scope: Scope;
  /** The decided change's fingerprint: a group's change, or one checkpoint's whole change. */
  change: string;
  /** A group's change as each Playwright project showed it, by project, when it is shown in more than one. */
  projects?: Record<string, string>;
  checkpoints: DecisionTarget[];
  by: string;
  at: string;
  reason: string | null;
}

export interface Recorded {
  added: Approval[];
  /** Decided checkpoints whose older decision on the same change the new one replaces. */
  replaced: StaleCheckpoint[];
  /** Decided checkpoints whose decision no longer applies to them (what a run reports as stale). */
  dropped: StaleCheckpoint[];
  /** Whether the file changed (false on a dry run, or when there was nothing to do). */
  written: boolean;
}

/** What a checkpoint shows of a decided change: all of it (null), or the part it shows. */
function shownPart(change: ChangePrint | null, subject: ApprovalSubject): Found | null {
  if (!change || !subject.change) return null;
  const found = findShown(change, subject.change);
  return found.regions.length === change.regions.length && found.lines.length === change.lines.length ? null : found;
}

/** The decided change as a target shows it: its own part when the run grouped one, else its project's print. */
function changeIn(request: DecisionRequest, target: DecisionTarget): ChangePrint | null {
  return decodeChange(target.part ?? decidedIn(request, target.subject.project)!);
}

/** What a decided checkpoint keeps of the change, when the decision's print for its project is not exactly it. */
function ownChange(request: DecisionRequest, target: DecisionTarget): string | null {
  const print = decidedIn(request, target.subject.project);
  if (target.part) return target.part === print ? null : target.part;
  const shown = shownPart(decodeChange(print!), target.subject);
  return shown && target.subject.change ? encodeChange(partOf(target.subject.change, shown)) : null;
}

function decided(request: DecisionRequest, target: DecisionTarget, hash: Hasher): ApprovalCheckpoint {
  const { subject, whole, unexplained } = target;
  const images = whole && subject.baselineImage && subject.currentImage;
  const own = ownChange(request, target);
  return {
    test: subject.test,
    checkpoint: subject.checkpoint,
    baseline: images ? hash(subject.baselineImage!) : null,
    current: images ? hash(subject.currentImage!) : null,
    ...(own ? { change: own } : {}),
    ...(unexplained ? { unexplained } : {}),
  };
}

function overlaps(a: Found | 'all', b: Found | 'all'): boolean {
  if (a === 'all' || b === 'all') return true;
  return a.regions.some((i) => b.regions.includes(i)) || a.lines.some((i) => b.lines.includes(i));
}

/**
 * Records decisions in the approvals file, and is the one way anything does (`approve`, `reject`,
 * the review page's Approve and Reject). On each checkpoint a new decision is taken on, an older
 * decision on the same part of its change is replaced; every decided checkpoint of `subjects`
 * (the latest run's) whose decision no longer applies is dropped, by the rule the run uses.
 * Written atomically, at once, unless `dryRun`.
 */
export function recordDecisions(
  configDir: string,
  subjects: ApprovalSubject[],
  requests: DecisionRequest[],
  options: { dryRun?: boolean } = {},
): Recorded {
  // Every image is hashed once for the whole decision: the review, the replaced decisions, the new ones.
  const hash = memoHasher();
  const existing = readApprovals(configDir);
  const { stale } = reviewApprovals(existing, subjects, hash);
  const replaced: StaleCheckpoint[] = [];
  for (const request of requests) {
    for (const target of request.checkpoints) {
      const { subject } = target;
      const change = changeIn(request, target);
      const found: Found | null = change && subject.change ? findShown(change, subject.change) : null;
      for (const approval of existing) {
        const fit = classify(approval, subject, hash);
        const checkpoint = approval.checkpoints.find((c) => names(c, subject));
        if (
          checkpoint &&
          fit.fit === 'applies' &&
          (found === null || overlaps(fit.covers, found)) &&
          !replaced.some((r) => r.checkpoint === checkpoint)
        )
          replaced.push({ approval, checkpoint });
      }
    }
  }
  const removed = new Set<ApprovalCheckpoint>([...stale, ...replaced].map((s) => s.checkpoint));
  const kept = existing
    .map((approval) => ({ ...approval, checkpoints: approval.checkpoints.filter((c) => !removed.has(c)) }))
    .filter((approval) => approval.checkpoints.length > 0);
  const added = requests.map(
    (request): Approval => ({
      decision: request.decision,
      scope: request.scope,
      checkpoints: request.checkpoints.map((target) => decided(request, target, hash)),
      by: request.by,
      at: request.at,
      reason: request.reason,
      change: request.change,
      ...(request.projects ? { projects: request.projects } : {}),
    }),
  );
  const dropped = stale.filter((s) => !replaced.some((r) => r.checkpoint === s.checkpoint));
  const written = !options.dryRun && (added.length > 0 || removed.size > 0);
  if (written) writeApprovals(configDir, [...kept, ...added]);
  return { added, replaced, dropped, written };
}
