import type { ConsoleMessage, Locator, Page, Request, Response } from '@playwright/test';
import type { A11yViolation, CapturedSignals } from '../types';
import { takeInteraction } from './interaction';

/**
 * Console errors, uncaught page errors and failed requests of one page, collected from the first
 * checkpoint call (or the fixture's set-up) and handed out per checkpoint: each checkpoint gets
 * what happened since the previous one. Listeners only push strings, so a page without errors
 * costs nothing but the events Playwright delivers anyway.
 */
export interface SignalRecorder {
  /** Everything recorded since the last drain, emptied. */
  drain(): { consoleErrors: string[]; failedRequests: string[] };
  /** Resolves once no fetch or XMLHttpRequest of the page is in flight, or at `deadline` (ms since the epoch). */
  requestsDone(deadline: number): Promise<void>;
}

/** The requests whose answers a page renders when they come (content that arrives after the load event). */
const DATA_REQUESTS = new Set(['fetch', 'xhr']);

const recorders = new WeakMap<Page, SignalRecorder>();

/** The page's own origin, removed from URLs and messages: base and current apps run on different ports. */
export function originOf(page: Page): string | null {
  try {
    const url = new URL(page.url());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** A URL as a reviewer may read it: no credentials, no query values (tokens live there), no fragment; same-origin as a path. */
export function displayUrl(raw: string, origin: string | null): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const query = [...url.searchParams.keys()].map((key) => `${key}=…`).join('&');
  const place = url.origin === origin ? url.pathname : `${url.origin}${url.pathname}`;
  return query ? `${place}?${query}` : place;
}

function withoutOrigin(text: string, origin: string | null): string {
  return origin ? text.split(origin).join('') : text;
}

/**
 * Chromium logs every failed subresource as a console error ("Failed to load resource: … 404"):
 * the failed request is already reported, with its URL, so the console copy is dropped.
 */
const RESOURCE_ERROR = /^Failed to load resource:/;

/** Requests the test itself cancels by navigating away: not the app's failure. */
const ABORTED = 'net::ERR_ABORTED';

export function recorderFor(page: Page): SignalRecorder {
  const existing = recorders.get(page);
  if (existing) return existing;
  let consoleErrors: string[] = [];
  let failedRequests: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' || RESOURCE_ERROR.test(message.text())) return;
    consoleErrors.push(`console.error: ${withoutOrigin(message.text(), originOf(page))}`);
  });
  page.on('pageerror', (error: Error) => {
    consoleErrors.push(`uncaught ${withoutOrigin(`${error.name}: ${error.message}`, originOf(page))}`);
  });
  const failed = (request: Request, outcome: string) => {
    const url = displayUrl(request.url(), originOf(page));
    if (url) failedRequests.push(`${request.method()} ${url} → ${outcome}`);
  };
  page.on('response', (response: Response) => {
    if (response.status() >= 400) failed(response.request(), String(response.status()));
  });
  const inFlight = new Set<Request>();
  let landed: (() => void)[] = [];
  const ended = (request: Request) => {
    if (!inFlight.delete(request) || inFlight.size) return;
    landed.forEach((resolve) => resolve());
    landed = [];
  };
  page.on('request', (request: Request) => {
    if (DATA_REQUESTS.has(request.resourceType())) inFlight.add(request);
  });
  page.on('requestfinished', ended);
  page.on('requestfailed', (request: Request) => {
    ended(request);
    const error = request.failure()?.errorText ?? 'failed';
    if (error !== ABORTED) failed(request, error);
  });
  const recorder: SignalRecorder = {
    requestsDone(deadline) {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        landed.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    drain() {
      const drained = { consoleErrors, failedRequests };
      consoleErrors = [];
      failedRequests = [];
      return drained;
    },
  };
  recorders.set(page, recorder);
  return recorder;
}

async function ariaSnapshot(scope: Locator): Promise<string | null> {
  try {
    return await scope.ariaSnapshot({ timeout: 2000 });
  } catch {
    // A scope that detached or timed out has no tree to compare; the pixels still do.
    return null;
  }
}

/**
 * The texts of what a checkpoint masks, whole and line by line (a live feed's innerText puts each item on a line of its own; the ARIA
 * snapshot joins them with spaces), at least two characters each: a shorter one would blank unrelated text.
 */
async function maskedTexts(masks: readonly Locator[]): Promise<string[]> {
  const texts = await Promise.all(masks.map((mask) => mask.allInnerTexts().catch(() => [])));
  return texts
    .flat()
    .flatMap((text) => [text, ...text.split('\n')])
    .map((text) => text.trim())
    .filter((text) => text.length >= 2);
}

/**
 * An ARIA snapshot with each masked text as `…`, longest first, and a run of them (a feed of a varying number of items) as one `…`: what
 * the mask covers never reaches the tree compared.
 */
export function withoutMaskedTexts(snapshot: string, texts: readonly string[]): string {
  const longestFirst = [...new Set(texts)].sort((a, b) => b.length - a.length);
  return longestFirst.reduce((tree, text) => tree.split(text).join('…'), snapshot).replace(/…(?:[ \t]+…)+/g, '…');
}

/**
 * The ARIA snapshot without the text of what the checkpoint masks: a masked clock is left out of
 * the pixels compared, so its text is left out of the tree compared, else every run shows a new
 * time and no approval of the checkpoint ever applies again. The texts are read before and after
 * the snapshot, so one that ticks meanwhile is caught either way; each becomes `…`.
 */
async function unmaskedAriaSnapshot(scope: Locator, masks: readonly Locator[]): Promise<string | null> {
  if (masks.length === 0) return ariaSnapshot(scope);
  const before = await maskedTexts(masks);
  const snapshot = await ariaSnapshot(scope);
  return snapshot === null ? null : withoutMaskedTexts(snapshot, [...before, ...(await maskedTexts(masks))]);
}

const SCOPE_ATTRIBUTE = 'data-visual-uat-a11y-scope';

/** The install line for the optional peer: 4.14 and later need Node 22.12, so Node 20 gets 4.13. */
function axeInstallHint(): string {
  const major = Number(process.versions.node.split('.')[0]);
  return `npm install -D @axe-core/playwright${major < 22 ? '@~4.13.0' : ''}`;
}

/**
 * @axe-core/playwright is an optional peer dependency: only a11y checks need it, and its newer
 * releases refuse Node 20 under engine-strict. Asking for a11y without it is an error that says
 * what to install.
 */
async function loadAxe(): Promise<typeof import('@axe-core/playwright').default> {
  try {
    return (await import('@axe-core/playwright')).default;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(`screenshotCheckpoint: a11y checks need @axe-core/playwright, which is not installed: ${axeInstallHint()}`);
  }
}

/** axe-core over the checkpoint's scope; loaded only when asked for, so `a11y` off costs nothing. */
async function a11yViolations(page: Page, locator: Locator | undefined): Promise<A11yViolation[] | null> {
  const AxeBuilder = await loadAxe();
  // axe scopes by CSS selector, not by locator: the element is marked for the duration of the run.
  if (locator) await locator.evaluate((element, name) => element.setAttribute(name, ''), SCOPE_ATTRIBUTE);
  try {
    const builder = new AxeBuilder({ page });
    if (locator) builder.include(`[${SCOPE_ATTRIBUTE}]`);
    const results = await builder.analyze();
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      targets: violation.nodes.map((node) => node.target.map((part) => (Array.isArray(part) ? part.join(' ') : String(part))).join(' ')),
    }));
  } catch {
    return null;
  } finally {
    if (locator) await locator.evaluate((element, name) => element.removeAttribute(name), SCOPE_ATTRIBUTE).catch(() => undefined);
  }
}

/**
 * Starts a checkpoint's signals; the returned function finishes them after the screenshot. The
 * ARIA snapshot and the pointer and focus state are read while the screenshots are taken (on an
 * idle 2-core machine the snapshot then added 2–6 ms to a capture instead of 10–13 ms; read after
 * it, the two were most of a checkpoint's signals lap); console errors and failed requests are
 * drained after the capture, so they include what happened while it stabilised; axe runs last, on
 * the settled page. A page that changed between captures is read again after the last one
 * (`readAgain`): the first reads may not be the page of the image.
 */
export function startSignals(
  page: Page,
  locator: Locator | undefined,
  masks: readonly Locator[] = [],
): (a11y: boolean, readAgain?: boolean) => Promise<CapturedSignals> {
  const scope = locator ?? page.locator('body');
  const aria = unmaskedAriaSnapshot(scope, masks);
  const pointer = takeInteraction(page);
  return async (a11y, readAgain) => {
    const [first, early] = await Promise.all([aria, pointer]);
    const snapshot = readAgain ? ((await unmaskedAriaSnapshot(scope, masks)) ?? first) : first;
    const interaction = readAgain ? await takeInteraction(page) : early;
    const violations = a11y ? await a11yViolations(page, locator) : null;
    return { origin: originOf(page), aria: snapshot, ...recorderFor(page).drain(), a11y: violations, interaction };
  };
}
