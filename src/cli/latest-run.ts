import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import type { ApprovalSubject, DecisionRequest, Verdict } from '../approve';
import { decodeChange } from '../compare';
import { checkpointKey, latestResults, resultsDir, testKey } from '../config/layout';
import type { RunResult } from '../report';
import type { CheckpointResult, GroupRecord, TestResultRecord } from '../report/results';
import { checkpointTitle } from '../report/summary';

/**
 * The latest run as `approve`, `reject`, `report` and the review page see it: read from the
 * results file alone (a local run, or an output folder downloaded from CI after merge-reports),
 * with images that still open.
 */

/** The latest results file; one written before changes were grouped reads as a run without groups. */
export function readLatestRun(outputDir: string): RunResult {
  const file = latestResults(outputDir);
  if (!fs.existsSync(file)) throw new Error(`visual-uat: no run yet (${path.relative(process.cwd(), file) || file} does not exist): run npx visual-uat test (or npx playwright test) first`);
  const run = JSON.parse(fs.readFileSync(file, 'utf8')) as RunResult;
  for (const test of run.tests) for (const checkpoint of test.checkpoints) Object.assign(checkpoint, { group: checkpoint.group ?? null, otherGroups: checkpoint.otherGroups ?? [], fingerprint: checkpoint.fingerprint ?? null });
  return { ...run, groups: run.groups ?? [] };
}

/** A checkpoint of the latest run. */
export interface RunCheckpoint {
  /** `<test key> › <checkpoint>`, as the results' groups name it. */
  key: string;
  /** `<title path> › <checkpoint>`, as the table shows it. */
  title: string;
  test: TestResultRecord;
  checkpoint: CheckpointResult;
  subject: ApprovalSubject;
}

/**
 * The latest run's checkpoints with their images as files. A checkpoint whose recorded image is
 * gone from disk is left out: the approval rule cannot tell anything about it.
 */
export function runCheckpoints(run: RunResult, outputDir: string): RunCheckpoint[] {
  const dir = resultsDir(outputDir);
  const file = (recorded: string | null) => (recorded ? path.resolve(dir, recorded) : null);
  return run.tests.flatMap((test) =>
    test.checkpoints.flatMap((checkpoint) => {
      const baselineImage = file(checkpoint.baselineImage);
      const currentImage = file(checkpoint.currentImage);
      if ([baselineImage, currentImage].some((image) => image && !fs.existsSync(image))) return [];
      const key = testKey(test.project, test.titlePath);
      const change = checkpoint.fingerprint ? decodeChange(checkpoint.fingerprint) : null;
      return [{ key: checkpointKey(key, checkpoint.name), title: checkpointTitle(test, checkpoint.name), test, checkpoint, subject: { test: key, checkpoint: checkpoint.name, baselineImage, currentImage, change } }];
    }),
  );
}

/** The git user of the config's repository, as a decision records who took it. */
export async function reviewer(configDir: string): Promise<string> {
  const git = simpleGit({ baseDir: configDir });
  const read = async (key: string) => (await git.raw(['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (name || email) return email ? `${name || email} <${email}>` : name;
  return process.env.USER ?? 'unknown';
}

/** Who decides, when, why. */
export interface Decider {
  by: string;
  at: string;
  reason: string | null;
}

/** The checkpoints of the run that show a group's change. */
export function groupCheckpoints(group: GroupRecord, checkpoints: RunCheckpoint[]): RunCheckpoint[] {
  const keys = new Set([...group.members, ...group.alsoIn]);
  return checkpoints.filter((c) => keys.has(c.key));
}

/** A decision on a group's change: wherever it appears, now and in later runs. */
export function groupDecision(group: GroupRecord, checkpoints: RunCheckpoint[], verdict: Verdict, decider: Decider): DecisionRequest {
  const targets = groupCheckpoints(group, checkpoints).map((c) => ({ subject: c.subject, whole: c.checkpoint.group === group.id && c.checkpoint.otherGroups.length === 0 }));
  return { verdict, scope: 'change', change: group.fingerprint, checkpoints: targets, ...decider };
}

/** A decision on one checkpoint's whole change, there only. */
export function checkpointDecision(checkpoint: RunCheckpoint, verdict: Verdict, decider: Decider): DecisionRequest {
  return { verdict, scope: 'checkpoints', change: checkpoint.checkpoint.fingerprint!, checkpoints: [{ subject: checkpoint.subject, whole: true }], ...decider };
}
