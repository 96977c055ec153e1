import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test/reporter';
import type { RunResult } from './results';
import { stepSummary, summaryLines, workflowAnnotations, type SummaryPaths } from './summary';
import { ENV } from '../config/environment';
import { printLine } from '../util/output';

/** Where the reporter's summary goes besides the terminal (util/output.ts): GitHub Actions' job summary and annotations. */

/** Where the HTML reporter writes, if the run has one: its outputFolder, else beside the nearest package.json. */
export function htmlReportPath(config: FullConfig, configDir: string): string | null {
  const html = config.reporter.find(([name]) => name === 'html');
  if (!html) return null;
  const options = (html[1] ?? {}) as { outputFolder?: string };
  let folder = ENV.htmlOutputDir.read() ?? options.outputFolder;
  if (!folder) {
    let dir = configDir;
    while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    folder = path.join(fs.existsSync(path.join(dir, 'package.json')) ? dir : configDir, 'playwright-report');
  }
  return path.relative(process.cwd(), path.resolve(configDir, folder)) || '.';
}

/** The end-of-run summary on stdout; in GitHub Actions also the job summary and the annotations. */
export function printSummary(run: RunResult, paths: SummaryPaths, env: NodeJS.ProcessEnv = process.env): void {
  printLine(`\n${summaryLines(run, paths).join('\n')}`);
  const stepSummaryFile = ENV.githubStepSummary.read(env);
  if (stepSummaryFile) fs.appendFileSync(stepSummaryFile, stepSummary(run, paths.onBase));
  if (ENV.githubActions.read(env)) for (const line of workflowAnnotations(run)) printLine(line);
}
