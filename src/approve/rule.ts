import { sha256File } from '../util/hash';
import type { Approval } from './file';

/**
 * The approval rule, in one place: the reporter (which approvals a run applies and which it
 * reports as stale), `approve` (which approvals a new one replaces), `approve --prune` (which it
 * drops) and `report` all ask `classify`. How a pair is recognised (today: the same bytes, by
 * SHA-256) lives here only; it is async so that a rule that decodes images can take its place.
 */

/** What an approval is to one checkpoint of a run. */
export type ApprovalFit =
  /** Same checkpoint, and its images are the approved pair: the checkpoint is approved. */
  | 'applies'
  /** Same checkpoint, other images (either side moved, or one is gone): the approval no longer holds. */
  | 'stale'
  /** Another checkpoint. */
  | 'unrelated';

/** A checkpoint of a run as the rule sees it: who it is and its two images (files). */
export interface ApprovalSubject {
  /** The test key (project › file › describes › title). */
  test: string;
  checkpoint: string;
  baselineImage: string | null;
  currentImage: string | null;
}

/** A checkpoint with both images: one that can be approved. */
export type ChangedSubject = ApprovalSubject & { baselineImage: string; currentImage: string };

/** Whether an approval names this checkpoint at all. */
export function concerns(approval: Pick<Approval, 'test' | 'checkpoint'>, subject: Pick<ApprovalSubject, 'test' | 'checkpoint'>): boolean {
  return approval.test === subject.test && approval.checkpoint === subject.checkpoint;
}

export async function classify(approval: Approval, subject: ApprovalSubject): Promise<ApprovalFit> {
  if (!concerns(approval, subject)) return 'unrelated';
  if (!subject.baselineImage || !subject.currentImage) return 'stale';
  const matches = approval.baseline === sha256File(subject.baselineImage) && approval.current === sha256File(subject.currentImage);
  return matches ? 'applies' : 'stale';
}

/** The approval of a changed checkpoint as it stands now: what `classify` later recognises. */
export function approvalOf(subject: ChangedSubject, by: string, at: string, reason: string | null): Approval {
  return { test: subject.test, checkpoint: subject.checkpoint, baseline: sha256File(subject.baselineImage), current: sha256File(subject.currentImage), by, at, reason };
}

export interface ApprovalReview {
  /** The approval that applies to each subject, in the subjects' order (null: none). */
  matches: (Approval | null)[];
  /** Approvals of a checkpoint among the subjects that apply to none of them. */
  stale: Approval[];
}

/** Every approval against every checkpoint of a run. */
export async function reviewApprovals(approvals: Approval[], subjects: ApprovalSubject[]): Promise<ApprovalReview> {
  const fits = await Promise.all(subjects.map((subject) => Promise.all(approvals.map((approval) => classify(approval, subject)))));
  const matches = fits.map((row) => {
    const index = row.indexOf('applies');
    return index === -1 ? null : approvals[index];
  });
  const stale = approvals.filter((_, i) => fits.some((row) => row[i] === 'stale') && !fits.some((row) => row[i] === 'applies'));
  return { matches, stale };
}
