import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import {
  CONTEXT_FILE_ENV,
  OUTPUT_DIR_ENV,
  baselineDirFor,
  currentRole,
  worktreesDir,
} from '../config/layout';
import { optionsFromEnv, resolveOptions } from '../config/options';
import { SetupError, addWorktree, changedFiles, commitSubjects, openRepo, removeWorktree, resolveBase, workingState } from '../git';
import type { RunContext } from '../types';
import { writeFileAtomic } from '../util/fs';
import { provideDependencies } from './dependencies';
import { runBaselinePass } from './pass';

function log(message: string): void {
  process.stdout.write(`visual-uat: ${message}\n`);
}

/** The output folder hides itself from git, so the user's `git status` never changes. */
function prepareOutputDir(outputDir: string): void {
  fs.mkdirSync(outputDir, { recursive: true });
  const ignore = path.join(outputDir, '.gitignore');
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, '*\n');
}

/** A setup error reads as one line: no stack trace for a wrong branch name. */
function oneLine(error: unknown): Error {
  if (!(error instanceof SetupError)) return error as Error;
  const plain = new Error(error.message);
  plain.stack = error.message;
  return plain;
}

/**
 * Global setup: resolve the base commit, check it out in a worktree, run the baseline pass there,
 * and tell the workers (through the environment) where the baselines are.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  if (currentRole() === 'baseline') return;
  try {
    await setup(config);
  } catch (error) {
    throw oneLine(error);
  }
}

async function setup(config: FullConfig): Promise<void> {
  const started = Date.now();
  const options = resolveOptions(optionsFromEnv());
  const configFile = config.configFile;
  if (!configFile) throw new SetupError('visual-uat: the run has no config file: put withVisualUat(...) in playwright.config.ts');
  const configDir = path.dirname(configFile);
  const outputDir = path.resolve(configDir, options.outputDir);
  prepareOutputDir(outputDir);
  process.env[OUTPUT_DIR_ENV] = outputDir;

  const repo = await openRepo(configDir);
  const base = await resolveBase(repo, options.baseBranch);
  const state = await workingState(repo);
  const sameAsBase = base.commit === state.commit && !state.dirty;
  const baselineDir = baselineDirFor(outputDir, base.commit);
  const context: RunContext = {
    baseBranch: base.branch,
    baseRef: base.ref,
    baseCommit: base.commit,
    currentBranch: state.branch,
    currentCommit: state.commit,
    dirty: state.dirty,
    sameAsBase,
    commits: sameAsBase ? [] : await commitSubjects(repo, base.commit),
    changedFiles: sameAsBase ? [] : await changedFiles(repo, base.commit),
    baselineDir,
    baselineError: null,
  };

  if (sameAsBase) {
    log(`HEAD is the base (${base.branch} @ ${base.commit.slice(0, 8)}) with a clean tree: nothing to compare, no baseline pass`);
  } else {
    const worktree = path.join(worktreesDir(outputDir), base.commit.slice(0, 12));
    log(`baseline pass: ${base.branch} @ ${base.commit.slice(0, 8)} in ${path.relative(process.cwd(), worktree)}`);
    await addWorktree(repo, worktree, base.commit);
    try {
      await provideDependencies(repo, worktree, configDir, base.commit);
      const outcome = await runBaselinePass({
        configFile,
        configDir,
        repoRoot: repo.root,
        worktree,
        outputDir,
        baselineDir,
        logFile: path.join(outputDir, 'logs', 'baseline.log'),
      });
      context.baselineError = outcome.error;
      if (outcome.error) log(`warning: ${outcome.error}`);
      else log(`baseline pass done: ${Object.keys(outcome.manifest!.tests).length} tests in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      context.baselineError = (error as Error).message;
      log(`warning: ${context.baselineError}`);
    } finally {
      if (!options.keepWorktrees) await removeWorktree(repo, worktree);
    }
  }

  const contextFile = path.join(outputDir, 'run', `context-${process.pid}.json`);
  writeFileAtomic(contextFile, JSON.stringify(context, null, 2));
  process.env[CONTEXT_FILE_ENV] = contextFile;
}
