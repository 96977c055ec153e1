import { stripVTControlCharacters } from 'node:util';

/**
 * Lines visual-uat printed more than once in one command's output: a person reads each once. What
 * visual-uat prints is its `visual-uat:` lines, the rows of its table (a status first), and the
 * lines `approve`, `reject` and the run's summary say of one checkpoint (`approved: …`, `note: …`,
 * `stale approval ignored: …`). Playwright's own lines (one per test, its errors and code frames,
 * the servers' [WebServer] output) repeat by nature and are not read here; a table row's
 * continuation lines may too (two reasons that wrap alike).
 */

const STATUS_ROW = /^ {2}(?:regression|needs_review|errored|missing|new|changed|unchanged) +\S/;
const VISUAL_UAT_LINE =
  /^(?:visual-uat:|(?:would )?(?:approve|approved|reject|rejected|drop|dropped|replace|replaced)\b|\s+note: |\s+stale (?:approval|rejection) ignored: )/;

export function repeatedLines(output: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const raw of stripVTControlCharacters(output).split('\n')) {
    const line = raw.trimEnd();
    if (!VISUAL_UAT_LINE.test(line) && !STATUS_ROW.test(line)) continue;
    if (seen.has(line)) repeated.add(line);
    seen.add(line);
  }
  return [...repeated];
}

/** Throws where a command's output repeats a line of visual-uat's, naming the lines. */
export function assertNoRepeatedLines(command: string, output: { stdout?: string | null; stderr?: string | null }): void {
  const repeated = repeatedLines(`${output.stdout ?? ''}\n${output.stderr ?? ''}`);
  if (repeated.length)
    throw new Error(`${command} printed ${repeated.length === 1 ? 'a line' : `${repeated.length} lines`} twice:\n${repeated.join('\n')}`);
}
