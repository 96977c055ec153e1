import fs from 'node:fs';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { approvalsPath, hashImage, readApprovals, sameCheckpoint, writeApprovals, type Approval } from '../approve';
import { resultsDir, testKey } from '../config/layout';
import type { RunResult } from '../report';
import { checkpointTitle, countsLine, formatTable } from '../report/summary';

export interface ReviewPaths {
  configDir: string;
  outputDir: string;
}

/** Where the CLI looks: the config's folder (`--config`, else the current one) and the output folder in it. */
export function reviewPaths(options: { config?: string; dir?: string }, cwd = process.cwd()): ReviewPaths {
  const configDir = options.config ? path.dirname(path.resolve(cwd, options.config)) : cwd;
  const dir = options.dir ?? process.env.VISUAL_UAT_DIR ?? '.visual-uat';
  return { configDir, outputDir: path.resolve(configDir, dir) };
}

export function readLatestRun(outputDir: string): RunResult {
  const file = path.join(resultsDir(outputDir), 'latest.json');
  if (!fs.existsSync(file))
    throw new Error(`visual-uat: no run yet (${path.relative(process.cwd(), file) || file} does not exist): run npx visual-uat test (or npx playwright test) first`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as RunResult;
}

export function report(paths: ReviewPaths, json: boolean): string {
  const run = readLatestRun(paths.outputDir);
  if (json) return `${JSON.stringify(run, null, 2)}\n`;
  const when = new Date(run.timestamp).toISOString().replace('T', ' ').slice(0, 19);
  const base = run.baseCommit ? `${run.baseBranch} @ ${run.baseCommit.slice(0, 8)}` : 'no base';
  const current = `${run.currentBranch ?? 'detached'} @ ${(run.currentCommit ?? '').slice(0, 8)}${run.dirty ? ' (dirty)' : ''}`;
  return [`visual-uat run of ${when} UTC: ${base} → ${current}`, `${countsLine(run)}`, ...formatTable(run, false)].join('\n') + '\n';
}

interface Candidate {
  approval: Approval;
  title: string;
  status: string;
}

async function reviewer(configDir: string): Promise<string> {
  const git = simpleGit({ baseDir: configDir });
  const read = async (key: string) => (await git.raw(['config', '--get', key]).catch(() => '')).trim();
  const [name, email] = await Promise.all([read('user.name'), read('user.email')]);
  if (name || email) return email ? `${name || email} <${email}>` : name;
  return process.env.USER ?? 'unknown';
}

function candidates(run: RunResult, outputDir: string, who: string, reason: string | null, now: string): Candidate[] {
  const dir = resultsDir(outputDir);
  return run.tests.flatMap((test) =>
    test.checkpoints
      .filter((checkpoint) => checkpoint.baselineImage && checkpoint.currentImage && checkpoint.diffImage)
      .filter((checkpoint) => fs.existsSync(path.resolve(dir, checkpoint.baselineImage!)) && fs.existsSync(path.resolve(dir, checkpoint.currentImage!)))
      .map((checkpoint) => ({
        title: checkpointTitle(test, checkpoint.name),
        status: checkpoint.status,
        approval: {
          test: testKey(test.project, test.titlePath),
          checkpoint: checkpoint.name,
          baseline: hashImage(path.resolve(dir, checkpoint.baselineImage!)),
          current: hashImage(path.resolve(dir, checkpoint.currentImage!)),
          by: who,
          at: now,
          reason,
        },
      })),
  );
}

export interface ApproveOptions {
  all?: boolean;
  reason?: string;
  dryRun?: boolean;
  prune?: boolean;
}

/**
 * Records approvals for the latest run's checkpoints that match a filter (or every needs_review
 * one with --all), replacing older approvals of the same checkpoints and dropping stale ones.
 */
export async function approve(paths: ReviewPaths, filters: string[], options: ApproveOptions): Promise<string> {
  if (!filters.length && !options.all && !options.prune)
    throw new Error('visual-uat: approve what? name a test or checkpoint filter, or pass --all for every needs_review checkpoint');
  const run = readLatestRun(paths.outputDir);
  const all = candidates(run, paths.outputDir, await reviewer(paths.configDir), options.reason ?? null, new Date().toISOString());
  const lowered = filters.map((filter) => filter.toLowerCase());
  const chosen = all.filter(({ title, status }) =>
    lowered.length ? lowered.some((filter) => title.toLowerCase().includes(filter)) && status !== 'unchanged' : options.all && status === 'needs_review',
  );
  if ((filters.length || options.all) && chosen.length === 0)
    throw new Error(`visual-uat: nothing to approve: no changed checkpoint of the latest run matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : '--all'} (see npx visual-uat report)`);

  const existing = readApprovals(paths.configDir);
  const stale = existing.filter((approval) => all.some((c) => sameCheckpoint(c.approval, approval) && c.approval.current !== approval.current));
  const kept = existing.filter((approval) => !stale.includes(approval) && !chosen.some((c) => sameCheckpoint(c.approval, approval)));
  const lines = [
    ...chosen.map(({ title, status }) => `${options.dryRun ? 'would approve' : 'approved'}: ${title} (${status})`),
    ...stale.map((approval) => `${options.dryRun ? 'would drop' : 'dropped'} stale approval: ${approval.test} › ${approval.checkpoint} (no longer matches its images)`),
  ];
  if (!options.dryRun && (chosen.length || stale.length)) writeApprovals(paths.configDir, [...kept, ...chosen.map((c) => c.approval)]);
  const file = path.relative(process.cwd(), approvalsPath(paths.configDir)) || approvalsPath(paths.configDir);
  lines.push(options.dryRun ? `dry run: ${file} not written` : chosen.length || stale.length ? `written: ${file} (commit it with your change)` : `nothing changed in ${file}`);
  return `${lines.join('\n')}\n`;
}
