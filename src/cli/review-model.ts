import fs from 'node:fs';
import path from 'node:path';
import { coveringDecisionOfShown, decidedIn, readApprovals, reviewApprovals, type DecisionKind } from '../approve';
import { decodeChange, findShown, inPrintOrder, type ChangePrint } from '../compare';
import { alikeLines, unexplainedWords } from '../explain';
import { checkpointKey, projectsLabel, testKey } from '../config/test-identity';
import { outputPath } from '../config/paths';
import type { Settings } from '../config/settings';
import type { RunResult } from '../report';
import type { CheckpointResult, GroupRecord } from '../report/results';
import { byProject, checkpointTitle, countsLine, groupProjects, groupTitle } from '../report/summary';
import type { CheckpointSignals, CheckpointStatus, Evaluation, Region } from '../types';
import { groupCheckpoints, groupPartOf, readLatestRun, runCheckpoints, runHeading, type RunCheckpoint } from './latest-run';

/** What the review page shows, built from the results file and the approvals file alone. */
export interface ReviewModel {
  /** The run's timestamp: a decision names the run it was taken on, so a page left open over a newer run is refused. */
  run: { timestamp: number; title: string; counts: string; unchanged: number } | null;
  /** Why there is nothing to show (no run yet). */
  message: string | null;
  entries: ReviewEntry[];
}

export interface ReviewDecision {
  decision: DecisionKind;
  by: string;
  at: string;
  reason: string | null;
}

/** One thing to decide: a group (a change on several checkpoints), or a single checkpoint. */
export interface ReviewEntry {
  /** A group id, or for a checkpoint without a change (new, missing, errored) its key. */
  id: string;
  title: string;
  status: CheckpointStatus;
  reason: string;
  evaluation: Evaluation | null;
  /** A change a person can approve or reject. */
  decidable: boolean;
  /** The decision the approvals file holds on it now, when one covers all of its checkpoints. */
  decision: ReviewDecision | null;
  checkpoints: ReviewCheckpoint[];
}

export interface ReviewCheckpoint {
  /** `<test key> › <checkpoint>`: a decision on everything it shows names it. */
  key: string;
  title: string;
  status: CheckpointStatus;
  reason: string;
  /** Image paths relative to the results folder (the server serves them from the output folder only). */
  images: { baseline: string | null; current: string | null; diff: string | null };
  pixelDiffPercent: number;
  /** The entry's change on this checkpoint: its regions (current-image pixels), outlined on the images. */
  regions: Region[];
  /** The top of the entry's first region, in current-image pixels: where the images open. */
  changeTop: number;
  signals: CheckpointSignals;
  /** The groups of its other changes. */
  otherGroups: string[];
  /**
   * What changed in words, one line per element (explain/), then why part of it could not be said, then the changed regions no line
   * accounts for; empty when the run explained nothing.
   */
  explanation: string[];
  /** The checkpoint's changed regions the words do not account for (current-image pixels), outlined apart. */
  unexplained: Region[];
}

const ORDER: CheckpointStatus[] = ['regression', 'needs_review', 'errored', 'missing', 'new', 'unsteady', 'changed', 'unchanged'];

/**
 * Where a group's change is on a checkpoint: the regions of its fingerprint found in the
 * checkpoint's, with their places; every changed region when there is no group or it is not found.
 * A full page that shows a banner and the footer opens on the footer in the footer's group.
 */
function regionsOf(checkpoint: CheckpointResult, project: string, group: GroupRecord | null): Region[] {
  const all = checkpoint.diffMetrics.changedRegions;
  const whole = checkpoint.fingerprint ? decodeChange(checkpoint.fingerprint) : null;
  const part = group ? groupChangeOn(checkpoint, project, group) : null;
  const found = whole && part ? findShown(part, whole) : null;
  if (!found || found.regions.length === 0 || whole!.regions.length !== all.length) return all;
  const ordered = inPrintOrder(all);
  return found.regions.map((i) => ordered[i]);
}

/** A group's change as a checkpoint shows it: its part as the run grouped it, else the group's print in its project. */
function groupChangeOn(checkpoint: CheckpointResult, project: string, group: GroupRecord): ChangePrint | null {
  return decodeChange(groupPartOf(checkpoint, group.id) ?? decidedIn({ change: group.fingerprint, projects: group.projects }, project)!);
}

function checkpointView(c: Pick<RunCheckpoint, 'key' | 'title' | 'test' | 'checkpoint'>, group: GroupRecord | null): ReviewCheckpoint {
  const { checkpoint } = c;
  const regions = regionsOf(checkpoint, c.test.project, group);
  // In a group seen in several projects, each checkpoint says which it is.
  const project = group && groupProjects(group).length ? `${projectsLabel([c.test.project])} › ` : '';
  return {
    key: c.key,
    title: `${project}${c.title}`,
    status: checkpoint.status,
    reason: checkpoint.reason,
    images: { baseline: checkpoint.baselineImage, current: checkpoint.currentImage, diff: checkpoint.diffImage },
    pixelDiffPercent: checkpoint.diffMetrics.pixelDiffPercent,
    regions,
    changeTop: regions.reduce((top, region) => Math.min(top, region.y), regions.length ? Infinity : 0),
    signals: checkpoint.signals,
    otherGroups: [checkpoint.group, ...checkpoint.otherGroups].filter((id): id is string => !!id && id !== group?.id),
    explanation: [
      ...alikeLines(checkpoint.explanation?.changes ?? []),
      ...(checkpoint.explanation?.note ? [`Not explained: ${checkpoint.explanation.note}`] : []),
      ...[unexplainedWords(checkpoint.explanation)].filter(Boolean),
    ],
    unexplained: checkpoint.explanation?.unexplained ?? [],
  };
}

/** The decision on a group that every checkpoint showing it agrees on, by the approval rule. */
function decisionOn(
  group: GroupRecord,
  shown: RunCheckpoint[],
  review: ReturnType<typeof reviewApprovals>,
  checkpoints: RunCheckpoint[],
): ReviewDecision | null {
  if (shown.length === 0) return null;
  const covering = shown.map((c) => {
    const change = groupChangeOn(c.checkpoint, c.test.project, group);
    return change && c.subject.change ? coveringDecisionOfShown(review.applied[checkpoints.indexOf(c)], c.subject.change, change) : null;
  });
  const first = covering[0];
  if (!first || covering.some((s) => s?.decision !== first.decision)) return null;
  const { decision, by, at, reason } = first.approval;
  return { decision, by, at, reason };
}

function entries(run: RunResult, settings: Settings): ReviewEntry[] {
  const checkpoints = runCheckpoints(run, settings.outputDir);
  const review = reviewApprovals(
    readApprovals(settings.configDir),
    checkpoints.map((c) => c.subject),
  );
  const groups = run.groups.map((group): ReviewEntry => {
    const shown = groupCheckpoints(group, checkpoints);
    const titles = byProject(
      shown.map((c) => c.key),
      groupProjects(group),
    );
    return {
      id: group.id,
      // One checkpoint, or one checkpoint seen in several projects, by its name.
      title:
        titles.length === 1
          ? shown.length === 1
            ? shown[0].title
            : `${projectsLabel(groupProjects(group))} › ${shown[0].title}`
          : groupTitle(group),
      status: group.status,
      reason: group.reason,
      evaluation: group.evaluation,
      decidable: true,
      decision: decisionOn(group, shown, review, checkpoints),
      checkpoints: shown.map((c) => checkpointView(c, group)),
    };
  });
  const others = run.tests.flatMap((test) =>
    test.checkpoints
      .filter((checkpoint) => !checkpoint.group && checkpoint.status !== 'unchanged')
      .map((checkpoint): ReviewEntry => {
        const view = checkpointView(
          {
            key: checkpointKey(testKey(test.project, test.titlePath), checkpoint.name),
            title: checkpointTitle(test, checkpoint.name),
            test,
            checkpoint,
          },
          null,
        );
        return {
          id: view.key,
          title: view.title,
          status: checkpoint.status,
          reason: checkpoint.reason,
          evaluation: checkpoint.evaluation,
          decidable: false,
          decision: null,
          checkpoints: [view],
        };
      }),
  );
  return [...groups, ...others].sort(
    (a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || b.checkpoints.length - a.checkpoints.length,
  );
}

export function reviewModel(settings: Settings): ReviewModel {
  const file = outputPath(settings.outputDir, 'latestResults');
  if (!fs.existsSync(file))
    return {
      run: null,
      message:
        `No run yet (${path.relative(process.cwd(), file) || file} does not exist): run npx visual-uat test (or npx ` +
        `playwright test), then reload this page.`,
      entries: [],
    };
  const run = readLatestRun(settings.outputDir);
  const unchanged = run.tests.reduce((n, test) => n + test.checkpoints.filter((c) => c.status === 'unchanged').length, 0);
  return {
    run: { timestamp: run.timestamp, title: `Run of ${runHeading(run)}`, counts: countsLine(run), unchanged },
    message: null,
    entries: entries(run, settings),
  };
}

/**
 * The PNG a request names (a path relative to the results folder, as the results file writes
 * them), or null when it is not a PNG file inside the output folder: requests never leave it,
 * neither by `..` nor by a symbolic link.
 */
export function imageFile(settings: Settings, requested: string): string | null {
  if (!requested || requested.includes('\0') || path.extname(requested).toLowerCase() !== '.png' || !fs.existsSync(settings.outputDir))
    return null;
  const root = fs.realpathSync.native(settings.outputDir);
  const file = path.resolve(outputPath(settings.outputDir, 'results'), requested);
  let real: string;
  try {
    real = fs.realpathSync.native(file);
  } catch {
    return null;
  }
  const inside = path.relative(root, real);
  return inside && !inside.startsWith('..') && !path.isAbsolute(inside) && fs.statSync(real).isFile() ? real : null;
}
