import fs from 'node:fs';
import type { TestInfo } from '@playwright/test';
import type { Role } from '../config/environment';
import { readBaselineSide, writeCheckpointFiles, type BaselineSide } from '../files/run-folder';
import type {
  BaselineTestRecord,
  CapturedSignals,
  ComparisonTolerance,
  LayoutRecord,
  RecordedComparison,
  Region,
  RunContext,
  VisualUatTestOptions,
} from '../types';

/**
 * The checkpoint attachment format, both ways. Capture leaves everything a comparison needs on
 * the test result, so the reporter pairs checkpoints from Playwright's own results: the same code
 * serves a local run and `merge-reports` of blob shards. Names start with "_", so the HTML report
 * hides them.
 *
 * - `_visual-uat-test`: the test's TestMeta, once per test.
 * - `_visual-uat-run`: the run's RunContext, once per worker process (it is the same for the run).
 * - `_visual-uat-checkpoint:<name>`: CheckpointMeta (both roles; the baseline role's manifest reads whether it held still).
 * - `_visual-uat-image:<name>`: the image, by path.
 * - `_visual-uat-layout:<name>`: its layout record (capture/layout), by path, when one was taken (both roles).
 * - `_visual-uat-diff:<name>`: the diff image of the comparison the worker made while the page was alive
 *   (CheckpointMeta.comparison), by path, when the images differ (current role).
 * - `_visual-uat-baseline:<name>`, `_visual-uat-baseline-signals:<name>`,
 *   `_visual-uat-baseline-layout:<name>`: what the baseline pass left for this checkpoint (current role).
 *
 * The files behind them (the images, the base's signals beside its images) are the run folder's
 * (files/run-folder.ts).
 * Both passes keep a layout record beside the image (`<name>.layout.json.gz`).
 */

const TEST_META = '_visual-uat-test';
const RUN_CONTEXT = '_visual-uat-run';
const CHECKPOINT_META = '_visual-uat-checkpoint:';
const IMAGE = '_visual-uat-image:';
const BASELINE_IMAGE = '_visual-uat-baseline:';
const BASELINE_SIGNALS = '_visual-uat-baseline-signals:';
const LAYOUT = '_visual-uat-layout:';
const BASELINE_LAYOUT = '_visual-uat-baseline-layout:';
const LIVE_DIFF = '_visual-uat-diff:';

/** What a test's result carries about the test, so the reporter can pair it without the output folder. */
export interface TestMeta {
  key: string;
  /** The test's folder under every image root (see config/test-identity testFolder). */
  folder: string;
  /** What the baseline pass left for the test; null while that pass runs beside the current one. */
  baseline: BaselineInfo | null;
  options: VisualUatTestOptions;
}

/** Whether a test has a baseline to compare with, why not when it has none, and the checkpoints the base took. */
export interface BaselineInfo {
  available: boolean;
  error: string | null;
  checkpoints: string[];
  /** The base pass's record of the test: how it ended, what each capture left (null: none). */
  record: BaselineTestRecord | null;
}

/** One checkpoint as the current pass took it. */
export interface CheckpointMeta extends ComparisonTolerance {
  name: string;
  intent: string | null;
  /** Two consecutive captures matched before the timeout. */
  stable: boolean;
  /** A capture that never settled: where its last two captures still differed (null: it settled). */
  unsettled: Region | null;
  /** How many screenshots the capture took, when it was compared with its baseline while the page was alive (absent: it was not). */
  captures?: number;
  /** What its first capture's difference from the baseline was (null: the first matched). */
  firstDifference?: string | null;
  /** The worker's comparison of the image kept with its baseline, which the report takes for its own when it holds (absent: none made). */
  comparison?: RecordedComparison | null;
  signals: CapturedSignals;
}

/** One captured checkpoint, for writeCheckpoint. */
export interface CapturedCheckpoint {
  role: Role;
  folder: string;
  png: Buffer;
  meta: CheckpointMeta;
  /** The DOM and styles behind the image; null when none was taken (the first capture matched the baseline, or the page would not say). */
  layout?: LayoutRecord | null;
  /** The diff image of `meta.comparison`, where the live look wrote it: kept beside the image. */
  liveDiff?: string | null;
  /** Where this role's images go. */
  imageRoot: string;
  /** The baseline entry the current pass compares with (null: none, or the baseline role). */
  baselineRoot: string | null;
}

/** One checkpoint, decoded from a test result. */
export interface DecodedCheckpoint {
  name: string;
  /** The current image, by path (null: only the baseline side was attached). */
  image: string | null;
  meta: CheckpointMeta | null;
  /** The current side's layout record, by path. */
  layout: string | null;
  /** The diff image of the worker's comparison (meta.comparison), by path. */
  liveDiff: string | null;
  baseline: BaselineSide;
}

export interface DecodedResult {
  test: TestMeta | null;
  context: RunContext | null;
  checkpoints: DecodedCheckpoint[];
}

/** What a result's attachments look like to the reporter (TestResult's) and to the worker (TestInfo's). */
interface Attachment {
  name: string;
  path?: string;
  body?: Buffer;
}

type Attacher = Pick<TestInfo, 'attach' | 'attachments'>;

function attachJson(testInfo: Attacher, name: string, value: unknown): Promise<void> {
  return testInfo.attach(name, { body: JSON.stringify(value), contentType: 'application/json' });
}

/**
 * A file the run keeps, attached where it is: `attach()` would copy it into the test's output
 * folder, which Playwright removes once a test passes under `preserveOutput: 'failures-only'`,
 * before a blob reporter packs the files of every attachment at the end of the run (its shards'
 * blobs then carried no image). Pushing onto `attachments` is how Playwright attaches its traces.
 */
function attachFile(testInfo: Attacher, name: string, file: string, contentType: string): void {
  testInfo.attachments.push({ name, path: file, contentType });
}

export function writeTestMeta(testInfo: Attacher, meta: TestMeta): Promise<void> {
  return attachJson(testInfo, TEST_META, meta);
}

export function writeRunContext(testInfo: Attacher, context: RunContext): Promise<void> {
  return attachJson(testInfo, RUN_CONTEXT, context);
}

/** Writes a checkpoint's image (and, in the baseline role, its signals) and attaches what the reporter reads back. */
export async function writeCheckpoint(testInfo: Attacher, checkpoint: CapturedCheckpoint): Promise<void> {
  const { name } = checkpoint.meta;
  const base = checkpoint.role === 'baseline';
  const { image, layout, diff } = writeCheckpointFiles(
    checkpoint.imageRoot,
    checkpoint.folder,
    name,
    checkpoint.png,
    base ? checkpoint.meta.signals : null,
    checkpoint.layout ?? null,
    checkpoint.liveDiff ?? null,
  );
  // The baseline role's manifest reads the meta too: which captures held still (see BaselineTestRecord.unsettled).
  await attachJson(testInfo, `${CHECKPOINT_META}${name}`, checkpoint.meta);
  attachFile(testInfo, `${IMAGE}${name}`, image, 'image/png');
  // The baseline role's manifest reads it too: which captures wrote a layout record (see BaselineTestRecord.layouts).
  if (layout) attachFile(testInfo, `${LAYOUT}${name}`, layout, 'application/gzip');
  if (diff) attachFile(testInfo, `${LIVE_DIFF}${name}`, diff, 'image/png');
  if (base || !checkpoint.baselineRoot) return;
  const baseSide = readBaselineSide(checkpoint.baselineRoot, checkpoint.folder, name);
  if (baseSide.image) attachFile(testInfo, `${BASELINE_IMAGE}${name}`, baseSide.image, 'image/png');
  if (baseSide.signals) await attachJson(testInfo, `${BASELINE_SIGNALS}${name}`, baseSide.signals);
  if (baseSide.layout) attachFile(testInfo, `${BASELINE_LAYOUT}${name}`, baseSide.layout, 'application/gzip');
}

function bodyText(attachment: Attachment | undefined): string | null {
  if (!attachment) return null;
  if (attachment.body) return attachment.body.toString('utf8');
  if (attachment.path && fs.existsSync(attachment.path)) return fs.readFileSync(attachment.path, 'utf8');
  return null;
}

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Everything capture attached to one test result, decoded; checkpoints in the order they were taken. */
export function readCheckpoints(attachments: readonly Attachment[]): DecodedResult {
  const byName = new Map(attachments.map((attachment) => [attachment.name, attachment]));
  const json = <T>(name: string) => parseJson<T>(bodyText(byName.get(name)));
  const checkpoints = attachments
    .filter((attachment) => attachment.name.startsWith(IMAGE))
    .map((attachment): DecodedCheckpoint => {
      const name = attachment.name.slice(IMAGE.length);
      return {
        name,
        image: attachment.path ?? null,
        meta: json<CheckpointMeta>(`${CHECKPOINT_META}${name}`),
        layout: byName.get(`${LAYOUT}${name}`)?.path ?? null,
        liveDiff: byName.get(`${LIVE_DIFF}${name}`)?.path ?? null,
        baseline: {
          image: byName.get(`${BASELINE_IMAGE}${name}`)?.path ?? null,
          signals: json<CapturedSignals>(`${BASELINE_SIGNALS}${name}`),
          layout: byName.get(`${BASELINE_LAYOUT}${name}`)?.path ?? null,
        },
      };
    });
  return { test: json<TestMeta>(TEST_META), context: json<RunContext>(RUN_CONTEXT), checkpoints };
}
