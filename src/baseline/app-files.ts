import path from 'node:path';

/**
 * Which changed files can change what the app shows: not the tests, the Playwright config, the
 * docs, CI settings, package manifests and lockfiles (adopting a tool changes those), nor
 * visual-uat's own approvals. A branch that changes only such files must never be suspected of
 * having compared the current app with itself.
 */

const NOT_APP = [
  /(^|\/)[^/]+\.(md|mdx|txt|rst)$/i,
  /^(docs?|\.github|\.gitlab|\.circleci|\.husky|\.vscode)\//,
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|yarn\.lock|bun\.lockb?|\.npmrc|\.nvmrc)$/,
  /(^|\/)(playwright|playwright-ct)\.config\.[cm]?[jt]s$/,
  /(^|\/)visual-uat\.(approvals\.json|instructions\.md)$/,
  /(^|\/)\.[^/]+$/,
  /\.(spec|test)\.[cm]?[jt]sx?$/,
  /\.ox\.test$/,
];

export interface AppFileContext {
  repoRoot: string;
  /** Every project's testDir (absolute). */
  testDirs: string[];
}

/** `git diff --name-status` lines (`M path`) of files the app may serve or build from. */
export function appFilesChanged(changedFiles: string[], context: AppFileContext): string[] {
  const testDirs = context.testDirs.map((dir) => path.relative(context.repoRoot, dir).split(path.sep).join('/'));
  return changedFiles
    .map((line) => line.replace(/^\S+\s+/, ''))
    .filter((file) => !NOT_APP.some((pattern) => pattern.test(file)))
    .filter((file) => !testDirs.some((dir) => dir && !dir.startsWith('..') && (file === dir || file.startsWith(`${dir}/`))));
}
