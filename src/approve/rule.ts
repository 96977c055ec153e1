import { decodeChange, findChange, type ChangePrint, type Found } from '../compare';
import { sha256File } from '../util/hash';
import type { Approval, ApprovalCheckpoint, Verdict } from './file';

/**
 * The approval rule, in one place: the reporter (which decisions a run applies and which it
 * reports as stale), `approve`, `approve --prune`, `report` and the review page all ask
 * `classify`. A decision applies to a checkpoint
 * - when the checkpoint is one it was taken on and its images are the very pair it saw (the fast
 *   path: SHA-256 of both files, recorded when the decided change was the checkpoint's whole change);
 * - when the checkpoint is one it was taken on and its change contains the decided change within
 *   the comparison's tolerance (rendering noise below the threshold: the same checkpoint, other bytes);
 * - when it applies wherever the change appears (scope `change`) and the checkpoint's change
 *   contains it: the same change on another checkpoint, the group's carry-over.
 * It is stale on a checkpoint it was taken on whose change no longer contains the decided change.
 */

/** How a decision applies to a checkpoint. */
export type ApplyHow = 'same-images' | 'same-checkpoint' | 'same-change';

export type ApprovalFit =
  /** `covers`: the parts of the checkpoint's change the decision settles ('all': the whole pair). */
  | { fit: 'applies'; how: ApplyHow; covers: Found | 'all' }
  /** A checkpoint the decision was taken on, whose change is no longer the decided one. */
  | { fit: 'stale' }
  | { fit: 'unrelated' };

/** A checkpoint of a run as the rule sees it: who it is, its two images (files) and what changed. */
export interface ApprovalSubject {
  /** The test key (project › file › describes › title). */
  test: string;
  checkpoint: string;
  baselineImage: string | null;
  currentImage: string | null;
  /** The pair's change (null: the pair does not differ, or is not known to). */
  change: ChangePrint | null;
}

/** Whether a decided checkpoint is this subject. */
export function names(decided: Pick<ApprovalCheckpoint, 'test' | 'checkpoint'>, subject: Pick<ApprovalSubject, 'test' | 'checkpoint'>): boolean {
  return decided.test === subject.test && decided.checkpoint === subject.checkpoint;
}

/** SHA-256 of image files, each read once per review. */
export type Hasher = (file: string) => string;

export function memoHasher(): Hasher {
  const known = new Map<string, string>();
  return (file) => {
    let hash = known.get(file);
    if (!hash) known.set(file, (hash = sha256File(file)));
    return hash;
  };
}

const decoded = new Map<string, ChangePrint | null>();

/** A decision's change, decoded once per process (fingerprints are immutable text). */
function changeOf(approval: Approval): ChangePrint | null {
  if (!approval.change) return null;
  if (!decoded.has(approval.change)) decoded.set(approval.change, decodeChange(approval.change));
  return decoded.get(approval.change)!;
}

function sameImages(decided: ApprovalCheckpoint, subject: ApprovalSubject, hash: Hasher): boolean {
  if (!decided.baseline || !decided.current || !subject.baselineImage || !subject.currentImage) return false;
  return decided.baseline === hash(subject.baselineImage) && decided.current === hash(subject.currentImage);
}

export function classify(approval: Approval, subject: ApprovalSubject, hash: Hasher = memoHasher()): ApprovalFit {
  const decided = approval.checkpoints.find((checkpoint) => names(checkpoint, subject));
  if (decided && sameImages(decided, subject, hash)) return { fit: 'applies', how: 'same-images', covers: 'all' };
  const change = changeOf(approval);
  if (change && subject.change && (decided || approval.scope === 'change')) {
    const found = findChange(change, subject.change);
    if (found) return { fit: 'applies', how: decided ? 'same-checkpoint' : 'same-change', covers: found };
  }
  return decided ? { fit: 'stale' } : { fit: 'unrelated' };
}

/** A decision that applies to a checkpoint, and how. */
export interface Applied {
  approval: Approval;
  how: ApplyHow;
  covers: Found | 'all';
}

/** A checkpoint a decision was taken on that no longer shows the decided change. */
export interface StaleCheckpoint {
  approval: Approval;
  checkpoint: ApprovalCheckpoint;
}

export interface ApprovalReview {
  /** For each subject, in order: the decisions that apply to it. */
  applied: Applied[][];
  /** Decided checkpoints among the subjects whose decision no longer applies to them. */
  stale: StaleCheckpoint[];
}

/** Every decision against every checkpoint of a run. */
export function reviewApprovals(approvals: Approval[], subjects: ApprovalSubject[], hash: Hasher = memoHasher()): ApprovalReview {
  const applied: Applied[][] = subjects.map(() => []);
  const stale: StaleCheckpoint[] = [];
  subjects.forEach((subject, i) => {
    for (const approval of approvals) {
      const fit = classify(approval, subject, hash);
      if (fit.fit === 'applies') applied[i].push({ approval, how: fit.how, covers: fit.covers });
      else if (fit.fit === 'stale') stale.push({ approval, checkpoint: approval.checkpoints.find((c) => names(c, subject))! });
    }
  });
  return { applied, stale };
}

/** The decision that settles a part of a checkpoint's change: a rejection of any of it, else approvals of all of it. */
export interface Settled {
  verdict: Verdict;
  /** The decision the reason names: the rejection, or the approval of the part's largest region. */
  approval: Approval;
  how: ApplyHow;
}

function coversRegion(applied: Applied, index: number): boolean {
  return applied.covers === 'all' || applied.covers.regions.includes(index);
}

function coversLine(applied: Applied, index: number): boolean {
  return applied.covers === 'all' || applied.covers.lines.includes(index);
}

/**
 * How the decisions that apply to a checkpoint settle `part` of its change (`part`'s regions are
 * the change's own region objects, as grouping hands them out): rejected when a rejection covers
 * any of it, approved when approvals cover all of it, else not settled (null).
 */
export function settle(applied: Applied[], change: ChangePrint, part: ChangePrint): Settled | null {
  const regions = part.regions.map((region) => change.regions.indexOf(region));
  const lines = part.lines.map((line) => change.lines.indexOf(line));
  const touches = (a: Applied) => regions.some((i) => coversRegion(a, i)) || lines.some((i) => coversLine(a, i));
  const rejection = applied.find((a) => a.approval.verdict === 'rejected' && touches(a));
  if (rejection) return { verdict: 'rejected', approval: rejection.approval, how: rejection.how };
  const approvals = applied.filter((a) => a.approval.verdict === 'approved');
  const covered = regions.every((i) => approvals.some((a) => coversRegion(a, i))) && lines.every((i) => approvals.some((a) => coversLine(a, i)));
  if (!covered || approvals.length === 0) return null;
  const main = approvals.find((a) => (regions.length ? coversRegion(a, regions[0]) : coversLine(a, lines[0]))) ?? approvals[0];
  return { verdict: 'approved', approval: main.approval, how: main.how };
}

/** How the decisions that apply to a checkpoint settle `decided` (a group's change, say) where it is found in the checkpoint's change. */
export function settleChange(applied: Applied[], change: ChangePrint, decided: ChangePrint): Settled | null {
  const found = findChange(decided, change);
  if (!found) return null;
  return settle(applied, change, { threshold: change.threshold, regions: found.regions.map((i) => change.regions[i]), lines: found.lines.map((i) => change.lines[i]) });
}

/** What the approvals file did in a run. */
export interface ApprovalTally {
  /** Checkpoints every change of which a person approved. */
  applied: number;
  /** Of those, how many through the same change approved on another checkpoint. */
  carried: number;
  /** Checkpoints a person rejected a change of. */
  rejected: number;
  /** Decided checkpoints whose decision no longer applies to them. */
  stale: StaleCheckpoint[];
}

export function tally(review: ApprovalReview, subjects: ApprovalSubject[]): ApprovalTally {
  const settled = subjects.map((subject, i) => (subject.change ? settle(review.applied[i], subject.change, subject.change) : null));
  const approved = settled.filter((s) => s?.verdict === 'approved');
  return {
    applied: approved.length,
    carried: approved.filter((s) => s!.how === 'same-change').length,
    rejected: settled.filter((s) => s?.verdict === 'rejected').length,
    stale: review.stale,
  };
}
