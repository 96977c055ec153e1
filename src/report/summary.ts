import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';
import type { CheckpointStatus } from '../types';
import type { ApprovalOutcome } from './approvals';
import type { CheckpointResult, RunResult, TestResultRecord } from './results';

const ORDER: CheckpointStatus[] = ['regression', 'needs_review', 'errored', 'missing', 'new', 'changed', 'unchanged'];
export const TABLE_WIDTH = 100;

export interface SummaryPaths {
  results: string;
  report: string | null;
  approvals: ApprovalOutcome;
}

interface Row {
  test: TestResultRecord;
  checkpoint: CheckpointResult;
}

export function checkpointTitle(test: TestResultRecord, checkpoint: string): string {
  return [...test.titlePath, checkpoint].join(' › ');
}

function rows(run: RunResult, onlyAttention: boolean): Row[] {
  const all = run.tests.flatMap((test) => test.checkpoints.map((checkpoint) => ({ test, checkpoint })));
  const shown = onlyAttention ? all.filter(({ checkpoint }) => checkpoint.status !== 'unchanged') : all;
  return shown.sort((a, b) => ORDER.indexOf(a.checkpoint.status) - ORDER.indexOf(b.checkpoint.status));
}

export function countsLine(run: RunResult): string {
  const counts = new Map<CheckpointStatus, number>();
  for (const { checkpoint } of rows(run, false)) counts.set(checkpoint.status, (counts.get(checkpoint.status) ?? 0) + 1);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const parts = ORDER.filter((status) => counts.get(status)).map((status) => `${counts.get(status)} ${status}`);
  return `${total} checkpoint${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function fit(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat.padEnd(width) : `${flat.slice(0, width - 1)}…`;
}

/**
 * Titles lose their start, not their end: the checkpoint name is what a reader looks for. Whole
 * leading parts (the file, outer describes) go first, so no part is left cut in half.
 */
export function fitTail(text: string, width: number): string {
  if (text.length <= width) return text.padEnd(width);
  const parts = text.split(' › ');
  while (parts.length > 1) {
    parts.shift();
    const shorter = `… › ${parts.join(' › ')}`;
    if (shorter.length <= width) return shorter.padEnd(width);
  }
  return `…${text.slice(text.length - width + 1)}`;
}

function percent(checkpoint: CheckpointResult): string {
  return checkpoint.diffMetrics ? `${checkpoint.diffMetrics.pixelDiffPercent.toFixed(2)}%` : '';
}

/** status · test › checkpoint · % changed · reason, in at most `width` columns. */
export function formatTable(run: RunResult, onlyAttention: boolean, width = TABLE_WIDTH): string[] {
  const statusWidth = 12;
  const percentWidth = 8;
  const titleWidth = Math.floor((width - statusWidth - percentWidth - 6) * 0.55);
  const reasonWidth = width - statusWidth - percentWidth - titleWidth - 6;
  const line = (status: string, title: string, pct: string, reason: string) =>
    `  ${fit(status, statusWidth)} ${fitTail(title, titleWidth)} ${pct.padStart(percentWidth)} ${fit(reason, reasonWidth)}`.trimEnd();
  const table = rows(run, onlyAttention);
  if (table.length === 0) return [];
  return [
    line('status', 'test › checkpoint', 'changed', 'reason'),
    ...table.map(({ test, checkpoint }) => line(checkpoint.status, checkpointTitle(test, checkpoint.name), percent(checkpoint), checkpoint.reason)),
  ];
}

/** Where the HTML reporter writes, if the run has one: its outputFolder, else beside the nearest package.json. */
export function htmlReportPath(config: FullConfig, configDir: string): string | null {
  const html = config.reporter.find(([name]) => name === 'html');
  if (!html) return null;
  const options = (html[1] ?? {}) as { outputFolder?: string };
  let folder = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR ?? options.outputFolder;
  if (!folder) {
    let dir = configDir;
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    folder = path.join(fs.existsSync(path.join(dir, 'package.json')) ? dir : configDir, 'playwright-report');
  }
  return path.relative(process.cwd(), path.resolve(configDir, folder)) || '.';
}

/** The end-of-run summary: counts, a table of what needs a look, where to look, how to approve. */
export function printSummary(run: RunResult, paths: SummaryPaths): void {
  const lines = [`visual-uat: ${countsLine(run)}`, ...formatTable(run, true)];
  if (paths.approvals.applied) lines.push(`  ${paths.approvals.applied} checkpoint${paths.approvals.applied === 1 ? '' : 's'} approved earlier (visual-uat.approvals.json)`);
  for (const stale of paths.approvals.stale)
    lines.push(`  stale approval ignored: ${stale.test} › ${stale.checkpoint} no longer matches its images; npx visual-uat approve --prune drops it`);
  if (paths.report) lines.push(`  HTML report: ${paths.report}   (npx playwright show-report ${paths.report})`);
  if (run.tests.some((test) => test.checkpoints.some((c) => c.status === 'needs_review' || c.status === 'regression')))
    lines.push('  approve:     npx visual-uat approve --all   (or npx visual-uat approve "<test or checkpoint>")');
  lines.push(`visual-uat: results in ${paths.results}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  writeGitHubOutputs(run);
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

export function stepSummary(run: RunResult): string {
  const attention = rows(run, true);
  const base = run.baseCommit ? ` · base \`${run.baseBranch}\` @ \`${run.baseCommit.slice(0, 8)}\`` : '';
  const lines = [`## visual-uat`, '', `**${countsLine(run)}**${base}`, ''];
  if (attention.length) {
    lines.push('| status | test › checkpoint | changed | reason |', '|---|---|---:|---|');
    for (const { test, checkpoint } of attention)
      lines.push(`| ${checkpoint.status} | ${markdownCell(checkpointTitle(test, checkpoint.name))} | ${percent(checkpoint)} | ${markdownCell(checkpoint.reason)} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function workflowCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub Actions: a job summary, and a warning/error annotation per checkpoint that needs a human. */
function writeGitHubOutputs(run: RunResult): void {
  if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, stepSummary(run));
  if (!process.env.GITHUB_ACTIONS) return;
  for (const { test, checkpoint } of rows(run, true)) {
    const level = checkpoint.status === 'regression' ? 'error' : checkpoint.status === 'needs_review' ? 'warning' : null;
    if (!level) continue;
    const title = `visual-uat ${checkpoint.status}`;
    process.stdout.write(`::${level} file=${test.file},title=${title}::${workflowCommandData(`${checkpointTitle(test, checkpoint.name)}: ${checkpoint.reason}`)}\n`);
  }
}
