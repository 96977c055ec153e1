import type { TestCase, TestResult } from '@playwright/test/reporter';
import { unexplainedWords } from '../explain';
import type { CheckpointStatus } from '../types';
import { APPROVALS_FILE } from '../files/approvals-file';
import { plural } from '../util/text';
import { statusForTest, type CheckpointOutcome } from './decide';
import { explanationWords, REVIEW_COMMAND } from './summary';
import type { TestOutcome } from './outcome';
import type { CollectedTest } from './collect';

type Annotation = { type: string; description?: string };

const ANNOTATION_BY_STATUS: Record<Exclude<CheckpointStatus, 'missing'>, string | null> = {
  unchanged: null,
  changed: 'visual-change',
  needs_review: 'needs_review',
  unsteady: 'visual-unsteady',
  regression: 'visual-regression',
  new: 'visual-new',
  errored: 'visual-error',
};

export function describeCheckpoint(checkpoint: CheckpointOutcome): string {
  const parts = [`${checkpoint.name}: ${checkpoint.reason}`];
  if (checkpoint.evaluation) parts.push(`(confidence ${checkpoint.evaluation.confidence.toFixed(2)})`);
  if (checkpoint.diffImage)
    parts.push(
      `— ${checkpoint.diffMetrics.pixelDiffPercent}% of pixels changed ` +
        `in ${plural(checkpoint.diffMetrics.changedRegions.length, 'region')}`,
    );
  // Where a person decides: the review page approves or rejects the whole group at once.
  if (checkpoint.groups.length && (checkpoint.status === 'needs_review' || checkpoint.status === 'regression'))
    parts.push(`— approve or reject: ${REVIEW_COMMAND}`);
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
function annotateSignals(test: TestCase, result: TestResult, checkpoint: CheckpointOutcome): void {
  const { signals } = checkpoint;
  const lists: [string, string[]][] = [
    ['console-errors', signals.newConsoleErrors],
    ['failed-requests', signals.newFailedRequests],
    ['a11y-violations', signals.newA11yViolations.map((v) => `${v.id} (${v.impact ?? 'unknown impact'}): ${v.targets.join(', ')}`)],
  ];
  for (const [type, items] of lists)
    if (items.length) pushAnnotation(test, result, { type, description: `${checkpoint.name}: ${items.join(' · ')}` });
  if (signals.ariaDiff)
    result.attachments.push({
      name: `${checkpoint.name}-aria.diff`,
      body: Buffer.from(`${signals.ariaDiff}\n`),
      contentType: 'text/plain',
    });
}

/**
 * Writes a checkpoint's outcome where Playwright's HTML report shows it: an annotation, and for a
 * changed pair the expected/actual/diff triplet that the report turns into its image-diff viewer.
 */
function annotateCheckpoint({ test, result, status }: CollectedTest, checkpoint: CheckpointOutcome): void {
  const type = ANNOTATION_BY_STATUS[statusForTest(checkpoint.status, status)];
  if (type) {
    pushAnnotation(test, result, { type, description: describeCheckpoint(checkpoint) });
    addTag(test, `@${type}`);
  }
  const words = explanationWords(checkpoint.explanation);
  if (words) pushAnnotation(test, result, { type: 'visual-explanation', description: `${checkpoint.name}: ${words}` });
  const unexplained = unexplainedWords(checkpoint.explanation);
  if (unexplained) pushAnnotation(test, result, { type: 'visual-unexplained', description: `${checkpoint.name}: ${unexplained}` });
  if (checkpoint.diffImage && checkpoint.baselineImage && checkpoint.currentImage) {
    attachImage(result, `${checkpoint.name}-expected.png`, checkpoint.baselineImage);
    attachImage(result, `${checkpoint.name}-actual.png`, checkpoint.currentImage);
    attachImage(result, `${checkpoint.name}-diff.png`, checkpoint.diffImage);
    return;
  }
  if (checkpoint.status === 'missing') attachImage(result, `${checkpoint.name} (baseline only)`, checkpoint.baselineImage);
  else attachImage(result, checkpoint.name, checkpoint.currentImage);
}

/**
 * A checkpoint with a status (or a new signal) in failOn fails its test, as toHaveScreenshot fails
 * its test. The reason becomes the test's error (`error` is the first of `errors`, as Playwright
 * keeps them). Every reporter after visual-uat's reads the result as failed: the HTML report, the
 * terminal summary, the JSON and JUnit reports and the exit code tell the same story.
 */
export function failTest({ test: { result, titlePath } }: TestOutcome, failing: readonly CheckpointOutcome[]): void {
  if (failing.length === 0) return;
  for (const checkpoint of failing)
    result.errors.push({
      message:
        `visual-uat: checkpoint "${checkpoint.name}" is ${checkpoint.status} (in failOn): ${checkpoint.reason}` +
        `${settledBy(checkpoint.status, [...titlePath, checkpoint.name].join(' › '))}`,
    });
  result.error ??= result.errors[0];
  if (result.status === 'passed') result.status = 'failed';
}

/** What a person does about a failing checkpoint, as toHaveScreenshot's failure names `--update-snapshots`. */
function settledBy(status: CheckpointOutcome['status'], title: string): string {
  if (status === 'needs_review')
    return `. If the change is intended: npx visual-uat approve "${title}" (or npx visual-uat review), then commit ${APPROVALS_FILE}`;
  if (status === 'regression')
    return `. Fix it, or if it is intended after all: npx visual-uat approve "${title}", then commit ${APPROVALS_FILE}`;
  return '';
}

/** Each checkpoint's outcome, then the signals only current has, into the test's annotations and attachments. */
export function annotate({ test: collected, checkpoints }: TestOutcome): void {
  for (const checkpoint of checkpoints) {
    annotateCheckpoint(collected, checkpoint);
    annotateSignals(collected.test, collected.result, checkpoint);
  }
}
