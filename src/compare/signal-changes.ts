import type { A11yViolation, CapturedSignals, CheckpointSignals } from '../types';
import { unifiedDiff } from './text-diff';

export const NO_SIGNALS: CheckpointSignals = { ariaDiff: null, newConsoleErrors: [], newFailedRequests: [], newA11yViolations: [] };

/** `scheme://host:port`: the base app runs on a port of its own, and other servers may move with it. */
const ORIGIN = /\b(?:https?|wss?):\/\/[^\s/'"()<>]+/g;
/** A query string after a path (`?v=18c5c219`, `?t=1700000000000`): dev servers' cache busters. */
const QUERY = /(?<=[\w./-])\?[^\s'"()<>]*/g;
/** `:12` or `:12:5` closing a location in a stack trace. */
const LINE_COLUMN = /(?<=\.\w{1,5}):\d+(?::\d+)?/g;
/** A bundle's file name: the parts after its first are content hashes when they are long and not plain words. */
const BUNDLE_FILE = /[\w$@~-]+(?:[.-][\w$@~]+)*\.(?:m?js|cjs|css|map|wasm)\b/g;
/** A whole path segment that is a build id (Next's `/_next/static/<buildId>/`). */
const BUILD_ID_SEGMENT = /(?<=\/)(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{16,}(?=\/)/g;

function withoutContentHashes(file: string): string {
  const extension = file.slice(file.lastIndexOf('.'));
  const [name, ...parts] = file.slice(0, -extension.length).split(/(?=[.-])/);
  const kept = parts.map((part) => {
    const body = part.slice(1);
    return body.length >= 6 && /[\dA-Z]/.test(body) ? `${part[0]}#` : part;
  });
  return `${name}${kept.join('')}${extension}`;
}

/**
 * The key two messages are matched by: what differs between two runs of the same code is folded
 * away, so noise both sides share never reads as new. Dev servers name the same module
 * differently on each start and on each port: origins and ports, query strings, content hashes
 * in bundle file names (Vite's `chunk-NV44I4VS.js`, webpack's `main.3f2a1b4c.js`, Next's
 * `_app-0a1b2c3d4e5f6a7b.js` and build ids, esbuild's chunks) and line:column positions go, then
 * ids, counters and timestamps (numbers and long hex runs).
 */
export function normaliseMessage(message: string): string {
  return message
    .replace(ORIGIN, '')
    .replace(QUERY, '')
    .replace(LINE_COLUMN, '')
    .replace(BUNDLE_FILE, withoutContentHashes)
    .replace(BUILD_ID_SEGMENT, '#')
    .replace(/\b[0-9a-f]{8,}\b/gi, '#')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A failed request as `METHOD path → outcome`, whatever its origin and query: the same request on either app. */
export function requestKey(request: string): string {
  return request.replace(ORIGIN, '').replace(/\?\S*(?= → )/, '');
}

/** Items of `current` whose key no item of `base` has, each key once, in the order they happened. */
function newItems<T>(base: T[], current: T[], key: (item: T) => string): T[] {
  const seen = new Set(base.map(key));
  const fresh: T[] = [];
  for (const item of current) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    fresh.push(item);
  }
  return fresh;
}

/** One violation per rule: its targets that base did not have (a rule base also broke, on the same elements, is not new). */
function newViolations(base: A11yViolation[], current: A11yViolation[]): A11yViolation[] {
  const known = new Set(base.flatMap((v) => v.targets.map((target) => `${v.id}\0${target}`)));
  return current.flatMap((violation) => {
    const targets = violation.targets.filter((target) => !known.has(`${violation.id}\0${target}`));
    return targets.length ? [{ ...violation, targets }] : [];
  });
}

const LOCAL_HOST = '(?:localhost|127\\.0\\.0\\.1|\\[::1\\]|0\\.0\\.0\\.0)';
const isLocal = (host: string) => new RegExp(`^${LOCAL_HOST}$`).test(host);

/**
 * URLs in `text` without a page's own origin: a background image served by the base app reads
 * `http://127.0.0.1:39507/bg.png` and by the current one `http://127.0.0.1:4321/bg.png`, both
 * `/bg.png` here. A local origin goes in any spelling of its host, on its port.
 */
export function withoutOrigin(text: string, origin: string | null | undefined): string {
  if (!origin) return text;
  const { protocol, hostname, port } = new URL(origin);
  if (!isLocal(hostname) || !port) return text.split(origin).join('');
  return text.replace(new RegExp(`${protocol}//${LOCAL_HOST}:${port}(?!\\d)`, 'g'), '');
}

/**
 * The base page's origin written as the current page's: an absolute link built from
 * `location.origin` reads `localhost:39819` on the base app and `localhost:3000` on the current
 * one. Any local spelling of the base's host with the base's port counts.
 */
export function onCurrentOrigin(text: string, baseOrigin: string | null | undefined, currentOrigin: string | null | undefined): string {
  if (!baseOrigin || !currentOrigin || baseOrigin === currentOrigin) return text;
  const base = new URL(baseOrigin);
  const current = new URL(currentOrigin);
  if (!isLocal(base.hostname) || !isLocal(current.hostname)) return text.split(baseOrigin).join(currentOrigin);
  // Between local servers only the port differs: each spelling of the host stays as written.
  return text.replace(new RegExp(`(${base.protocol}//${LOCAL_HOST}):${base.port}(?!\\d)`, 'g'), `$1:${current.port}`);
}

/** What any checkpoint of a test logged on the base: console errors and failed requests move between checkpoints with timing. */
export type TestBaseSignals = Pick<CapturedSignals, 'consoleErrors' | 'failedRequests'>;

export function testBaseSignals(bases: (CapturedSignals | null)[]): TestBaseSignals {
  const present = bases.filter((base): base is CapturedSignals => base !== null);
  return { consoleErrors: present.flatMap((base) => base.consoleErrors), failedRequests: present.flatMap((base) => base.failedRequests) };
}

/**
 * What current has that base has not. A console error or failed request counts as new only when
 * no checkpoint of the test saw it on the base (`testBase`; the checkpoint's own base otherwise).
 * Without the base's signals (a checkpoint that is new, or a baseline captured before signals
 * existed) nothing can be called new, so nothing is reported.
 */
export function compareSignals(
  base: CapturedSignals | null,
  current: CapturedSignals | null,
  testBase: TestBaseSignals | null = base,
): CheckpointSignals {
  if (!base || !current) return NO_SIGNALS;
  const known = testBase ?? base;
  return {
    ariaDiff:
      base.aria !== null && current.aria !== null
        ? unifiedDiff(onCurrentOrigin(base.aria, base.origin, current.origin), current.aria)
        : null,
    newConsoleErrors: newItems(known.consoleErrors, current.consoleErrors, normaliseMessage),
    // Same method, path and outcome is the same request; a 404 turning into a 500 is new.
    newFailedRequests: newItems(known.failedRequests, current.failedRequests, requestKey),
    // a11y off on either side means not compared: an unchecked base would make every violation "new".
    newA11yViolations: base.a11y && current.a11y ? newViolations(base.a11y, current.a11y) : [],
  };
}

/**
 * New console errors, failed requests or a11y violations: what keeps a checkpoint from auto-approval and what `failOn: ['signals']` fails
 * on.
 */
export function hasNewSignals(signals: CheckpointSignals): boolean {
  return signals.newConsoleErrors.length + signals.newFailedRequests.length + signals.newA11yViolations.length > 0;
}
