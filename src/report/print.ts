import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';
import type { RunResult } from './results';
import { stepSummary, summaryLines, workflowAnnotations, type SummaryPaths } from './summary';

/** Where the reporter's words go: stdout, stderr, and GitHub Actions' summary and annotations. */

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

/** The end-of-run summary on stdout; in GitHub Actions also the job summary and the annotations. */
export function printSummary(run: RunResult, paths: SummaryPaths, env: NodeJS.ProcessEnv = process.env): void {
  process.stdout.write(`\n${summaryLines(run, paths).join('\n')}\n`);
  if (env.GITHUB_STEP_SUMMARY) fs.appendFileSync(env.GITHUB_STEP_SUMMARY, stepSummary(run, paths.onBase));
  if (env.GITHUB_ACTIONS) for (const line of workflowAnnotations(run)) process.stdout.write(`${line}\n`);
}

export function printLine(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function printWarning(line: string): void {
  process.stderr.write(`${line}\n`);
}
