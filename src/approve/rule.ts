import { decodeChange, findChange, findShown, partOf, type ChangePrint, type Found } from '../compare';
import { sha256File } from '../util/hash';
import type { Approval, ApprovalCheckpoint, DecisionKind } from '../files/approvals-file';

/**
 * The approval rule, in one place: the reporter (which decisions a run applies and which it
 * reports as stale), `approve`, `approve --prune`, `report` and the review page all ask
 * `classify`. A decision covers what was seen: it applies to a checkpoint
 * - when the checkpoint is one it was taken on and its images are the very pair it saw (the fast
 *   path: SHA-256 of both files, recorded when the decided change was the checkpoint's whole change);
 * - when the checkpoint is one it was taken on and its change contains the decided change (or the
 *   part of it that checkpoint showed, recorded with it) within the comparison's tolerance
 *   (rendering noise below the threshold: the same checkpoint, other bytes);
 * - for a rejection of a change (scope `change`), wherever the change appears: a regression seen
 *   once is one everywhere.
 * An approval of a change found on a checkpoint nobody decided it on (another test, another page)
 * only resembles: that checkpoint needs a person, told which approval it looks like. A banner
 * approved on the home page that leaks onto the about page is seen, never approved silently.
 * A decision is stale on a checkpoint it was taken on that was compared this run (both images)
 * and whose change no longer contains the decided change; a checkpoint the run did not capture
 * (its test failed, the base pass left it out) tells nothing, and never makes a decision stale,
 * nor does one identical to the very baseline it was decided on (a flaky change that did not show
 * this time: it may next time). Identical on another baseline, the base moved on: stale.
 * A change decided in several Playwright projects keeps what each showed (`projects`): in a
 * project, the decision covers that project's print of it, never another's.
 */

/** How a decision applies to a checkpoint. */
export type ApplyHow = 'same-images' | 'same-checkpoint' | 'same-change';

export type ApprovalFit =
  /** `covers`: the parts of the checkpoint's change the decision settles ('all': the whole pair). */
  | { fit: 'applies'; how: ApplyHow; covers: Found | 'all' }
  /** An approval's change found on a checkpoint it was not taken on: a person must look. */
  | { fit: 'resembles'; covers: Found }
  /** A checkpoint the decision was taken on, compared this run, whose change is no longer the decided one. */
  | { fit: 'stale' }
  /** A checkpoint the decision was taken on that this run did not compare: nothing to tell. */
  | { fit: 'not-compared' }
  /** A checkpoint the decision was taken on, identical this run to the baseline it was decided on: the change did not show. */
  | { fit: 'not-shown' }
  | { fit: 'unrelated' };

/** A checkpoint of a run as the rule sees it: who it is, its two images (files) and what changed. */
export interface ApprovalSubject {
  /** The test key (project › file › describes › title). */
  test: string;
  /** Its Playwright project's name. */
  project: string;
  checkpoint: string;
  baselineImage: string | null;
  currentImage: string | null;
  /** The pair's change (null: the pair does not differ, or is not known to). */
  change: ChangePrint | null;
}

/** Whether a decided checkpoint is this subject. */
export function names(
  decided: Pick<ApprovalCheckpoint, 'test' | 'checkpoint'>,
  subject: Pick<ApprovalSubject, 'test' | 'checkpoint'>,
): boolean {
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

/** A fingerprint, decoded once per process (fingerprints are immutable text). */
function decodedOnce(text: string | null | undefined): ChangePrint | null {
  if (!text) return null;
  if (!decoded.has(text)) decoded.set(text, decodeChange(text));
  return decoded.get(text)!;
}

/** The decided change as `project` showed it: its own print when the decision keeps one, else the decision's. */
export function decidedIn(decision: Pick<Approval, 'change' | 'projects'>, project: string): string | null {
  return decision.projects?.[project] ?? decision.change;
}

function sameImages(decided: ApprovalCheckpoint, subject: ApprovalSubject, hash: Hasher): boolean {
  if (!decided.baseline || !decided.current || !subject.baselineImage || !subject.currentImage) return false;
  return decided.baseline === hash(subject.baselineImage) && decided.current === hash(subject.currentImage);
}

function compared(subject: ApprovalSubject): boolean {
  return subject.baselineImage !== null && subject.currentImage !== null;
}

export function classify(approval: Approval, subject: ApprovalSubject, hash: Hasher = memoHasher()): ApprovalFit {
  const decided = approval.checkpoints.find((checkpoint) => names(checkpoint, subject));
  if (decided && sameImages(decided, subject, hash)) return { fit: 'applies', how: 'same-images', covers: 'all' };
  // On a checkpoint it was taken on, the decision covers what that checkpoint showed of the change.
  const inProject = decodedOnce(decidedIn(approval, subject.project));
  const change = decided ? (decodedOnce(decided.change) ?? inProject) : inProject;
  const found = change && subject.change && (decided || approval.scope === 'change') ? findChange(change, subject.change) : null;
  if (found && decided) return { fit: 'applies', how: 'same-checkpoint', covers: found };
  if (found)
    return approval.decision === 'rejected' ? { fit: 'applies', how: 'same-change', covers: found } : { fit: 'resembles', covers: found };
  if (!decided) return { fit: 'unrelated' };
  if (!compared(subject)) return { fit: 'not-compared' };
  return !subject.change && decided.baseline !== null && decided.baseline === hash(subject.baselineImage!)
    ? { fit: 'not-shown' }
    : { fit: 'stale' };
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

/** An approval whose change a checkpoint shows though nobody approved it there. */
export interface Resembled {
  approval: Approval;
  covers: Found;
}

export interface ApprovalReview {
  /** For each subject, in order: the decisions that apply to it. */
  applied: Applied[][];
  /** For each subject, in order: the approvals it resembles without being covered by them. */
  resembled: Resembled[][];
  /** Decided checkpoints among the subjects whose decision no longer applies to them. */
  stale: StaleCheckpoint[];
}

/** Every decision against every checkpoint of a run. */
export function reviewApprovals(approvals: Approval[], subjects: ApprovalSubject[], hash: Hasher = memoHasher()): ApprovalReview {
  const applied: Applied[][] = subjects.map(() => []);
  const resembled: Resembled[][] = subjects.map(() => []);
  const stale: StaleCheckpoint[] = [];
  subjects.forEach((subject, i) => {
    for (const approval of approvals) {
      const fit = classify(approval, subject, hash);
      if (fit.fit === 'applies') applied[i].push({ approval, how: fit.how, covers: fit.covers });
      else if (fit.fit === 'resembles') resembled[i].push({ approval, covers: fit.covers });
      else if (fit.fit === 'stale') stale.push({ approval, checkpoint: approval.checkpoints.find((c) => names(c, subject))! });
    }
  });
  return { applied, resembled, stale };
}

/** The decision that covers a part of a checkpoint's change: a rejection of any of it, else approvals of all of it. */
export interface CoveringDecision {
  decision: DecisionKind;
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

/** Where `part`'s regions and lines (the change's own objects) are in `change`. */
function indexesOf(change: ChangePrint, part: ChangePrint): Found {
  return {
    regions: part.regions.map((region) => change.regions.indexOf(region)),
    lines: part.lines.map((line) => change.lines.indexOf(line)),
  };
}

/** The approval a part of a checkpoint's change resembles (its largest region first), if any. */
export function resemblance(resembled: Resembled[], change: ChangePrint, part: ChangePrint): Approval | null {
  const { regions, lines } = indexesOf(change, part);
  const touches = (r: Resembled) => regions.some((i) => r.covers.regions.includes(i)) || lines.some((i) => r.covers.lines.includes(i));
  return resembled.find(touches)?.approval ?? null;
}

/**
 * The decision that covers `part` of a checkpoint's change, of those that apply to the checkpoint (`part`'s regions are
 * the change's own region objects, as grouping hands them out): rejected when a rejection covers
 * any of it, approved when approvals cover all of it, else none (null).
 */
export function coveringDecision(applied: Applied[], change: ChangePrint, part: ChangePrint): CoveringDecision | null {
  const { regions, lines } = indexesOf(change, part);
  const touches = (a: Applied) => regions.some((i) => coversRegion(a, i)) || lines.some((i) => coversLine(a, i));
  const rejection = applied.find((a) => a.approval.decision === 'rejected' && touches(a));
  if (rejection) return { decision: 'rejected', approval: rejection.approval, how: rejection.how };
  const approvals = applied.filter((a) => a.approval.decision === 'approved');
  const covered =
    regions.every((i) => approvals.some((a) => coversRegion(a, i))) && lines.every((i) => approvals.some((a) => coversLine(a, i)));
  if (!covered || approvals.length === 0) return null;
  const main = approvals.find((a) => (regions.length ? coversRegion(a, regions[0]) : coversLine(a, lines[0]))) ?? approvals[0];
  return { decision: 'approved', approval: main.approval, how: main.how };
}

/** The decision that covers what a checkpoint shows of `decided` (a group's change, say), of those that apply to it. */
export function coveringDecisionOfShown(applied: Applied[], change: ChangePrint, decided: ChangePrint): CoveringDecision | null {
  const found = findShown(decided, change);
  if (found.regions.length === 0 && found.lines.length === 0) return null;
  return coveringDecision(applied, change, partOf(change, found));
}

/** What the approvals file did in a run. */
export interface ApprovalTally {
  /** Checkpoints every change of which a person approved. */
  applied: number;
  /** Checkpoints showing a change approved on other checkpoints, not on them: a person must look. */
  resembling: number;
  /** Checkpoints a person rejected a change of. */
  rejected: number;
  /** Decided checkpoints whose decision no longer applies to them. */
  stale: StaleCheckpoint[];
}

export function tally(review: ApprovalReview, subjects: ApprovalSubject[]): ApprovalTally {
  const covering = subjects.map((subject, i) =>
    subject.change ? coveringDecision(review.applied[i], subject.change, subject.change) : null,
  );
  const approved = covering.filter((s) => s?.decision === 'approved');
  return {
    applied: approved.length,
    resembling: subjects.filter((_, i) => review.resembled[i].length > 0 && covering[i] === null).length,
    rejected: covering.filter((s) => s?.decision === 'rejected').length,
    stale: review.stale,
  };
}

/** A decision as a checkpoint's reason names it: "approved by Ann on 2026-01-02: new brand colour". */
export function describeApproval(approval: Pick<Approval, 'decision' | 'by' | 'at' | 'reason'>): string {
  return `${approval.decision} by ${approval.by} on ${approval.at.slice(0, 10)}${approval.reason ? `: ${approval.reason}` : ''}`;
}
