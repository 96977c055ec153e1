import { errors, type Locator } from '@playwright/test';

/**
 * A checkpoint of an element waits for it within the checkpoint's own timeout, as Playwright's
 * toHaveScreenshot does: a locator that matches nothing, or an element that never shows, fails
 * the checkpoint then with one line, instead of waiting out the test's timeout.
 */

/** What the locator matched when the wait ended: its first element's box and visibility, or nothing. */
export type ElementMeasure = { width: number; height: number; visibility: string } | null;

/**
 * `attached`: no element matched in time; `visible`: none of those matched was visible (Playwright's sense: a non-empty box, not
 * `visibility: hidden`).
 */
export type ElementWait = 'attached' | 'visible';

const sizeOf = (measure: { width: number; height: number }) => `${Math.round(measure.width)}×${Math.round(measure.height)}`;

function nowMatched(measure: ElementMeasure): string {
  if (!measure) return 'it matches no element now';
  if (measure.visibility !== 'visible') return `it measures ${sizeOf(measure)}, visibility: ${measure.visibility}`;
  if (measure.width * measure.height === 0) return `it measures ${sizeOf(measure)}: hidden or empty`;
  return `it measures ${sizeOf(measure)} now`;
}

export function elementTimeoutMessage(
  name: string,
  locator: string,
  timeoutMs: number,
  wait: ElementWait,
  measure: ElementMeasure,
): string {
  const subject = `checkpoint "${name}": ${locator}`;
  if (wait === 'attached')
    return `${subject} matched no element within ${timeoutMs} ms: check the selector, or wait for the element before the checkpoint`;
  return (
    `${subject} matched no visible element within ${timeoutMs} ms (${nowMatched(measure)}): wait for it to be visible ` +
    `before the checkpoint, or check the selector`
  );
}

async function measure(locator: Locator): Promise<ElementMeasure> {
  // evaluateAll does not wait: it reads what the locator matches at this moment.
  const [first] = await locator.evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { width: rect.width, height: rect.height, visibility: getComputedStyle(element).visibility };
    }),
  );
  return first ?? null;
}

/** The error for a wait on the element that timed out; any other error as it was. */
export async function elementError(error: unknown, name: string, locator: Locator, timeoutMs: number, wait: ElementWait): Promise<unknown> {
  if (!(error instanceof errors.TimeoutError)) return error;
  return new Error(elementTimeoutMessage(name, locator.toString(), timeoutMs, wait, await measure(locator)));
}

/**
 * Waits until the locator matches an element and it is visible, both within the checkpoint's
 * timeout (counted from `deadline`). Playwright's element screenshot waits for the same, but
 * without a timeout of its own it would wait for the test's.
 */
export async function waitForElement(name: string, locator: Locator, timeoutMs: number, deadline: number): Promise<void> {
  for (const wait of ['attached', 'visible'] as const) {
    // A timeout of 0 is Playwright's "no timeout"; a budget spent is not: it leaves a millisecond.
    try {
      await locator.waitFor({ state: wait, timeout: timeoutMs === 0 ? 0 : Math.max(1, deadline - Date.now()) });
    } catch (error) {
      throw await elementError(error, name, locator, timeoutMs, wait);
    }
  }
}
