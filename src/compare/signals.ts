import type { A11yViolation, CapturedSignals, CheckpointSignals } from '../types';
import { unifiedDiff } from './text-diff';

export const NO_SIGNALS: CheckpointSignals = { ariaDiff: null, newConsoleErrors: [], newFailedRequests: [], newA11yViolations: [] };

/**
 * The key two messages are matched by: what differs between two runs of the same code (ids,
 * counters, timestamps, line:column positions) is folded away, so noise both sides share never
 * reads as new. Same-origin URLs are already relative (see capture/signals).
 */
export function normaliseMessage(message: string): string {
  return message
    .replace(/\b[0-9a-f]{8,}\b/gi, '#')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
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

/**
 * What current has that base has not. Without the base's signals (a checkpoint that is new, or a
 * baseline captured before signals existed) nothing can be called new, so nothing is reported.
 */
export function compareSignals(base: CapturedSignals | null, current: CapturedSignals | null): CheckpointSignals {
  if (!base || !current) return NO_SIGNALS;
  return {
    ariaDiff: base.aria !== null && current.aria !== null ? unifiedDiff(base.aria, current.aria) : null,
    newConsoleErrors: newItems(base.consoleErrors, current.consoleErrors, normaliseMessage),
    // Already normalised at capture (relative URL, query values dropped); a 404 turning into a 500 is new.
    newFailedRequests: newItems(base.failedRequests, current.failedRequests, (request) => request),
    // a11y off on either side means not compared: an unchecked base would make every violation "new".
    newA11yViolations: base.a11y && current.a11y ? newViolations(base.a11y, current.a11y) : [],
  };
}

/** New console errors, failed requests or a11y violations: what keeps a checkpoint from auto-approval and what `failOn: ['signals']` fails on. */
export function hasNewSignals(signals: CheckpointSignals): boolean {
  return signals.newConsoleErrors.length + signals.newFailedRequests.length + signals.newA11yViolations.length > 0;
}
