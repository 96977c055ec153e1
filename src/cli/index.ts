import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Command } from 'commander';
import { isOutputName, outputPath, worktreeHomes } from '../config/paths';
import { ENV } from '../config/environment';
import { gatedReporterFlags } from '../config/reporters';
import { isVisualUatReporter } from '../config/with-visual-uat';
import type { Settings } from '../config/settings';
import { openRepo } from '../git';
import { resolveBase } from '../git/base';
import { removeWorktreesIn } from '../checkout/worktrees';
import { KEPT_COMMITS, pruneStore, sizeText, storeSize } from '../store/prune';
import { foreignContent, STORE_OPTION } from '../store/home';
import { isInside } from '../util/fs';
import { plural } from '../util/text';
import { generate } from '../oxtest/generate';
import { evalCommand, type EvalCliOptions } from './eval';
import { init, type InitOptions } from './init';
import { approveOrReject, report, type DecideOptions } from './review';
import { portOption, serveReview, type ServeOptions } from './review-server';
import { cliSettings, type CliFlags } from './cli-settings';
import { printLine, printText } from '../util/output';

function playwrightCli(cwd: string): string {
  try {
    return createRequire(path.join(cwd, 'package.json')).resolve('@playwright/test/cli');
  } catch {
    throw new Error('visual-uat: @playwright/test is not installed here: run npm install -D @playwright/test');
  }
}

/**
 * `visual-uat test`: `playwright test` with visual-uat's options set through the environment; a
 * `--reporter` list keeps visual-uat's reporter first, so the run still compares and gates.
 */
export function runTest(
  playwrightArgs: string[],
  options: { base?: string; updateBaselines?: boolean; keepWorktrees?: boolean; record?: boolean },
  cwd = process.cwd(),
): number {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.record) ENV.record.write(true, env);
  if (options.base) ENV.base.write(options.base, env);
  if (options.updateBaselines) ENV.updateBaselines.write(true, env);
  if (options.keepWorktrees) ENV.keepWorktrees.write(true, env);
  const args = gatedReporterFlags(playwrightArgs, isVisualUatReporter, env);
  const result = spawnSync(process.execPath, [playwrightCli(cwd), 'test', ...args], { cwd, env, stdio: 'inherit' });
  return result.status ?? 1;
}

/**
 * Commander keeps the `--` that ends visual-uat's options when a Playwright flag came before it
 * (`test --reporter=line -- --grep home`); Playwright would take what follows for file filters.
 */
function withoutSeparator(args: string[]): string[] {
  const at = args.indexOf('--');
  return at === -1 ? args : [...args.slice(0, at), ...args.slice(at + 1)];
}

/** Removes everything under `dir` but the folders in `keep` (and the folders that lead to them). */
function removeExcept(dir: string, keep: string[]): void {
  for (const entry of fs.readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (keep.includes(file)) continue;
    if (keep.some((kept) => kept.startsWith(`${file}${path.sep}`))) removeExcept(file, keep);
    else fs.rmSync(file, { recursive: true, force: true });
  }
}

/**
 * `visual-uat clean`: removes what runs made (baselines, screenshots, results, caches, and the
 * worktrees, unregistered from git first). People's decisions are not a run's output: the
 * labelled cases and the evals measured on them stay, and it says where. A baseline store outside
 * the output folder is shared (CI caches, other checkouts): it is pruned to its newest
 * `keepCommits` base commits, not removed. Returns a line for each thing it did.
 */
export async function clean(settings: Settings, keepCommits?: number): Promise<string[]> {
  const lines: string[] = [];
  const shown = (file: string) => path.relative(process.cwd(), file) || file;
  const foreign =
    isInside(settings.baselineStore, settings.outputDir) || !fs.existsSync(settings.baselineStore)
      ? null
      : foreignContent(settings.baselineStore);
  if (foreign)
    lines.push(
      `visual-uat clean: the baseline store ${settings.baselineStore} ${foreign}: nothing in it was removed; ` +
        `point ${STORE_OPTION} at the store's folder`,
    );
  else if (!isInside(settings.baselineStore, settings.outputDir) && fs.existsSync(settings.baselineStore)) {
    const before = storeSize(settings.baselineStore);
    pruneStore(settings.baselineStore, null, keepCommits);
    const after = storeSize(settings.baselineStore);
    const newest = `the newest ${plural(keepCommits ?? KEPT_COMMITS, 'base commit')}`;
    const pruned = after.entries < before.entries || after.bytes < before.bytes;
    const sizes = pruned
      ? `${sizeText(before)} before, ${sizeText(after)} kept (${newest})`
      : `${sizeText(before)}, nothing to prune (it keeps ${newest})`;
    lines.push(`visual-uat clean: baseline store ${settings.baselineStore}: ${sizes}`);
  }
  const homes = Object.values(worktreeHomes(settings.outputDir)).filter((home) => fs.existsSync(home));
  const repo = homes.length ? await openRepo(settings.configDir) : null;
  const worktrees: string[] = [];
  for (const home of homes) {
    await removeWorktreesIn(repo!, home, null, (name) => worktrees.push(name));
    fs.rmSync(home, { recursive: true, force: true });
  }
  if (worktrees.length)
    lines.push(`visual-uat clean: removed ${plural(worktrees.length, 'worktree')} of the base (${worktrees.join(', ')})`);
  if (!fs.existsSync(settings.outputDir))
    return [...lines, `visual-uat clean: nothing else to remove (${shown(settings.outputDir)} does not exist)`];
  const keep = [settings.labelsDir, outputPath(settings.outputDir, 'eval')].filter(
    (dir) => dir.startsWith(`${settings.outputDir}${path.sep}`) && fs.existsSync(dir) && fs.readdirSync(dir).length > 0,
  );
  // Only what runs write there: an output folder set to a folder of the user's keeps the rest.
  const removed = fs
    .readdirSync(settings.outputDir)
    .filter((name) => isOutputName(name) && !keep.includes(path.join(settings.outputDir, name)))
    .sort();
  for (const name of removed) {
    const file = path.join(settings.outputDir, name);
    if (keep.some((kept) => kept.startsWith(`${file}${path.sep}`))) removeExcept(file, keep);
    else fs.rmSync(file, { recursive: true, force: true });
  }
  if (fs.readdirSync(settings.outputDir).length === 0) fs.rmdirSync(settings.outputDir);
  if (removed.length) lines.push(`visual-uat clean: removed ${removed.map((name) => `${shown(settings.outputDir)}/${name}`).join(', ')}`);
  for (const dir of keep)
    lines.push(
      `visual-uat clean: kept ${shown(dir)} (labelled cases and evals are decisions, not run output: delete the folder yourself ` +
        `to drop them)`,
    );
  return lines;
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`visual-uat: --keep-commits takes a whole number of at least 1, not "${value}"`);
  return n;
}

const CONFIG_FLAG = ['--config <file>', 'the Playwright config (default: the one in the current folder)'] as const;
const DIR_FLAG = [
  '--dir <folder>',
  "output folder, relative to the config's folder (default: VISUAL_UAT_DIR, else withVisualUat's outputDir, else .visual-uat)",
] as const;

export function buildProgram(): Command {
  const program = new Command('visual-uat').description('Visual acceptance testing across git branches, inside Playwright');
  program
    .command('test')
    .description('run playwright test with the baseline pass and the comparison (arguments after -- go to playwright)')
    .option(
      '--base <ref>',
      "base branch to compare with (default: a CI variable such as GITHUB_BASE_REF, else the remote's default branch, else " +
        'main, else master)',
    )
    .option('--update-baselines', 'capture the baselines again even when cached')
    .option('--keep-worktrees', 'keep the base worktree after the run')
    .argument('[playwrightArgs...]', 'arguments for playwright test')
    .allowUnknownOption()
    .action(async (playwrightArgs: string[], options) => {
      // A base that is not here stops the run now, not after Playwright has started the webServer (a dev server's first compile).
      if (options.base) await resolveBase(await openRepo(process.cwd()), { branch: options.base, setting: '--base' });
      process.exitCode = runTest(withoutSeparator(playwrightArgs), options);
    });
  program
    .command('record')
    .description(
      'run the tests and store their checkpoints as the baselines of HEAD (clean tree) in the baseline store, for later runs ' +
        'and other machines',
    )
    .argument('[playwrightArgs...]', 'arguments for playwright test')
    .allowUnknownOption()
    .action((playwrightArgs: string[]) => {
      process.exitCode = runTest(withoutSeparator(playwrightArgs), { record: true });
    });
  program
    .command('init')
    .description(
      'wire this Playwright project: wrap its config with withVisualUat, ignore .visual-uat/, optionally write a GitHub Actions workflow',
    )
    .option('--base <branch>', "the base branch to write into the config (default: the remote's default branch, else main, else master)")
    .option('--github-actions', "also write .github/workflows/visual-uat.yml (shards, then merge-reports with visual-uat's reporter)")
    .option('--dry-run', 'show the edit and what would be written; write nothing')
    .option(...CONFIG_FLAG)
    .action(async (options: InitOptions) => {
      const outcome = await init(process.cwd(), options);
      (outcome.exitCode ? process.stderr : process.stdout).write(outcome.output);
      process.exitCode = outcome.exitCode;
    });
  program
    .command('clean')
    .description(
      'remove what runs left in the output folder (baselines, screenshots, results, caches, worktrees); labelled cases and evals stay',
    )
    .option('--keep-commits <n>', 'base commits a baseline store outside the output folder keeps (default: the newest 6)', positiveInteger)
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (flags: CliFlags & { keepCommits?: number }) => {
      for (const line of await clean(cliSettings(flags), flags.keepCommits)) printLine(line);
    });
  program
    .command('approve')
    .description('approve the changes of the latest run that a filter names: the whole group of each matched checkpoint')
    .argument('[filters...]', 'parts of "<test title path> › <checkpoint>", or group ids (g1)')
    .option('--all', 'approve every needs_review change')
    .option('--only', 'approve the matched checkpoints alone, not their groups (the approval does not carry over to other checkpoints)')
    .option('--reason <text>', 'why, recorded with the approval')
    .option('--dry-run', 'list the groups and checkpoints that would be approved; write nothing')
    .option('--prune', 'drop approvals and rejections that no longer apply (the ones a run reports as stale)')
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (filters: string[], options: DecideOptions & CliFlags) => {
      printText(await approveOrReject(cliSettings(options), filters, options, 'approved'));
    });
  program
    .command('reject')
    .description('reject the changes of the latest run that a filter names: their checkpoints are regressions until the change is gone')
    .argument('[filters...]', 'parts of "<test title path> › <checkpoint>", or group ids (g1)')
    .option('--only', 'reject the matched checkpoints alone, not their groups')
    .option('--reason <text>', 'why, recorded with the rejection')
    .option('--dry-run', 'list what would be rejected; write nothing')
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (filters: string[], options: DecideOptions & CliFlags) => {
      printText(await approveOrReject(cliSettings(options), filters, options, 'rejected'));
    });
  program
    .command('review')
    .description('serve a page to review the latest run in a browser: one entry per change, with Approve and Reject')
    .option('--port <n>', 'the port to listen on (default: a free one)', portOption)
    .option('--host <host>', 'the address to listen on (default: 127.0.0.1; anything else exposes the page to the network)')
    .option('--no-open', 'do not open a browser')
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (options: ServeOptions & CliFlags) => {
      await serveReview(cliSettings(options), options);
    });
  program
    .command('report')
    .description('print the latest run as a table, or as the results JSON')
    .option('--json', 'print the results file')
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (options: { json?: boolean } & CliFlags) => {
      printText(await report(cliSettings(options, 'output-folder'), !!options.json));
    });
  program
    .command('generate')
    .description(
      'write .ox.test scripts from YAML job specs with a model driving a real browser (OPENAI_API_KEY, OPENAI_BASE_URL, VISUAL_UAT_MODEL)',
    )
    .argument('<specs...>', 'spec files (YAML: baseURL, maxIterations, jobs of name, prompt, acceptance, url, checkpoints)')
    .option('--out <folder>', 'where the scripts go (default: beside each spec)')
    .option('--base-url <url>', "the running app's URL, for specs without baseURL")
    .action(async (specs: string[], options: { out?: string; baseUrl?: string }) => {
      const results = await generate(specs, { out: options.out, baseURL: options.baseUrl });
      if (results.some((result) => result.outcome !== 'done')) process.exitCode = 1;
    });
  program
    .command('eval')
    .description(
      "replay labelled cases (reviewers' decisions, or the shipped corpus) through the evaluator and print how far it agrees; " +
        'exit 1 when it would have approved a labelled regression, 2 when it could not run',
    )
    .option('--model <name>', "the model (default: VISUAL_UAT_MODEL, else the latest run's, else gpt-4.1-mini)")
    .option('--base-url <url>', "an OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else the latest run's)")
    .option('--labels <folder>', 'a folder of labelled cases (default: the labelsDir option, else <outputDir>/labels)')
    .option('--corpus', 'the labelled corpus shipped with visual-uat')
    .option('--json', 'print the eval record as JSON')
    .option(...CONFIG_FLAG)
    .option(...DIR_FLAG)
    .action(async (options: EvalCliOptions) => {
      process.exitCode = await evalCommand(options);
    });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    printLine((error as Error).message, 'error');
    process.exitCode = 1;
  }
}
