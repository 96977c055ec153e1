import fs from 'node:fs';
import path from 'node:path';
import { outputPath } from '../config/paths';
import { ENV } from '../config/environment';
import type { ResolvedOptions } from '../config/settings';
import { CHANGED_FILES_LIMIT, changedFiles, commitSubjects, fileAtCommit, workingState, type Repo, type WorkingState } from '../git';
import { SetupError } from '../util/errors';
import { farBehindWarning, resolveBase, type BaseResolution } from '../git/base';
import type { RunContext } from '../types';
import { writeFileAtomic } from '../util/fs';
import { appFilesChanged, changedManifests, runtimeDependenciesDiffer } from './app-files';
import { say } from '../util/output';

/**
 * The run's context from git: the base (the merge-base of HEAD, or HEAD itself for `visual-uat
 * record`), the working state and what changed since the base. Said: the base, and a warning
 * when it is far behind. The base pass extends it by returning new values (see execute.ts).
 */
export async function gitContext(
  repo: Repo,
  testDirs: readonly string[],
  options: Pick<ResolvedOptions, 'record' | 'baseBranch'>,
): Promise<{ base: BaseResolution; context: RunContext }> {
  // The git commands that do not wait for each other's answers run at once: each is a process of its own.
  const [state, named] = await Promise.all([workingState(repo), options.record ? null : resolveBase(repo, options.baseBranch)]);
  const base = named ?? recordedBase(state);
  const sameAsBase = base.commit === state.commit && !state.dirty;
  const [farBehind, changed, commits] = await Promise.all([
    sameAsBase || options.record ? null : farBehindWarning(repo, base),
    sameAsBase ? [] : changedFiles(repo, base.commit),
    sameAsBase ? [] : commitSubjects(repo, base.commit),
  ]);
  if (!options.record) {
    say(
      `base ${base.branch} (${base.chosenBy}) @ ${base.commit.slice(0, 8)}, merge-base of ` +
        `HEAD${base.commit === state.commit && state.dirty ? HEAD_IS_BASE : ''}`,
    );
    if (farBehind) say(`warning: ${farBehind}`);
  }
  const context: RunContext = {
    baseBranch: base.branch,
    baseRef: base.ref,
    baseCommit: base.commit,
    currentBranch: state.branch,
    currentCommit: state.commit,
    dirty: state.dirty,
    sameAsBase,
    commits,
    changedFiles: changed.slice(0, CHANGED_FILES_LIMIT),
    // From every changed file: a branch with hundreds of test changes may still change the app.
    appFilesChanged: appFilesChanged(changed, {
      repoRoot: repo.root,
      testDirs,
      manifestsWithNewDependencies: await manifestsWithNewDependencies(repo, base.commit, changed),
    }).slice(0, CHANGED_FILES_LIMIT),
    baselineDir: '',
    baselineError: null,
  };
  return { base, context };
}

/**
 * A branch merged into the base (or the base branch itself) has HEAD as its merge-base: what was
 * committed is the base, which a user who meant to compare a commit may not expect.
 */
const HEAD_IS_BASE =
  ', which is HEAD itself: only uncommitted changes are compared (to compare with the commit before HEAD: ' +
  'VISUAL_UAT_BASE=HEAD~1 npx playwright test)';

/**
 * Publishes the run context to the run's processes: its file, and the variable that names it (see
 * capture/codec.ts writeRunContext for the copy each test result carries). Three moments write it: the
 * setup before the tests; the runner's test list reaching a pass beside the tests (which tests
 * wait for it, before the first starts); the teardown once the pass and the top-up are done (the
 * reporter, whose onEnd comes after, reads that final one).
 */
export function publishRunContext(outputDir: string, context: RunContext): void {
  const contextFile = outputPath(outputDir, 'runContext');
  writeFileAtomic(contextFile, JSON.stringify(context, null, 2));
  ENV.contextFile.write(contextFile);
}

/** `visual-uat record`: HEAD is the base, with a clean tree (a tree's changes are no commit's baselines). */
function recordedBase(state: WorkingState): BaseResolution {
  if (state.dirty)
    throw new SetupError(
      'visual-uat record: the working tree has changes, and the baselines it stores belong to HEAD: commit or stash them first',
    );
  return { branch: state.branch ?? 'HEAD', ref: 'HEAD', commit: state.commit, chosenBy: 'visual-uat record' };
}

/** The changed package.json files whose runtime dependencies differ from the base's. */
async function manifestsWithNewDependencies(repo: Repo, baseCommit: string, changed: string[]): Promise<string[]> {
  const differ = await Promise.all(
    changedManifests(changed).map(async (file) => {
      const current = fs.existsSync(path.join(repo.root, file)) ? fs.readFileSync(path.join(repo.root, file), 'utf8') : null;
      return runtimeDependenciesDiffer(await fileAtCommit(repo, baseCommit, file), current) ? file : null;
    }),
  );
  return differ.filter((file): file is string => file !== null);
}
