import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * Where every file of a run lives. Capture writes these paths; the reporter, the baseline store,
 * the evaluator and the CLI read them: every path under the output folder is built here, so the
 * sides stay in step. The fixed ones are the table below; the rest are the functions after it
 * (a base commit, a test folder or a checkpoint in the name). Outside the output folder: the base
 * worktrees and what a pass beside the tests writes (worktreeHomes, besidePassRoot), the tests'
 * notes for the top-up check (capturingTestsDir), the current images while the tests run
 * (runningCheckpointsDir).
 */
const OUTPUT_PATHS = {
  /** `*`: git status never changes. */
  gitignore: '.gitignore',
  /**
   * `<baseCommit>/<key:16>/`: the run's baseline entry (manifest.json, `<test folder>/<name>.png|.signals.json|.layout.json.gz`), made by
   * the pass or copied from the store; `<baseCommit>/merged/`: merged blob reports' images.
   */
  baselines: 'baselines',
  /** The baseline store's default home (the baselineStore option moves it; see storeEntryDir). */
  baselineStore: 'baseline-store',
  /** `<test folder>/<name>.png`, copied there by the reporter after the tests. */
  currentScreenshots: 'screenshots/current',
  /** `<test folder>/<name>-diff.png`. */
  diffs: 'diffs',
  /** `<timestamp>.json` per run, and latest.json. */
  results: 'results',
  latestResults: 'results/latest.json',
  /** Playwright's own output folder for the nested baseline pass. */
  baselineRunOutput: 'baseline-run/test-results',
  /** The base build of a component-test project, apart from the current one. */
  baselineComponentCache: 'baseline-run/ct-cache',
  /** The listing of the suite the baseline pass chooses its tests from, and the chosen list. */
  baselineTestsJson: 'baseline-run/tests.json',
  baselineTestList: 'baseline-run/test-list.txt',
  /** What a pass started ahead of its plan waits on (see baseline/gate). */
  baselineGate: 'baseline-run/gate',
  /** A top-up pass's own entry, merged into the run's baseline entry once it completes (see baseline/top-up), and its list. */
  topUpEntry: 'baseline-run/top-up',
  topUpTestList: 'baseline-run/top-up-list.txt',
  /** The nested passes' output (a pass beside the tests writes these under besidePassRoot first). */
  baselineLog: 'logs/baseline.log',
  baselineListLog: 'logs/baseline-list.log',
  /** A folder holding the owner's record, `<token>.json` (see baseline/lock). */
  lock: 'run/lock',
  /** One name suffices: the run lock keeps a second run out of the folder. */
  runContext: 'run/context.json',
  /** The tests a run stores once its tests are done, until they are (see store/entry storeSuite). */
  storing: 'run/storing.json',
  /** Test key → its earlier render in the store, for the tests the baseline pass renders (see store/entry earlierRender). */
  earlierRenders: 'run/earlier-renders.json',
  /** The workers' phase times under VISUAL_UAT_DEBUG=timing, a file per process and role, read by the reporter (see config/timing). */
  timing: 'run/timing',
  /** The repository files each test-side module imports, for a warm run's suite key (see sources/import-cache). */
  importCache: 'cache/imports.json',
  /** `<scope:32>/<change key>.json`: cached evaluator verdicts. */
  verdictCache: 'cache/verdicts',
  /** `<key:16>-<checkpoint>.json`: one evaluation's transcript. */
  transcripts: 'transcripts',
  /** Labelled cases kept from reviewers' decisions, unless the `labelsDir` option names a folder of its own. */
  labels: 'labels',
  /** What `visual-uat eval` keeps: the last eval of each model, its transcripts and diff images. */
  eval: 'eval',
  /** The base checkout, when the temporary folder is on another file system (see worktreeHomes). */
  worktrees: 'worktrees',
} as const;

export type OutputPath = keyof typeof OUTPUT_PATHS;

/** Whether a name in the output folder is one runs write there (`visual-uat clean` removes those only). */
export function isOutputName(name: string): boolean {
  return Object.values(OUTPUT_PATHS).some((file) => file.split('/')[0] === name);
}

/** A fixed file or folder of the run, under its output folder. */
export function outputPath(outputDir: string, name: OutputPath): string {
  return path.join(outputDir, OUTPUT_PATHS[name]);
}

/** The run's baseline entry, by base commit and suite key. */
export function baselineEntryDir(outputDir: string, baseCommit: string, key: string): string {
  return path.join(outputPath(outputDir, 'baselines'), baseCommit, key.slice(0, 16));
}

/** A base commit's folder in the baseline store (see store/entry). */
export function storeCommitDir(store: string, baseCommit: string): string {
  return path.join(store, baseCommit);
}

/** A test's folder in the baseline store: one entry per version of its sources (or suite, see suiteSource). */
export function storeTestDir(store: string, baseCommit: string, testKey: string): string {
  return path.join(storeCommitDir(store, baseCommit), crypto.createHash('sha256').update(testKey).digest('hex').slice(0, 16));
}

/** `<store>/<baseCommit>/<test:16>/<sources:16>/`: entry.json (its seal, written last), `<name>.png|.signals.json`. */
export function storeEntryDir(store: string, baseCommit: string, testKey: string, sourceHash: string): string {
  return path.join(storeTestDir(store, baseCommit, testKey), sourceHash.slice(0, 16));
}

/** A base commit's suite indexes in the store (see store/entry lookUpSuite). */
export function storeSuitesDir(store: string, baseCommit: string): string {
  return path.join(storeCommitDir(store, baseCommit), 'suites');
}

/** `<store>/<baseCommit>/suites/<suite key:16>.json`: the index of one suite's entries. */
export function storeSuiteIndex(store: string, baseCommit: string, suiteKey: string): string {
  return path.join(storeSuitesDir(store, baseCommit), `${suiteKey.slice(0, 16)}.json`);
}

/** Baseline images of merged blob reports (they come from other machines): a home of their own. */
export function mergedBaselineDir(outputDir: string, baseCommit: string): string {
  return path.join(outputPath(outputDir, 'baselines'), baseCommit, 'merged');
}

export function manifestPath(baselineDir: string): string {
  return path.join(baselineDir, 'manifest.json');
}

/**
 * Where the current pass writes a checkpoint while the tests run: under the project's Playwright
 * output folder (test-results/visual-uat/<test folder>/), never the output folder. A dev server
 * that watches the project leaves Playwright's writes alone (Vite ignores test-results by name, and
 * a setup that did not would reload on Playwright's own traces); a write under .visual-uat/ would
 * reload the pages under test. Not in the test's own output folder: Playwright removes it after a
 * passing test under `preserveOutput: 'never' | 'failures-only'`. The reporter copies the images
 * to outputPath 'currentScreenshots' once the tests are done (report/place).
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

/**
 * The diff image of the comparison a test's worker made while the page was alive, beside the current image (capture/codec);
 * dot-separated, so it is never taken for one of toHaveScreenshot's `-diff.png` files.
 */
export function checkpointLiveDiff(root: string, folder: string, name: string): string {
  return path.join(root, folder, `${name}.live.diff.png`);
}

export function diffImage(outputDir: string, folder: string, name: string): string {
  return path.join(outputPath(outputDir, 'diffs'), folder, `${name}-diff.png`);
}

export function resultsFile(outputDir: string, timestamp: number): string {
  return path.join(outputPath(outputDir, 'results'), `${timestamp}.json`);
}

/**
 * The two homes of base worktrees (see checkout/worktrees.ts): outside the project, in the
 * temporary folder, one folder per output folder; or, where the temporary folder is on another
 * file system, inside the output folder.
 */
export function worktreeHomes(outputDir: string): { outside: string; inside: string } {
  const id = crypto.createHash('sha256').update(path.resolve(outputDir)).digest('hex').slice(0, 12);
  return { outside: path.join(os.tmpdir(), 'visual-uat-worktrees', id), inside: outputPath(outputDir, 'worktrees') };
}

/** The base commit's worktree is named by the commit, so a kept one is found again. */
export function worktreeName(baseCommit: string): string {
  return baseCommit.slice(0, 12);
}

/**
 * Where a baseline pass that runs beside the current tests writes its baseline entry, logs and test
 * lists (the same layout as under the output folder): beside its worktree, outside the project,
 * so nothing lands where a dev server watches while the tests run. Moved into the output folder
 * once they are done (checkout/staging.ts); a run's leftover clean-up removes it like a worktree.
 */
export function besidePassRoot(worktreesHome: string, baseCommit: string): string {
  return path.join(worktreesHome, `${worktreeName(baseCommit)}-pass`);
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

/** Cached evaluator verdicts of one scope (model, prompt, intent). */
export function verdictCacheDir(outputDir: string, scope: string): string {
  return path.join(outputPath(outputDir, 'verdictCache'), scope.slice(0, 32));
}

/** A cached evaluator verdict, named by its change's key. */
export function verdictCacheFile(outputDir: string, scope: string, key: string): string {
  return path.join(verdictCacheDir(outputDir, scope), `${key}.json`);
}

/** One evaluation's transcript, named by its cache key and its checkpoint. */
export function transcriptFile(outputDir: string, key: string, checkpoint: string): string {
  const slug = checkpoint.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || '_';
  return path.join(outputPath(outputDir, 'transcripts'), `${key.slice(0, 16)}-${slug}.json`);
}
