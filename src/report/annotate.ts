import type { TestCase, TestResult } from '@playwright/test/reporter';
import { unexplainedWords } from '../explain';
import type { CheckpointStatus } from '../types';
import { APPROVALS_FILE } from '../store/approvals-file';
import { plural } from '../util/text';
import type { CheckpointVerdict } from './decide';
import { explanationWords, REVIEW_COMMAND } from './summary';
import type { TestOutcome } from './outcome';

type Annotation = { type: string; description?: string };

const ANNOTATION_BY_STATUS: Record<CheckpointStatus, string | null> = {
  unchanged: null,
  changed: 'visual-change',
  needs_review: 'needs_review',
  regression: 'visual-regression',
  new: 'visual-new',
  missing: 'needs_review',
  errored: 'visual-error',
};

export function describeVerdict(verdict: CheckpointVerdict): string {
  const parts = [`${verdict.name}: ${verdict.reason}`];
  if (verdict.evaluation) parts.push(`(confidence ${verdict.evaluation.confidence.toFixed(2)})`);
  if (verdict.diffImage)
    parts.push(`— ${verdict.diffMetrics.pixelDiffPercent}% of pixels changed in ${plural(verdict.diffMetrics.changedRegions.length, 'region')}`);
  // Where a person decides: the review page approves or rejects the whole group at once.
  if (verdict.groups.length && (verdict.status === 'needs_review' || verdict.status === 'regression')) parts.push(`— approve or reject: ${REVIEW_COMMAND}`);
  return parts.join(' ');
}

function pushAnnotation(test: TestCase, result: TestResult, annotation: Annotation): void {
  // The HTML report renders result annotations; its `annot:` filter reads the test's: write both.
  test.annotations.push(annotation);
  const resultWithAnnotations = result as TestResult & { annotations?: Annotation[] };
  (resultWithAnnotations.annotations ??= []).push(annotation);
}

/**
 * A tag is what the report's test list shows as a badge and filters on (`@needs_review`). In a
 * live run `TestCase.tags` is a getter over the internal `_tags` list (merge-reports gives a
 * plain array), so the tag goes where the getter reads it.
 */
function addTag(test: TestCase, tag: string): void {
  if (test.tags.includes(tag)) return;
  const internal = (test as TestCase & { _tags?: string[] })._tags;
  if (Array.isArray(internal)) internal.push(tag);
  else test.tags.push(tag);
}

function attachImage(result: TestResult, name: string, path: string | null): void {
  if (path) result.attachments.push({ name, path, contentType: 'image/png' });
}

/** One annotation per kind of new signal, listing the items; the ARIA diff as a text attachment. */
function annotateSignals(test: TestCase, result: TestResult, verdict: CheckpointVerdict): void {
  const { signals } = verdict;
  const lists: [string, string[]][] = [
    ['console-errors', signals.newConsoleErrors],
    ['failed-requests', signals.newFailedRequests],
    ['a11y-violations', signals.newA11yViolations.map((v) => `${v.id} (${v.impact ?? 'unknown impact'}): ${v.targets.join(', ')}`)],
  ];
  for (const [type, items] of lists)
    if (items.length) pushAnnotation(test, result, { type, description: `${verdict.name}: ${items.join(' · ')}` });
  if (signals.ariaDiff)
    result.attachments.push({ name: `${verdict.name}-aria.diff`, body: Buffer.from(`${signals.ariaDiff}\n`), contentType: 'text/plain' });
}

/**
 * Writes a checkpoint's verdict where Playwright's HTML report shows it: an annotation, and for a
 * changed pair the expected/actual/diff triplet that the report turns into its image-diff viewer.
 */
function annotateVerdict(test: TestCase, result: TestResult, verdict: CheckpointVerdict): void {
  const type = ANNOTATION_BY_STATUS[verdict.status];
  if (type) {
    pushAnnotation(test, result, { type, description: describeVerdict(verdict) });
    addTag(test, `@${type}`);
  }
  const words = explanationWords(verdict.explanation);
  if (words) pushAnnotation(test, result, { type: 'visual-explanation', description: `${verdict.name}: ${words}` });
  const unexplained = unexplainedWords(verdict.explanation);
  if (unexplained) pushAnnotation(test, result, { type: 'visual-unexplained', description: `${verdict.name}: ${unexplained}` });
  if (verdict.diffImage && verdict.baselineImage && verdict.currentImage) {
    attachImage(result, `${verdict.name}-expected.png`, verdict.baselineImage);
    attachImage(result, `${verdict.name}-actual.png`, verdict.currentImage);
    attachImage(result, `${verdict.name}-diff.png`, verdict.diffImage);
    return;
  }
  if (verdict.status === 'missing') attachImage(result, `${verdict.name} (baseline only)`, verdict.baselineImage);
  else attachImage(result, verdict.name, verdict.currentImage);
}

/**
 * A checkpoint with a status (or a new signal) in failOn fails its test in the report, as
 * toHaveScreenshot fails its test: the report and the exit code tell the same story. The reason
 * becomes the test's error.
 */
export function failTest({ test: { result, titlePath } }: TestOutcome, failing: readonly CheckpointVerdict[]): void {
  if (failing.length === 0) return;
  for (const verdict of failing) result.errors.push({ message: `visual-uat: checkpoint "${verdict.name}" is ${verdict.status} (in failOn): ${verdict.reason}${settledBy(verdict.status, [...titlePath, verdict.name].join(' › '))}` });
  if (result.status === 'passed') result.status = 'failed';
}

/** What a person does about a failing checkpoint, as toHaveScreenshot's failure names `--update-snapshots`. */
function settledBy(status: CheckpointVerdict['status'], title: string): string {
  if (status === 'needs_review') return `. If the change is intended: npx visual-uat approve "${title}" (or npx visual-uat review), then commit ${APPROVALS_FILE}`;
  if (status === 'regression') return `. Fix it, or if it is intended after all: npx visual-uat approve "${title}", then commit ${APPROVALS_FILE}`;
  return '';
}

/** Each checkpoint's verdict, then the signals only current has, into the test's annotations and attachments. */
export function annotate({ test: { test, result }, checkpoints }: TestOutcome): void {
  for (const verdict of checkpoints) {
    annotateVerdict(test, result, verdict);
    annotateSignals(test, result, verdict);
  }
}
