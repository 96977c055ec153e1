import type { Page } from '@playwright/test';
import type { Region } from '../types';
import { retakeDecision, type BaselineLook } from './live-check';
import { unsettledArea } from './unsettled';

/** Playwright's own cadence for stable screenshots (expectScreenshot): 0, 100, 250, 500 ms, then every second. */
const RETAKE_DELAYS_MS = [0, 100, 250, 500];
const RETAKE_INTERVAL_MS = 1000;
/** A running transition or animation that ends within this is waited for before a capture (settle). */
export const TRANSITION_WAIT_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which mounting page a component test's component is on (see checkpoint.ts componentLocator); null: none is mounted. */
export type Mounted = 'ct' | 'gallery' | null;

interface RestWait {
  timeout: number;
  /** How soon a running transition or animation must end to be waited for. */
  soon: number;
  /** Fonts loaded, a scroll under way finished, two frames painted first. */
  scroll: boolean;
  /** Whether to say which mounted component the page shows (see Mounted). */
  component: boolean;
}

/**
 * Runs in the page (page.evaluate sends its source: it uses nothing from outside). One round trip
 * for what a capture waits for, where each was one of its own: a fresh page's first evaluation
 * costs 20–40 ms on 2 cores, and Playwright's own toHaveScreenshot waits for two frames in one.
 */
async function pageAtRest({ timeout, soon, scroll, component }: RestWait): Promise<Mounted> {
  const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  if (scroll) {
    await document.fonts.ready;
    const scrollDeadline = performance.now() + timeout;
    for (let x = NaN, y = NaN; (x !== scrollX || y !== scrollY) && performance.now() < scrollDeadline; ) {
      x = scrollX;
      y = scrollY;
      await frames();
    }
    // What the scroll brought into view may use a font not requested before: its load began in
    // the frames above, and it is painted once loaded. With none loading, those frames were enough.
    if (document.fonts.status !== 'loaded') {
      await document.fonts.ready;
      await frames();
    }
  }
  const deadline = performance.now() + Math.max(0, timeout);
  const endingSoon = () =>
    document.getAnimations().some((animation) => {
      const end = animation.effect?.getComputedTiming().endTime;
      return (
        animation.playState === 'running' &&
        typeof end === 'number' &&
        Number.isFinite(end) &&
        end - Number(animation.currentTime ?? 0) <= soon
      );
    });
  while (endingSoon() && performance.now() < deadline) await new Promise((resolve) => requestAnimationFrame(resolve));
  if (!component || !document.getElementById('root')?.firstChild) return null;
  if ('playwrightMount' in window) return 'ct';
  return typeof (window as { mount?: unknown }).mount === 'function' ? 'gallery' : null;
}

/**
 * Fonts loaded, a scroll under way finished, two frames painted, and a transition that ends soon
 * ended (transitionsEnded). A full-page capture draws fixed headers where the viewport is scrolled
 * to, so a smooth scroll still running (a clicked anchor on a page with `scroll-behavior: smooth`,
 * as Bootstrap sets) makes each capture different until it ends; waiting for the scroll position
 * to hold still starts the retakes from the page at rest. With `component`, says which mounted
 * component the page shows, in the same round trip.
 */
export async function settle(page: Page, timeoutMs: number, component = false): Promise<Mounted> {
  return page.evaluate(pageAtRest, { timeout: timeoutMs, soon: TRANSITION_WAIT_MS, scroll: true, component });
}

/**
 * Waits for the page's running transitions and animations that end within a second (bounded by
 * `timeoutMs`); a longer or endless one is the screenshot's to stop. A transition a scroll handler
 * just started (a navbar shrinking under a `.scrolled` class) is let run to its end rather than
 * jumped there inside the screenshot by `animations: 'disabled'`; and every full-page screenshot
 * resizes the viewport while it captures (width media queries flip, a transition starts), so the
 * layout record, taken after it, waits for the page to come back to rest.
 */
export async function transitionsEnded(page: Page, timeoutMs: number): Promise<void> {
  await page.evaluate(pageAtRest, { timeout: timeoutMs, soon: TRANSITION_WAIT_MS, scroll: false, component: false });
}

/** What the retakes came to: the image kept, whether it settled, and how many captures it took. */
export interface Settled {
  png: Buffer;
  stable: boolean;
  unsettled: Region | null;
  sameAsBaseline?: true;
  /** How many screenshots were taken. */
  captures: number;
  /** What the first capture's difference from the baseline was, when a live check compared it (null: it matched, or no check ran). */
  firstDifference: string | null;
}

/**
 * Retakes until two consecutive captures are identical. A first capture identical to the baseline
 * is as good a proof as a second one (toHaveScreenshot stops at a match with its expected image the
 * same way), so an unchanged checkpoint costs one screenshot. So is one identical to the
 * checkpoint's earlier render that held still (a test the base renders again after an edit): the
 * image kept is always this capture; the earlier one only stands for the second capture.
 *
 * With `look` (the baseline is at hand and a check was handed in, live-check.ts), each capture that
 * is not byte-identical to the baseline is compared with it as the report will: one that matches
 * within tolerance ends the retakes, as does a difference the layout record explains once the page
 * held still for it (a change retaking will not undo; no waiting out the timeout); a difference
 * nothing explains is captured again until the timeout, like toHaveScreenshot.
 */
export async function stableCapture(
  capture: () => Promise<Buffer>,
  timeoutMs: number,
  baseline: Buffer | null,
  earlier: Buffer | null,
  look: ((png: Buffer) => Promise<BaselineLook>) | null = null,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  let captures = 1;
  let previous = await capture();
  if (baseline?.equals(previous))
    return { png: previous, stable: true, unsettled: null, sameAsBaseline: true, captures, firstDifference: null };
  if (earlier?.equals(previous)) return { png: previous, stable: true, unsettled: null, captures, firstDifference: null };
  let seen = look ? await look(previous) : null;
  const firstDifference = seen?.difference || null;
  if (seen && retakeDecision(seen, false) === 'matched') return { png: previous, stable: true, unsettled: null, captures, firstDifference };
  let before: Buffer | null = null;
  let still = false;
  // At least one retake, even past the deadline: a first screenshot that outlasted the budget on a loaded
  // machine is no evidence that the page moved.
  for (let attempt = 0; attempt === 0 || Date.now() < deadline; attempt++) {
    await sleep(Math.min(RETAKE_DELAYS_MS[attempt] ?? RETAKE_INTERVAL_MS, Math.max(0, deadline - Date.now())));
    const next = await capture();
    captures++;
    if (baseline?.equals(next)) return { png: next, stable: true, unsettled: null, sameAsBaseline: true, captures, firstDifference };
    still = next.equals(previous);
    // The same image looks the same: only a new one is compared again.
    if (look && !still) seen = await look(next);
    // Without a check, two identical captures settle it; with one, a match or an explained difference that held still does.
    if (seen ? retakeDecision(seen, still) !== 'retake' : still)
      return { png: next, stable: true, unsettled: null, captures, firstDifference };
    before = previous;
    previous = next;
  }
  // A page that held still to the end, different from its baseline in a way nothing explains, settled all the same.
  if (still) return { png: previous, stable: true, unsettled: null, captures, firstDifference };
  return { png: previous, stable: false, unsettled: before ? await unsettledArea(before, previous) : null, captures, firstDifference };
}
