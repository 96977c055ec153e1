import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWN_ROOT } from './own-package';

/**
 * Where the user's code called visual-uat: the first stack frame outside this package and outside
 * Playwright. Playwright places a test at the frame that called `test()` and a boxed step at the
 * frame after the one that called `test.step()`; both are ours when the call goes through a
 * helper, and under pnpm our files sit in `node_modules/.pnpm/…`, so the location is given
 * explicitly instead.
 */

export interface CallSite {
  file: string;
  line: number;
  column: number;
}

const PLAYWRIGHT_PACKAGE = /[\\/]node_modules[\\/](?:playwright|playwright-core|@playwright[\\/][^\\/]+)[\\/]/;

function toPath(file: string): string {
  return file.startsWith('file://') ? fileURLToPath(file) : file;
}

export function isUserFile(file: string | null | undefined): file is string {
  if (!file || file.startsWith('node:') || file.startsWith('internal/')) return false;
  const resolved = toPath(file);
  if (!path.isAbsolute(resolved)) return false;
  const relative = path.relative(OWN_ROOT, resolved);
  if (!relative.startsWith('..') && !path.isAbsolute(relative)) return false;
  return !PLAYWRIGHT_PACKAGE.test(resolved);
}

/** `at fn (file:line:col)` or `at file:line:col`, as V8 prints a frame. */
const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?$/;

/**
 * The user's call site from the printed stack. Playwright installs source-map support for the
 * test files it compiles, so the printed positions are those of the source the user wrote.
 */
export function userCallSite(): CallSite | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (match && isUserFile(match[1])) return { file: toPath(match[1]), line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/** The user's call site as V8 recorded it, before any source map: for code that must pose as the caller. */
export function rawUserCallSite(): { fileName: string; line: number; column: number } | undefined {
  const original = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    Error.stackTraceLimit = 50;
    const frames = new Error().stack as unknown as NodeJS.CallSite[];
    const frame = frames.find((candidate) => isUserFile(candidate.getFileName()));
    if (!frame) return undefined;
    return { fileName: frame.getFileName()!, line: frame.getLineNumber() ?? 1, column: frame.getColumnNumber() ?? 1 };
  } finally {
    Error.prepareStackTrace = original;
    Error.stackTraceLimit = limit;
  }
}
