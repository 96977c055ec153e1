import fs from 'node:fs';
import path from 'node:path';
import { importClosure } from './cache-key';

/**
 * Which tests can capture a checkpoint, read from the test files before the baseline pass: the
 * pass only needs those, and a suite is mostly functional tests. It reads source text, not a
 * syntax tree, and errs towards running a test: a test is left out only when nothing it could
 * reach mentions a way to capture.
 *
 * - a file whose import closure (the file and the repository files it imports) never mentions a
 *   capture identifier: none of its tests can capture;
 * - a file that mentions one only inside test calls: the tests whose own call mentions it;
 * - a file that mentions one anywhere else (a hook, a helper, a fixture, an imported module): all
 *   of its tests.
 */

/** Every way a test takes a checkpoint: the fixture, the seed-style helper, `toHaveScreenshot`, oxtest scripts and flows. */
const CAPTURE = /\b(?:screenshotCheckpoint|takeCheckpoint|toHaveScreenshot|oxtest|defineOxTests)\b/;
const IMPORT_STATEMENT = /^\s*import\s[^;]*?from\s*['"][^'"]+['"];?|^\s*import\s*['"][^'"]+['"];?/gm;

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '\n', '']);

/**
 * The end (exclusive) of the call whose name starts at `offset`: past the parenthesis that closes
 * the first one after it, with strings, template literals, comments and regular expressions
 * skipped. Null where the text does not close as expected.
 */
export function callEnd(source: string, offset: number): number | null {
  let i = source.indexOf('(', offset);
  if (i === -1) return null;
  let depth = 0;
  const templates: number[] = [];
  let previous = '';
  for (; i < source.length; i++) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      i = source.indexOf('\n', i);
      if (i === -1) return null;
      previous = '\n';
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i + 2) + 1;
      if (i === 0) return null;
      continue;
    }
    if (c === '"' || c === "'" || (c === '/' && BEFORE_REGEX.has(previous))) {
      for (i++; i < source.length && source[i] !== c; i++) {
        if (source[i] === '\\') i++;
        else if (c === '/' && source[i] === '[') while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
        else if (source[i] === '\n') return null;
      }
      previous = 'x';
      continue;
    }
    if (c === '`' || (c === '}' && templates.length && templates[templates.length - 1] === depth)) {
      if (c === '}') templates.pop();
      for (i++; i < source.length && source[i] !== '`'; i++) {
        if (source[i] === '\\') i++;
        else if (source[i] === '$' && source[i + 1] === '{') {
          templates.push(depth);
          i++;
          break;
        }
      }
      previous = 'x';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
    if (!/\s/.test(c)) previous = c;
    else if (c === '\n') previous = '\n';
  }
  return null;
}

function offsetOf(source: string, line: number, column: number): number {
  let offset = 0;
  for (let current = 1; current < line; current++) {
    offset = source.indexOf('\n', offset) + 1;
    if (offset === 0) return source.length;
  }
  return offset + column - 1;
}

export interface TestLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * How a test can capture a checkpoint: `direct`, its own call mentions a capture; `indirect`,
 * something else it may run does (a hook, a helper, an imported module), or its source could not
 * be read; `none`, nothing it can reach does.
 */
export type CaptureReach = 'direct' | 'indirect' | 'none';

/** For each test of one file (by location): how it can capture a checkpoint. */
export function capturingTests(file: string, tests: TestLocation[], repoRoot: string): CaptureReach[] {
  const all = (reach: CaptureReach) => tests.map(() => reach);
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return all('indirect');
  }
  const imported = importClosure([file], repoRoot).filter((other) => other !== file);
  const importedCaptures = imported.some((other) => {
    try {
      return CAPTURE.test(fs.readFileSync(other, 'utf8'));
    } catch {
      return true;
    }
  });
  if (!importedCaptures && !CAPTURE.test(source.replace(IMPORT_STATEMENT, ''))) return all('none');
  const calls = tests.map((test) => {
    const start = offsetOf(source, test.line, test.column);
    const end = callEnd(source, start);
    return end === null ? null : { start, end };
  });
  if (calls.some((call) => call === null)) return all('indirect');
  // Everything outside the tests' own calls, imports aside: a hook or helper there may capture for any test.
  let outside = '';
  let at = 0;
  for (const { start, end } of [...calls].sort((a, b) => a!.start - b!.start) as { start: number; end: number }[]) {
    if (start < at) continue;
    outside += source.slice(at, start);
    at = end;
  }
  outside += source.slice(at);
  const own = calls.map((call) => CAPTURE.test(source.slice(call!.start, call!.end)));
  const elsewhere = importedCaptures || CAPTURE.test(outside.replace(IMPORT_STATEMENT, ''));
  return own.map((direct) => (direct ? 'direct' : elsewhere ? 'indirect' : 'none'));
}

/** Whether a file is in the repository (a test placed elsewhere, e.g. in node_modules, is always run). */
export function isInRepository(file: string, repoRoot: string): boolean {
  const relative = path.relative(repoRoot, file);
  return !relative.startsWith('..') && !path.isAbsolute(relative) && !relative.split(path.sep).includes('node_modules');
}
