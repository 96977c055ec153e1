import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { approvalOf, approvalsPath, concerns, readApprovals, reviewApprovals, writeApprovals, type ApprovalSubject, type ChangedSubject } from '../approve';
import { latestResults, resultsDir, testKey } from '../config/layout';
import type { Settings } from '../config/options';
import type { RunResult } from '../report';
import { approvalLines, checkpointTitle, countsLine, formatTable } from '../report/summary';

export function readLatestRun(outputDir: string): RunResult {
  const file = latestResults(outputDir);
  if (!fs.existsSync(file))
    throw new Error(`visual-uat: no run yet (${path.relative(process.cwd(), file) || file} does not exist): run npx visual-uat test (or npx playwright test) first`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as RunResult;
}

/** A checkpoint of the latest run, as approve and report see it. */
interface RunCheckpoint {
  subject: ApprovalSubject;
  title: string;
  status: string;
  /** A changed pair whose images are both still on disk: it can be approved. */
  changed: ChangedSubject | null;
}

/**
 * The latest run's checkpoints with their images as files. A checkpoint whose recorded image is
 * gone from disk is left out: the approval rule cannot tell anything about it.
 */
function runCheckpoints(run: RunResult, outputDir: string): RunCheckpoint[] {
  const dir = resultsDir(outputDir);
  const file = (recorded: string | null) => (recorded ? path.resolve(dir, recorded) : null);
  return run.tests.flatMap((test) =>
    test.checkpoints.flatMap((checkpoint) => {
      const baselineImage = file(checkpoint.baselineImage);
      const currentImage = file(checkpoint.currentImage);
      if ([baselineImage, currentImage].some((image) => image && !fs.existsSync(image))) return [];
      const subject = { test: testKey(test.project, test.titlePath), checkpoint: checkpoint.name, baselineImage, currentImage };
      return [
        {
          subject,
          title: checkpointTitle(test, checkpoint.name),
          status: checkpoint.status,
          changed: baselineImage && currentImage && checkpoint.diffImage ? { ...subject, baselineImage, currentImage } : null,
        },
      ];
    }),
  );
}

export async function report(settings: Settings, json: boolean): Promise<string> {
  const run = readLatestRun(settings.outputDir);
  if (json) return `${JSON.stringify(run, null, 2)}\n`;
  const when = new Date(run.timestamp).toISOString().replace('T', ' ').slice(0, 19);
  const base = run.baseCommit ? `${run.baseBranch} @ ${run.baseCommit.slice(0, 8)}` : 'no base';
  const current = `${run.currentBranch ?? 'detached'} @ ${(run.currentCommit ?? '').slice(0, 8)}${run.dirty ? ' (dirty)' : ''}`;
  const review = await reviewApprovals(readApprovals(settings.configDir), runCheckpoints(run, settings.outputDir).map((c) => c.subject));
  const approvals = approvalLines({ applied: review.matches.filter(Boolean).length, stale: review.stale });
  return [`visual-uat run of ${when} UTC: ${base} → ${current}`, countsLine(run), ...formatTable(run, false), ...approvals].join('\n') + '\n';
}

async function reviewer(configDir: string): Promise<string> {
  const git = simpleGit({ baseDir: configDir });
  const read = async (key: string) => (await git.raw(['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (name || email) return email ? `${name || email} <${email}>` : name;
  return process.env.USER ?? 'unknown';
}

export interface ApproveOptions {
  all?: boolean;
  reason?: string;
  dryRun?: boolean;
  prune?: boolean;
}

/**
 * Records approvals for the latest run's checkpoints that match a filter (or every needs_review
 * one with --all), replacing older approvals of the same checkpoints and dropping stale ones: the
 * ones the run reported as stale, by the same rule (approve/rule.ts).
 */
export async function approve(settings: Settings, filters: string[], options: ApproveOptions): Promise<string> {
  if (!filters.length && !options.all && !options.prune)
    throw new Error('visual-uat: approve what? name a test or checkpoint filter, or pass --all for every needs_review checkpoint');
  const run = readLatestRun(settings.outputDir);
  const checkpoints = runCheckpoints(run, settings.outputDir);
  const lowered = filters.map((filter) => filter.toLowerCase());
  const wanted = ({ title, status }: RunCheckpoint) =>
    lowered.length ? lowered.some((filter) => title.toLowerCase().includes(filter)) && status !== 'unchanged' : !!options.all && status === 'needs_review';
  const chosen = checkpoints.flatMap((checkpoint) => (checkpoint.changed && wanted(checkpoint) ? [{ ...checkpoint, changed: checkpoint.changed }] : []));
  if ((filters.length || options.all) && chosen.length === 0)
    throw new Error(`visual-uat: nothing to approve: no changed checkpoint of the latest run matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : '--all'} (see npx visual-uat report)`);

  const existing = readApprovals(settings.configDir);
  const { stale } = await reviewApprovals(existing, checkpoints.map((c) => c.subject));
  const kept = existing.filter((approval) => !stale.includes(approval) && !chosen.some((c) => concerns(approval, c.subject)));
  const who = await reviewer(settings.configDir);
  const now = new Date().toISOString();
  const added = chosen.map((c) => approvalOf(c.changed, who, now, options.reason ?? null));
  const lines = [
    ...chosen.map(({ title, status }) => `${options.dryRun ? 'would approve' : 'approved'}: ${title} (${status})`),
    ...stale.map((approval) => `${options.dryRun ? 'would drop' : 'dropped'} stale approval: ${approval.test} › ${approval.checkpoint} (no longer matches its images)`),
  ];
  if (!options.dryRun && (chosen.length || stale.length)) writeApprovals(settings.configDir, [...kept, ...added]);
  const file = path.relative(process.cwd(), approvalsPath(settings.configDir)) || approvalsPath(settings.configDir);
  lines.push(options.dryRun ? `dry run: ${file} not written` : chosen.length || stale.length ? `written: ${file} (commit it with your change)` : `nothing changed in ${file}`);
  return `${lines.join('\n')}\n`;
}
