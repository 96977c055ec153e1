import path from 'node:path';

/** One line of the setup's output, under visual-uat's name. */
export function say(message: string): void {
  process.stdout.write(`visual-uat: ${message}\n`);
}

/** A path as a log line shows it: relative to where the run started, unless it lies elsewhere (a worktree in the temporary folder). */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}
