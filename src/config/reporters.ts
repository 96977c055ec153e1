import path from 'node:path';
import type { ReporterDescription } from '@playwright/test';
import { ENV } from './environment';

/**
 * Where visual-uat's reporter goes in a run's reporter list, so that every reporter tells the
 * story its gate decided. Reporters end one after another, in list order; visual-uat's fails the
 * tests the gate holds in its onEnd, so only the reporters after it count them as failed. When no
 * reporter prints to the terminal, Playwright puts its own (line, or dot on CI) before every other
 * (runner/reporters.ts, createReporters): then it summed up the run before the gate had spoken.
 */

/** The name that loads visual-uat's reporter, from a config or from the command line. */
export const REPORTER_NAME = 'visual-uat/reporter';

/** Playwright's built-in reporters whose printsToStdio() is false. */
const SILENT_REPORTERS = new Set(['html', 'blob', 'null', 'github', 'perfetto', 'coverage']);

/** `merge-reports` puts no terminal reporter of its own before the others. */
export function isMergeReports(argv: readonly string[] = process.argv): boolean {
  return argv.includes('merge-reports');
}

/** Whether Playwright's json or junit reporter writes a file (its resolveOutputFile), else it prints its report. */
function writesFile(name: 'json' | 'junit', options: Record<string, unknown> | undefined, env: NodeJS.ProcessEnv): boolean {
  const fromEnv =
    name === 'json'
      ? (ENV.jsonOutputFile.read(env) ?? ENV.jsonOutputName.read(env))
      : (ENV.junitOutputFile.read(env) ?? ENV.junitOutputName.read(env));
  return Boolean(fromEnv ?? options?.outputFile ?? options?.fileName);
}

/**
 * Whether a reporter prints to the terminal, as Playwright decides it (printsToStdio). A reporter
 * of another package counts as printing, as Playwright counts one without printsToStdio.
 */
export function printsToTerminal([name, options]: ReporterDescription, env: NodeJS.ProcessEnv = process.env): boolean {
  if (SILENT_REPORTERS.has(name)) return false;
  if (name === 'json' || name === 'junit') return !writesFile(name, options as Record<string, unknown> | undefined, env);
  return true;
}

/**
 * A run's reporters with the gate in them: visual-uat's first, then the terminal reporter
 * Playwright would have put first when none of the others prints, then the others.
 */
export function gatedReporters(
  visualUat: ReporterDescription,
  others: readonly ReporterDescription[],
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): ReporterDescription[] {
  const silent = !others.some((reporter) => printsToTerminal(reporter, env));
  const terminal: ReporterDescription[] = silent && !isMergeReports(argv) ? [[ENV.ci.read(env) ? 'dot' : 'line']] : [];
  return [visualUat, ...terminal, ...others];
}

/** A reporter as a person names it on the command line: a built-in's name, a module's path from here. */
function shownName(name: string, cwd: string): string {
  return path.isAbsolute(name) ? path.relative(cwd, name) : name;
}

/**
 * The one line that stops a run whose reporters leave visual-uat's out (`--reporter` on the
 * command line replaces the config's list): nothing would compare its checkpoints, and it would
 * pass with changes nobody judged.
 */
export function ungatedRunError(
  reporters: readonly ReporterDescription[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  const named = reporters.map(([name]) => shownName(name, cwd)).join(',');
  const gated = gatedReporters([REPORTER_NAME], reporters, env)
    .map(([name]) => shownName(name, cwd))
    .join(',');
  return (
    `visual-uat: this run's reporters (${named}) leave out visual-uat's, so nothing would compare its checkpoints: run npx ` +
    `visual-uat test --reporter=${named}, or npx playwright test --reporter=${gated} (only --reporter=blob runs without it: ` +
    `merge-reports compares)`
  );
}

/**
 * `--reporter` in arguments for `playwright test`, with visual-uat's reporter kept in the list the
 * flag names (see gatedReporters). A list with blob is left as it is: merge-reports compares.
 */
export function gatedReporterFlags(
  args: readonly string[],
  isVisualUat: (name: string) => boolean,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const out: string[] = [];
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    const inline = arg.startsWith('--reporter=');
    const value = inline ? arg.slice('--reporter='.length) : arg === '--reporter' ? args[at + 1] : undefined;
    if (value === undefined) {
      out.push(arg);
      continue;
    }
    if (!inline) at++;
    const names = value.split(',');
    const kept =
      names.includes('blob') || names.some(isVisualUat)
        ? names
        : gatedReporters(
            [REPORTER_NAME],
            names.map((name): ReporterDescription => [name]),
            env,
          ).map(([name]) => name);
    out.push(`--reporter=${kept.join(',')}`);
  }
  return out;
}
