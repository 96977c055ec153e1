import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * Where every file of a run lives under the output folder. Capture writes these paths, the
 * reporter, the baseline store, the evaluator and the CLI read them: every path under the output
 * folder is built here, so the sides stay in step.
 *
 * ```
 * <outputDir>/
 *   .gitignore                                   (*: git status never changes)
 *   baselines/<baseCommit>/<key>/                a cache entry: manifest.json, cache.json (its seal), <test folder>/<name>.png|.signals.json|.layout.json.gz
 *   baselines/<baseCommit>/merged/               images of merged blob reports
 *   baseline-store/<baseCommit>/<test:16>/<sources:16>/   the per-test store (default home; the baselineStore option
 *                                                moves it): entry.json (its seal, written last), <name>.png|.signals.json
 *   screenshots/current/<test folder>/<name>.png  (copied by the reporter after the tests; see runningCheckpointsDir)
 *   diffs/<test folder>/<name>-diff.png
 *   results/<timestamp>.json, results/latest.json
 *   worktrees/<baseCommit:12>/                   the base checkout, when the temporary folder is on another file system
 *                                                (else <tmp>/visual-uat-worktrees/<id>/<baseCommit:12>/, see worktreeHomes)
 *   baseline-run/test-results/, baseline-run/ct-cache/, baseline-run/tests.json, baseline-run/test-list.txt
 *   logs/baseline.log, logs/baseline-list.log     (a pass beside the tests writes these, its entry and baseline-run/'s lists
 *                                                 under besidePassRoot first)
 *   run/lock.json, run/context.json
 *   (<tmp>/visual-uat-worktrees/<id>-capturing/<key hash>.json: each test of this run that took a checkpoint, see capturingTestsDir)
 *   baseline-run/top-up/                         the top-up pass's entry, merged into the run's cache entry
 *   cache/verdicts/<scope>/<change key>.json, transcripts/<key:16>-<checkpoint>.json
 * ```
 */

export const ROLE_ENV = 'VISUAL_UAT_ROLE';
export const OUTPUT_DIR_ENV = 'VISUAL_UAT_OUTPUT_DIR';
export const CONTEXT_FILE_ENV = 'VISUAL_UAT_CONTEXT_FILE';
export const BASELINE_DIR_ENV = 'VISUAL_UAT_BASELINE_DIR';
export const BASE_CWD_ENV = 'VISUAL_UAT_BASE_CWD';
export const BASE_PORTS_ENV = 'VISUAL_UAT_BASE_PORTS';
/** Where the base checkout is, so absolute webServer paths can be mapped into it. */
export const REPO_ROOT_ENV = 'VISUAL_UAT_REPO_ROOT';
export const WORKTREE_ENV = 'VISUAL_UAT_WORKTREE';
/** The base server's real command and the runner it must not outlive (see baseline/server-guard). */
export const GUARDED_COMMAND_ENV = 'VISUAL_UAT_GUARDED_COMMAND';
export const GUARD_PID_ENV = 'VISUAL_UAT_GUARD_PID';
/** The config's webServer entries (command, port) for the global setup: Playwright's resolved config has none when webServer is an array. */
export const WEB_SERVERS_ENV = 'VISUAL_UAT_WEB_SERVERS';

export type Role = 'current' | 'baseline';

export function currentRole(env: NodeJS.ProcessEnv = process.env): Role {
  return env[ROLE_ENV] === 'baseline' ? 'baseline' : 'current';
}

export function gitignorePath(outputDir: string): string {
  return path.join(outputDir, '.gitignore');
}

export function baselinesRoot(outputDir: string): string {
  return path.join(outputDir, 'baselines');
}

/** One baseline cache entry per base commit and cache key. */
export function baselineEntryDir(outputDir: string, baseCommit: string, key: string): string {
  return path.join(baselinesRoot(outputDir), baseCommit, key.slice(0, 16));
}

/** The per-test baseline store's default home (see baseline/test-store). */
export function defaultBaselineStore(outputDir: string): string {
  return path.join(outputDir, 'baseline-store');
}

/** A base commit's folder in the per-test store. */
export function storeCommitDir(store: string, baseCommit: string): string {
  return path.join(store, baseCommit);
}

/** A test's folder in the per-test store: one entry per version of its sources. */
export function storeTestDir(store: string, baseCommit: string, testKey: string): string {
  return path.join(storeCommitDir(store, baseCommit), crypto.createHash('sha256').update(testKey).digest('hex').slice(0, 16));
}

export function storeEntryDir(store: string, baseCommit: string, testKey: string, sourceHash: string): string {
  return path.join(storeTestDir(store, baseCommit, testKey), sourceHash.slice(0, 16));
}

/** Baseline images of merged blob reports (they come from other machines): a home of their own. */
export function mergedBaselineDir(outputDir: string, baseCommit: string): string {
  return path.join(baselinesRoot(outputDir), baseCommit, 'merged');
}

export function manifestPath(baselineDir: string): string {
  return path.join(baselineDir, 'manifest.json');
}

/** The seal of a baseline entry: written once its pass completed. */
export function sealPath(baselineDir: string): string {
  return path.join(baselineDir, 'cache.json');
}

export function currentScreenshotsDir(outputDir: string): string {
  return path.join(outputDir, 'screenshots', 'current');
}

/**
 * Where the current pass writes a checkpoint while the tests run: under the project's Playwright
 * output folder (test-results/visual-uat/<test folder>/), never the output folder. A dev server
 * that watches the project leaves Playwright's writes alone (Vite ignores test-results by name, and
 * a setup that did not would reload on Playwright's own traces); a write under .visual-uat/ would
 * reload the pages under test. Not in the test's own output folder: Playwright removes it after a
 * passing test under `preserveOutput: 'never' | 'failures-only'`. The reporter copies the images
 * to currentScreenshotsDir once the tests are done (report/place).
 */
export function runningCheckpointsDir(projectOutputDir: string): string {
  return path.join(projectOutputDir, 'visual-uat');
}

/** A checkpoint's image under an image root (the current screenshots, or a baseline entry). */
export function checkpointImage(root: string, folder: string, name: string): string {
  return path.join(root, folder, `${name}.png`);
}

/** What the baseline pass captured besides pixels, beside the checkpoint's image. */
export function checkpointSignals(root: string, folder: string, name: string): string {
  return path.join(root, folder, `${name}.signals.json`);
}

/** The layout record beside a checkpoint's image (capture/layout): gzip'd JSON. */
export function checkpointLayout(root: string, folder: string, name: string): string {
  return path.join(root, folder, `${name}.layout.json.gz`);
}

export function diffsDir(outputDir: string): string {
  return path.join(outputDir, 'diffs');
}

export function diffImage(outputDir: string, folder: string, name: string): string {
  return path.join(diffsDir(outputDir), folder, `${name}-diff.png`);
}

export function resultsDir(outputDir: string): string {
  return path.join(outputDir, 'results');
}

export function resultsFile(outputDir: string, timestamp: number): string {
  return path.join(resultsDir(outputDir), `${timestamp}.json`);
}

export function latestResults(outputDir: string): string {
  return path.join(resultsDir(outputDir), 'latest.json');
}

/**
 * The two homes of base worktrees (see baseline/worktrees.ts): outside the project, in the
 * temporary folder, one folder per output folder; or, where the temporary folder is on another
 * file system, inside the output folder.
 */
export function worktreeHomes(outputDir: string): { outside: string; inside: string } {
  const id = crypto.createHash('sha256').update(path.resolve(outputDir)).digest('hex').slice(0, 12);
  return { outside: path.join(os.tmpdir(), 'visual-uat-worktrees', id), inside: path.join(outputDir, 'worktrees') };
}

/** The base commit's worktree is named by the commit, so a kept one is found again. */
export function worktreeName(baseCommit: string): string {
  return baseCommit.slice(0, 12);
}

/**
 * Where a baseline pass that runs beside the current tests writes its cache entry, logs and test
 * lists (the same layout as under the output folder): beside its worktree, outside the project,
 * so nothing lands where a dev server watches while the tests run. Moved into the output folder
 * once they are done (baseline/staging.ts); a run's leftover clean-up removes it like a worktree.
 */
export function besidePassRoot(worktreesHome: string, baseCommit: string): string {
  return path.join(worktreesHome, `${worktreeName(baseCommit)}-pass`);
}

/** Playwright's own output folder for the nested baseline pass. */
export function baselineRunOutputDir(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'test-results');
}

/** The base build of a component-test project, apart from the current one. */
export function baselineComponentCacheDir(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'ct-cache');
}

export function baselineLogPath(outputDir: string): string {
  return path.join(outputDir, 'logs', 'baseline.log');
}

/** The listing of the suite the baseline pass chooses its tests from, its log, and the chosen list. */
export function baselineTestsJsonPath(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'tests.json');
}

export function baselineListLogPath(outputDir: string): string {
  return path.join(outputDir, 'logs', 'baseline-list.log');
}

export function baselineTestListPath(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'test-list.txt');
}

/** A top-up pass's own entry, merged into the run's cache entry once it completes (see baseline/top-up). */
export function topUpEntryDir(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'top-up');
}

export function topUpTestListPath(outputDir: string): string {
  return path.join(outputDir, 'baseline-run', 'top-up-list.txt');
}

/**
 * The tests of the current run that took a checkpoint, one file each (see baseline/top-up). Noted
 * by the tests while they run, so outside the project (beside the worktrees' home, not in it):
 * a write under the output folder would reload the pages under test on a dev server that watches
 * the project. Cleared when the run starts and when it ends.
 */
export function capturingTestsDir(outputDir: string): string {
  return `${worktreeHomes(outputDir).outside}-capturing`;
}

export function lockPath(outputDir: string): string {
  return path.join(outputDir, 'run', 'lock.json');
}

/** One name suffices: the run lock keeps a second run out of the folder. */
export function runContextPath(outputDir: string): string {
  return path.join(outputDir, 'run', 'context.json');
}

/** Cached evaluator verdicts of one scope (model, prompt, intent). */
export function verdictCacheDir(outputDir: string, scope: string): string {
  return path.join(outputDir, 'cache', 'verdicts', scope.slice(0, 32));
}

/** A cached evaluator verdict, named by its change's key. */
export function verdictCacheFile(outputDir: string, scope: string, key: string): string {
  return path.join(verdictCacheDir(outputDir, scope), `${key}.json`);
}

/** One evaluation's transcript, named by its cache key and its checkpoint. */
export function transcriptFile(outputDir: string, key: string, checkpoint: string): string {
  const slug = checkpoint.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || '_';
  return path.join(outputDir, 'transcripts', `${key.slice(0, 16)}-${slug}.json`);
}

/** Labelled cases kept from reviewers' decisions, unless the `labelsDir` option names a folder of its own. */
export function labelsDir(outputDir: string): string {
  return path.join(outputDir, 'labels');
}

/** What `visual-uat eval` keeps: the last eval of each model, its transcripts and diff images. */
export function evalDir(outputDir: string): string {
  return path.join(outputDir, 'eval');
}

/** `<test key> › <checkpoint>`: a checkpoint of the run, as the results' groups and the approvals name it. */
export function checkpointKey(test: string, checkpoint: string): string {
  return `${test} › ${checkpoint}`;
}

/** Identity of a test across the two passes: project + title path (file, describes, title). */
export function testKey(projectName: string, titlePath: readonly string[]): string {
  return (projectName ? [projectName, ...titlePath] : titlePath).join(' › ');
}

/** A readable, filesystem-safe name for a folder (at most 60 characters). */
export function slug(text: string): string {
  const cleaned = text
    .normalize('NFKC')
    .replace(/[\\/:*?"<>|\x00-\x1f]+/g, '-')
    .replace(/\s+/g, '-')
    .replace(/^\.+/, '')
    .slice(0, 60);
  return cleaned || '_';
}

/** A folder name per test that is readable, filesystem-safe and collision-free (short hash of the key). */
export function testFolder(projectName: string, titlePath: readonly string[]): string {
  const hash = crypto.createHash('sha1').update(testKey(projectName, titlePath)).digest('hex').slice(0, 8);
  const title = titlePath.slice(1).join(' ');
  return path.join(slug(projectName || 'default'), `${slug(title)}-${hash}`);
}
