import fs from 'node:fs';
import path from 'node:path';
import { test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { checkpointStopwatch } from '../config/timing';
import type { ComparisonTolerance, Region, VisualUatTestOptions } from '../types';
import { userCallSite, type CallSite } from '../util/call-site';
import { readBaselineImage, readEarlierRender } from '../files/run-folder';
import { writeCheckpoint, writeRunContext, writeTestMeta } from './codec';
import { takeLayout, type LayoutArea } from './layout';
import { validateCheckpointName } from './names';
import { recorderFor, startSignals } from './signals';
import { elementError, waitForElement } from './element';
import { captureTarget, noteCapture, testMeta, type CaptureTarget } from './target';
import { unsettledArea } from './unsettled';

export interface CheckpointOptions extends ComparisonTolerance {
  /** Whole scrollable page (default true); ignored with `locator` or `clip`. */
  fullPage?: boolean;
  locator?: Locator;
  clip?: { x: number; y: number; width: number; height: number };
  mask?: Locator[];
  maskColor?: string;
  animations?: 'disabled' | 'allow';
  caret?: 'hide' | 'initial';
  /** Playwright's `scale`: one image pixel per CSS pixel (default `'css'`), or per device pixel. */
  scale?: 'css' | 'device';
  /** A transparent background instead of the page's white one. */
  omitBackground?: boolean;
  /** CSS file(s) applied while the screenshot is taken, e.g. to hide volatile elements. */
  stylePath?: string | string[];
  /** What this checkpoint should show; sent to the evaluator beside the test's intent. */
  intent?: string;
  /** How long to wait for the `locator`'s element to show, the page to settle and two identical consecutive captures (default 5 s, like Playwright's expect timeout). */
  timeout?: number;
  /** Check the checkpoint's scope for accessibility violations with axe-core (default: the test's `a11y`, else false). */
  a11y?: boolean;
}

/** Playwright's own cadence for stable screenshots (expectScreenshot): 0, 100, 250, 500 ms, then every second. */
const RETAKE_DELAYS_MS = [0, 100, 250, 500];
const RETAKE_INTERVAL_MS = 1000;
/** Playwright's default expect timeout. */
const DEFAULT_STABLE_TIMEOUT_MS = 5000;

interface Session {
  names: Set<string>;
  target: CaptureTarget;
  metaAttached: boolean;
}

const sessions = new WeakMap<TestInfo, Session>();
/** The run context travels once per worker process: it is the same for every test of the run. */
let contextAttached = false;

function sessionFor(testInfo: TestInfo): Session {
  let session = sessions.get(testInfo);
  if (!session) {
    session = { names: new Set(), target: captureTarget(testInfo), metaAttached: false };
    sessions.set(testInfo, session);
  }
  return session;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fonts loaded, a scroll under way finished, two frames painted. A full-page capture draws fixed
 * headers where the viewport is scrolled to, so a smooth scroll still running (a clicked anchor on
 * a page with `scroll-behavior: smooth`, as Bootstrap sets) makes each capture different until it
 * ends; waiting for the scroll position to hold still starts the retakes from the page at rest.
 */
export async function settle(page: Page, timeoutMs: number): Promise<void> {
  await page.evaluate(async (timeout) => {
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await document.fonts.ready;
    const deadline = performance.now() + timeout;
    for (let x = NaN, y = NaN; (x !== scrollX || y !== scrollY) && performance.now() < deadline; ) {
      x = scrollX;
      y = scrollY;
      await frames();
    }
    // What the scroll brought into view may use a font not requested before.
    await document.fonts.ready;
    await frames();
  }, timeoutMs);
}

/**
 * Retakes until two consecutive captures are identical. A first capture identical to the baseline
 * is as good a proof as a second one (toHaveScreenshot stops at a match with its expected image the
 * same way), so an unchanged checkpoint costs one screenshot. So is one identical to the
 * checkpoint's earlier render that held still (a test the base renders again after an edit): the
 * image kept is always this capture; the earlier one only stands for the second capture.
 */
export async function stableCapture(
  capture: () => Promise<Buffer>,
  timeoutMs: number,
  baseline: Buffer | null,
  earlier: Buffer | null,
): Promise<{ png: Buffer; stable: boolean; unsettled: Region | null; sameAsBaseline?: true }> {
  const deadline = Date.now() + timeoutMs;
  let previous = await capture();
  if (baseline?.equals(previous)) return { png: previous, stable: true, unsettled: null, sameAsBaseline: true };
  if (earlier?.equals(previous)) return { png: previous, stable: true, unsettled: null };
  let before: Buffer | null = null;
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    await sleep(Math.min(RETAKE_DELAYS_MS[attempt] ?? RETAKE_INTERVAL_MS, Math.max(0, deadline - Date.now())));
    const next = await capture();
    if (next.equals(previous)) return { png: next, stable: true, unsettled: null };
    before = previous;
    previous = next;
  }
  return { png: previous, stable: false, unsettled: before ? await unsettledArea(before, previous) : null };
}

function readStyles(stylePath: string | string[] | undefined, testInfo: TestInfo): string | undefined {
  if (!stylePath) return undefined;
  const baseDir = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : testInfo.config.rootDir;
  return (Array.isArray(stylePath) ? stylePath : [stylePath])
    .map((file) => {
      const resolved = path.resolve(baseDir, file);
      if (!fs.existsSync(resolved)) throw new Error(`screenshotCheckpoint: stylePath ${file} does not exist (resolved to ${resolved})`);
      return fs.readFileSync(resolved, 'utf8');
    })
    .join('\n');
}

type ShotOptions = Parameters<Locator['screenshot']>[0];

type Box = NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>;
const sameBox = (a: Box, b: Box | null) => b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * An element's image, the same size wherever it sits. Playwright clips an element to the whole
 * pixels that enclose it, so an element at y = 300.5 is one row taller than the same element at
 * y = 300 (the extra row is whatever lies around it): a half-pixel shift above a footer made the
 * footer "changed". Rounding each edge to the nearest pixel keeps its size, and the pixels inside
 * are compared within tolerance as usual. Playwright's own element screenshot is used where the
 * box measured here might not be the one captured: with a `stylePath` (applied only while the
 * screenshot is taken), an element that moved between the measure and the capture (an animation
 * that `animations: 'disabled'` settles or restarts), or one larger than the viewport. Each wait
 * for the element ends at the checkpoint's timeout: one that went away fails the checkpoint.
 */
async function elementShot(page: Page, locator: Locator, options: ShotOptions, timeout: number): Promise<Buffer> {
  const elementScreenshot = () => locator.screenshot({ ...options, timeout });
  if (options?.style) return elementScreenshot();
  // Not scrollIntoViewIfNeeded: it waits for the element to stop moving, which an endless
  // animation never does before `animations: 'disabled'` takes effect inside the screenshot.
  await locator.evaluate((element) => element.scrollIntoView({ block: 'nearest', inline: 'nearest' }), undefined, { timeout });
  const box = await locator.boundingBox({ timeout });
  const viewport = page.viewportSize();
  if (!box || !viewport) return elementScreenshot();
  const [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height].map(Math.round);
  if (left < 0 || top < 0 || right > viewport.width || bottom > viewport.height || right <= left || bottom <= top) return elementScreenshot();
  const shot = await page.screenshot({ ...options, clip: { x: left, y: top, width: right - left, height: bottom - top } });
  return sameBox(box, await locator.boundingBox({ timeout })) ? shot : elementScreenshot();
}

/** What ct-core's mount() returns: the mounted component under #root (@playwright/experimental-ct-core, lib/mount.js). */
const CT_MOUNTED_COMPONENT = '#root >> internal:control=component';
/** What @playwright/test's own mount(storyId) returns (1.62+, lib/index.js): the gallery's root. */
const GALLERY_ROOT = '#root';

/**
 * In a component test the component is the subject, not the mostly empty page around it: a
 * checkpoint without `locator`, `clip` or `fullPage` captures the mounted component. A component
 * is mounted when #root has content and the page is a mounting page: ct-core's (it defines
 * `playwrightMount`) or a story gallery (it defines `window.mount`, which Playwright's mount()
 * calls). An app that merely renders into #root defines neither and keeps the full page.
 */
async function defaultComponent(page: Page, options: CheckpointOptions): Promise<Locator | undefined> {
  if (options.clip || options.fullPage !== undefined) return undefined;
  const mounted = await page.evaluate(() => {
    if (!document.getElementById('root')?.firstChild) return null;
    if ('playwrightMount' in window) return 'ct';
    return typeof (window as { mount?: unknown }).mount === 'function' ? 'gallery' : null;
  });
  if (mounted === 'ct') return page.locator(CT_MOUNTED_COMPONENT);
  return mounted === 'gallery' ? page.locator(GALLERY_ROOT) : undefined;
}

/** What the screenshot covered, for its layout record. */
function layoutArea(page: Page, locator: Locator | undefined, options: CheckpointOptions): LayoutArea {
  if (locator) return { kind: 'element', locator };
  if (options.clip) return { kind: 'clip', ...options.clip };
  const viewport = page.viewportSize();
  return options.fullPage === false && viewport ? { kind: 'clip', x: 0, y: 0, ...viewport } : { kind: 'page' };
}

/**
 * Takes one named checkpoint: a stabilised screenshot written under the test's output folder and
 * attached to the test result, with the baseline image beside it when there is one.
 */
export async function takeCheckpoint(
  page: Page,
  testInfo: TestInfo,
  rawName: string,
  options: CheckpointOptions = {},
  testOptions: VisualUatTestOptions = {},
  location: CallSite | undefined = userCallSite(),
): Promise<void> {
  // One boxed step per checkpoint, at the user's line (also under pnpm's layout), not at our
  // internals: a refused name fails inside it, so its error points at the user's line too.
  await test.step(`Checkpoint "${String(rawName)}"`, () => capture(page, testInfo, validateCheckpointName(rawName), options, testOptions), { box: true, location });
}

async function capture(page: Page, testInfo: TestInfo, name: string, options: CheckpointOptions, testOptions: VisualUatTestOptions): Promise<void> {
  const session = sessionFor(testInfo);
  // The seed-style helper has no set-up of its own: its recording starts at the first checkpoint.
  recorderFor(page);
  if (session.names.has(name))
    throw new Error(`screenshotCheckpoint: "${name}" is already used in this test: checkpoint names must be unique within a test`);
  session.names.add(name);
  if (testOptions.skip) return;

  const { target } = session;
  const stopwatch = checkpointStopwatch(target.role === 'baseline' ? 'base checkpoint' : 'checkpoint');
  if (!session.metaAttached) {
    noteCapture(testInfo, target);
    await writeTestMeta(testInfo, testMeta(target, testOptions));
    session.metaAttached = true;
  }
  if (target.context && !contextAttached) {
    await writeRunContext(testInfo, target.context);
    contextAttached = true;
  }

  const style = readStyles(options.stylePath, testInfo);
  const common = {
    animations: options.animations ?? 'disabled',
    caret: options.caret ?? 'hide',
    mask: options.mask,
    maskColor: options.maskColor,
    scale: options.scale ?? 'css',
    omitBackground: options.omitBackground,
    ...(style ? { style } : {}),
  };
  const locator = options.locator ?? (await defaultComponent(page, options));
  const timeout = options.timeout ?? DEFAULT_STABLE_TIMEOUT_MS;
  const capture = locator
    ? () => elementShot(page, locator, common, timeout).catch(async (error) => Promise.reject(await elementError(error, name, locator, timeout, 'visible')))
    : () => page.screenshot({ ...common, fullPage: options.clip ? false : (options.fullPage ?? true), clip: options.clip });

  // One budget for the element, settling and retaking: a page that never stops scrolling still gets its captures.
  const deadline = Date.now() + timeout;
  if (locator) await waitForElement(name, locator, timeout, deadline);
  await settle(page, (deadline - Date.now()) / 2);
  stopwatch.split('settle');
  const finishSignals = startSignals(page, locator, options.mask ?? []);
  const baseline = readBaselineImage(target.baselineRoot, target.folder, name);
  const { png, stable, unsettled, sameAsBaseline } = await stableCapture(capture, Math.max(0, deadline - Date.now()), baseline, baseline ? null : readEarlierRender(target.key, name));
  stopwatch.split('screenshots');
  // A page that kept changing: its ARIA tree is read again, from the page the last capture shows.
  const signals = await finishSignals(options.a11y ?? testOptions.a11y ?? false, !stable);
  stopwatch.split('signals');
  // Only a change needs explaining: an image byte-identical to its baseline costs no record.
  const layout = sameAsBaseline ? null : await takeLayout(page, layoutArea(page, locator, options), options.mask);
  stopwatch.split('layout');
  await writeCheckpoint(testInfo, {
    role: target.role,
    folder: target.folder,
    png,
    imageRoot: target.imageRoot,
    baselineRoot: target.baselineRoot,
    layout,
    meta: {
      name,
      intent: options.intent ?? null,
      stable,
      unsettled,
      threshold: options.threshold,
      maxDiffPixels: options.maxDiffPixels,
      maxDiffPixelRatio: options.maxDiffPixelRatio,
      signals,
    },
  });
  stopwatch.split('write');
  stopwatch.finish();
}
