import crypto from 'node:crypto';
import path from 'node:path';

/**
 * Where every file of a run lives under the output folder. Capture writes these paths,
 * the reporter reads them: one definition keeps the two sides in step.
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

export type Role = 'current' | 'baseline';

export function currentRole(env: NodeJS.ProcessEnv = process.env): Role {
  return env[ROLE_ENV] === 'baseline' ? 'baseline' : 'current';
}

export function baselinesRoot(outputDir: string): string {
  return path.join(outputDir, 'baselines');
}

export function currentScreenshotsDir(outputDir: string): string {
  return path.join(outputDir, 'screenshots', 'current');
}

export function worktreesDir(outputDir: string): string {
  return path.join(outputDir, 'worktrees');
}

export function resultsDir(outputDir: string): string {
  return path.join(outputDir, 'results');
}

export function diffsDir(outputDir: string): string {
  return path.join(outputDir, 'diffs');
}

/** Labelled cases kept from reviewers' decisions, unless the `labelsDir` option names a folder of its own. */
export function labelsDir(outputDir: string): string {
  return path.join(outputDir, 'labels');
}

/** What `visual-uat eval` keeps: the last eval of each model, its transcripts and diff images. */
export function evalDir(outputDir: string): string {
  return path.join(outputDir, 'eval');
}

export function manifestPath(baselineDir: string): string {
  return path.join(baselineDir, 'manifest.json');
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

export function checkpointFile(root: string, projectName: string, titlePath: readonly string[], name: string): string {
  return path.join(root, testFolder(projectName, titlePath), `${name}.png`);
}
