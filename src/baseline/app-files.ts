import path from 'node:path';
import { PLAYWRIGHT_OUTPUT } from '../git';

/**
 * Which changed files can change what the app shows: not the tests, the Playwright config, the
 * docs, CI settings, tool settings, lockfiles (adopting a tool changes those), visual-uat's own
 * approvals, nor what Playwright writes by default. A package.json is the app's when its runtime
 * dependencies changed (a new version of a UI library), not when only its scripts or
 * devDependencies did. A branch that changes only such
 * files must never be suspected of having compared the current app with itself.
 */

const NOT_APP = [
  /(^|\/)[^/]+\.(md|mdx|txt|rst)$/i,
  /^(docs?|\.github|\.gitlab|\.circleci|\.husky|\.vscode)\//,
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|bun\.lockb?)$/,
  /(^|\/)(playwright|playwright-ct)\.config\.[cm]?[jt]s$/,
  /(^|\/)visual-uat\.(approvals\.json|instructions\.md)$/,
  PLAYWRIGHT_OUTPUT,
  // Settings of git, the package manager, editors and linters; a dotfile the build or the app
  // reads (.env, .babelrc, .postcssrc, .browserslistrc) is the app's.
  /(^|\/)\.(gitignore|gitattributes|mailmap|npmrc|yarnrc(\.yml)?|nvmrc|node-version|tool-versions|editorconfig|dockerignore|(prettier|eslint|stylelint)(rc(\.\w+)?|ignore))$/,
  /\.(spec|test)\.[cm]?[jt]sx?$/,
  /\.ox\.test$/,
];

const MANIFEST = /(^|\/)package\.json$/;

export interface AppFileContext {
  repoRoot: string;
  /** Every project's testDir (absolute). */
  testDirs: readonly string[];
  /** The changed package.json files whose runtime dependencies differ (see runtimeDependenciesDiffer). */
  manifestsWithNewDependencies: readonly string[];
}

/** `git diff --name-status` lines (`M path`) of files the app may serve or build from. */
export function appFilesChanged(changedFiles: string[], context: AppFileContext): string[] {
  const testDirs = context.testDirs.map((dir) => path.relative(context.repoRoot, dir).split(path.sep).join('/'));
  return changedFiles
    .map(changedPath)
    .filter((file) =>
      MANIFEST.test(file) ? context.manifestsWithNewDependencies.includes(file) : !NOT_APP.some((pattern) => pattern.test(file)),
    )
    .filter((file) => !testDirs.some((dir) => dir && !dir.startsWith('..') && (file === dir || file.startsWith(`${dir}/`))));
}

/** The path of a `git diff --name-status` line. */
export function changedPath(line: string): string {
  return line.replace(/^\S+\s+/, '');
}

/** The changed package.json files among `git diff --name-status` lines. */
export function changedManifests(changedFiles: string[]): string[] {
  return changedFiles.map(changedPath).filter((file) => MANIFEST.test(file));
}

/** Whether two versions of a package.json install different runtime packages (`dependencies`, `optionalDependencies`). */
export function runtimeDependenciesDiffer(base: string | null, current: string | null): boolean {
  const runtime = (text: string | null): string => {
    try {
      const manifest = JSON.parse(text ?? '{}') as Record<string, unknown>;
      return JSON.stringify([manifest.dependencies ?? {}, manifest.optionalDependencies ?? {}]);
    } catch {
      return `unreadable ${text}`;
    }
  };
  return runtime(base) !== runtime(current);
}
