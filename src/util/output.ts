import path from 'node:path';

/**
 * Everything a run and the CLI print, and where it goes: one module, so the prefix, the level and
 * the stream of each line are decided here. What a command gives (its report, a summary, the lines
 * of a run's log) goes to stdout; a warning, an error, and the progress of a command whose stdout
 * is data (`eval --json`) go to stderr, where they do not mix with it.
 */

/** Info is the command's output; the other levels are said beside it (diagnostic: progress, timing). */
export type Level = 'info' | 'diagnostic' | 'warning' | 'error';

/** What starts each line of the run's own log (the setup's, the base pass's). */
const RUN_LOG_PREFIX = 'visual-uat: ';

/** Text that ends its own lines, as it is (a rendered report). */
export function printText(text: string, level: Level = 'info'): void {
  (level === 'info' ? process.stdout : process.stderr).write(text);
}

/** One line at a level: info to stdout, the others to stderr. */
export function printLine(line: string, level: Level = 'info'): void {
  printText(`${line}\n`, level);
}

/** A warning: the run goes on, and the line says what it did instead. */
export function printWarning(line: string): void {
  printLine(line, 'warning');
}

/**
 * One line of the run's own log, under visual-uat's name; a warning says so in its words
 * (`warning: …`), on the same stream as the log.
 */
export function say(message: string): void {
  printLine(`${RUN_LOG_PREFIX}${message}`);
}

/** A path as a log line shows it: relative to where the run started, unless it lies elsewhere (a worktree in the temporary folder). */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') ? file : relative;
}
