import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Command } from 'commander';
import { worktreesDir } from '../config/layout';
import { openRepo, removeWorktree } from '../git';

function playwrightCli(cwd: string): string {
  try {
    return createRequire(path.join(cwd, 'package.json')).resolve('@playwright/test/cli');
  } catch {
    throw new Error('visual-uat: @playwright/test is not installed here: run npm install -D @playwright/test');
  }
}

/** `visual-uat test`: `playwright test` with visual-uat's options set through the environment. */
export function runTest(playwrightArgs: string[], options: { base?: string; updateBaselines?: boolean; keepWorktrees?: boolean }, cwd = process.cwd()): number {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.base) env.VISUAL_UAT_BASE = options.base;
  if (options.updateBaselines) env.VISUAL_UAT_UPDATE_BASELINES = '1';
  if (options.keepWorktrees) env.VISUAL_UAT_KEEP_WORKTREES = '1';
  const result = spawnSync(process.execPath, [playwrightCli(cwd), 'test', ...playwrightArgs], { cwd, env, stdio: 'inherit' });
  return result.status ?? 1;
}

/** `visual-uat clean`: removes the output folder, unregistering its worktrees from git first. */
export async function clean(outputDir: string): Promise<void> {
  const worktrees = worktreesDir(outputDir);
  if (fs.existsSync(worktrees)) {
    const repo = await openRepo(path.dirname(outputDir));
    for (const entry of fs.readdirSync(worktrees)) await removeWorktree(repo, path.join(worktrees, entry));
  }
  fs.rmSync(outputDir, { recursive: true, force: true });
}

export function buildProgram(): Command {
  const program = new Command('visual-uat').description('Visual acceptance testing across git branches, inside Playwright');
  program
    .command('test')
    .description('run playwright test with the baseline pass and verdicts (arguments after -- go to playwright)')
    .option('--base <ref>', 'base branch to compare with (default: GITHUB_BASE_REF, main, master)')
    .option('--update-baselines', 'capture the baselines again even when cached')
    .option('--keep-worktrees', 'keep the base worktree after the run')
    .argument('[playwrightArgs...]', 'arguments for playwright test')
    .allowUnknownOption()
    .action((playwrightArgs: string[], options) => {
      process.exitCode = runTest(playwrightArgs, options);
    });
  program
    .command('clean')
    .description('remove the output folder (baselines, screenshots, results, worktrees)')
    .option('--dir <folder>', 'output folder', process.env.VISUAL_UAT_DIR ?? '.visual-uat')
    .action(async (options: { dir: string }) => {
      await clean(path.resolve(options.dir));
    });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
