import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { checkpointStopwatch } from '../config/timing';
import type { ComparisonTolerance, LayoutRecord, VisualUatTestOptions } from '../types';
import { userCallSite, type CallSite } from '../util/call-site';
import { readBaselineImage, readBaselineSide, readEarlierRender } from '../files/run-folder';
import { writeCheckpoint, writeRunContext, writeTestMeta } from './codec';
import { takeLayout, type LayoutArea } from './layout';
import { validateCheckpointName } from './names';
import { originOf, recorderFor, startSignals } from './signals';
import { elementError, waitForElement } from './element';
import { captureTarget, noteCapture, outsideRunError, testMeta, type CaptureTarget } from './target';
import { baselineCheck, type BaselineCheckInput, type BaselineLook } from './live-check';
import { settle, stableCapture, transitionsEnded, TRANSITION_WAIT_MS, type Mounted } from './settle';
import { takeInteraction } from './interaction';

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
  /**
   * How long to wait for the `locator`'s element to show, the page to settle and two identical consecutive captures (default 5 s, like
   * Playwright's expect timeout).
   */
  timeout?: number;
  /** Check the checkpoint's scope for accessibility violations with axe-core (default: the test's `a11y`, else false). */
  a11y?: boolean;
}

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
  // Instantly: under `scroll-behavior: smooth` (Bootstrap sets it) the box measured next would be one mid-scroll.
  await locator.evaluate((element) => element.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' }), undefined, {
    timeout,
  });
  const box = await locator.boundingBox({ timeout });
  const viewport = page.viewportSize();
  if (!box || !viewport) return elementScreenshot();
  const [left, top, right, bottom] = [box.x, box.y, box.x + box.width, box.y + box.height].map(Math.round);
  if (left < 0 || top < 0 || right > viewport.width || bottom > viewport.height || right <= left || bottom <= top)
    return elementScreenshot();
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
 * calls). An app that merely renders into #root defines neither and keeps the full page. The page
 * says which while it settles (settle.ts), in the same round trip.
 */
function capturesComponent(options: CheckpointOptions): boolean {
  return !options.locator && !options.clip && options.fullPage === undefined;
}

function componentLocator(page: Page, mounted: Mounted): Locator | undefined {
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
 * The live check of a capture beside the checkpoint's baseline (live-check.ts), when one was handed
 * in and the run has a baseline entry; null otherwise (captures settle by identity alone). Called
 * only when the baseline image was read, so the entry holds it.
 */
function liveLook(
  target: CaptureTarget,
  name: string,
  scratch: string,
  overrides: ComparisonTolerance[],
  currentSide: BaselineCheckInput['currentSide'],
): ((png: Buffer) => Promise<BaselineLook>) | null {
  const check = baselineCheck();
  const { baselineRoot, tolerance: run } = target;
  if (!check || !baselineRoot || !run) return null;
  const tolerance = { run, overrides };
  // Read on the first capture that is not byte-identical to the baseline: a match costs no read.
  let side: ReturnType<typeof readBaselineSide> | null = null;
  return async (current) => {
    try {
      side ??= readBaselineSide(baselineRoot, target.folder, name);
      const baseline = { image: side.image!, layout: side.layout, signals: side.signals };
      return await check({ baseline, current, scratch, tolerance, currentSide });
    } catch (error) {
      // A baseline that cannot be compared here (the report says why) never fails the test: the capture settles as without a check, on two
      // alike.
      const why = `the baseline could not be compared while the page was alive (${(error as Error).message})`;
      return { matches: false, explained: why, difference: why };
    }
  };
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
  await test.step(`Checkpoint "${String(rawName)}"`, () => capture(page, testInfo, validateCheckpointName(rawName), options, testOptions), {
    box: true,
    location,
  });
}

async function capture(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: CheckpointOptions,
  testOptions: VisualUatTestOptions,
): Promise<void> {
  // From the start: a worker's first checkpoint reads the run context and the baseline manifest (its set-up).
  const stopwatch = checkpointStopwatch();
  const session = sessionFor(testInfo);
  // The seed-style helper has no set-up of its own: its recording starts at the first checkpoint.
  recorderFor(page);
  if (session.names.has(name))
    throw new Error(`screenshotCheckpoint: "${name}" is already used in this test: checkpoint names must be unique within a test`);
  session.names.add(name);
  if (testOptions.skip) return;
  const outsideRun = outsideRunError(name, testInfo.config.configFile);
  if (outsideRun) throw new Error(outsideRun);

  const { target } = session;
  if (!session.metaAttached) {
    noteCapture(testInfo, target);
    await writeTestMeta(testInfo, testMeta(target, testOptions));
    session.metaAttached = true;
  }
  if (target.context && !contextAttached) {
    await writeRunContext(testInfo, target.context);
    contextAttached = true;
  }
  stopwatch.split('set-up');

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
  const timeout = options.timeout ?? DEFAULT_STABLE_TIMEOUT_MS;
  // One budget for the element, settling and retaking: a page that never stops scrolling still gets its captures.
  const deadline = Date.now() + timeout;
  if (options.locator) await waitForElement(name, options.locator, timeout, deadline);
  // Content that arrives after the load event (a widget's fetch) is waited for, as far as the page asked for it.
  await recorderFor(page).requestsDone(Date.now() + (deadline - Date.now()) / 2);
  const mounted = await settle(page, (deadline - Date.now()) / 2, capturesComponent(options));
  const locator = options.locator ?? componentLocator(page, mounted);
  if (locator && !options.locator) await waitForElement(name, locator, timeout, deadline);
  stopwatch.split('settle');
  const capture = locator
    ? () =>
        elementShot(page, locator, common, timeout).catch(async (error) =>
          Promise.reject(await elementError(error, name, locator, timeout, 'visible')),
        )
    : () => page.screenshot({ ...common, fullPage: options.clip ? false : (options.fullPage ?? true), clip: options.clip });
  const finishSignals = startSignals(page, locator, options.mask ?? []);
  const baseline = readBaselineImage(target.baselineRoot, target.folder, name);
  const area = layoutArea(page, locator, options);
  const recordedAtRest = async () => {
    await transitionsEnded(page, TRANSITION_WAIT_MS);
    return takeLayout(page, area, options.mask);
  };
  // The live check's own files (a capture, a diff image): nobody reads them after the retakes.
  const scratch = path.join(os.tmpdir(), `visual-uat-look-${crypto.randomUUID()}`);
  // The record the live look took of a capture: the image kept, when it is that capture's bytes, needs no second one.
  const looked: { png?: Buffer; layout?: LayoutRecord | null } = {};
  let lookingAt: Buffer | undefined;
  const check = baseline
    ? liveLook(target, name, scratch, [testOptions, options], async () => {
        const layout = await recordedAtRest();
        Object.assign(looked, { png: lookingAt, layout });
        return { layout, signals: { origin: originOf(page), interaction: await takeInteraction(page) } };
      })
    : null;
  // The live look at the last capture it saw: the report takes its comparison when the image kept is that capture.
  let lastLook: { png: Buffer; seen: BaselineLook } | undefined;
  const look =
    check &&
    (async (shot: Buffer) => {
      lookingAt = shot;
      const seen = await check(shot);
      lastLook = { png: shot, seen };
      return seen;
    });
  let firstShot: Buffer | undefined;
  const shoot = async () => {
    const shot = await capture();
    firstShot ??= shot;
    return shot;
  };
  try {
    const { png, stable, unsettled, sameAsBaseline, captures, firstDifference } = await stableCapture(
      shoot,
      Math.max(0, deadline - Date.now()),
      baseline,
      baseline ? null : readEarlierRender(target.key, name),
      look,
    );
    stopwatch.split('screenshots');
    // A page that changed between captures: its ARIA tree and pointer state are read again, from the page the last capture shows.
    const signals = await finishSignals(options.a11y ?? testOptions.a11y ?? false, !stable || firstShot?.equals(png) !== true);
    stopwatch.split('signals');
    // Only a change needs explaining: an image byte-identical to its baseline costs no record, and one the live look recorded no second.
    const layout = sameAsBaseline ? null : looked.png?.equals(png) ? (looked.layout ?? null) : await recordedAtRest();
    stopwatch.split('layout');
    // The report compares the kept image once: here, when the live look's last capture is it (the report verifies the bytes).
    const kept = lastLook?.png.equals(png) ? lastLook.seen : null;
    await writeCheckpoint(testInfo, {
      role: target.role,
      folder: target.folder,
      png,
      imageRoot: target.imageRoot,
      baselineRoot: target.baselineRoot,
      layout,
      liveDiff: kept?.diffImage ?? null,
      meta: {
        name,
        intent: options.intent ?? null,
        stable,
        unsettled,
        ...(look ? { captures, firstDifference, comparison: kept?.comparison ?? null } : {}),
        threshold: options.threshold,
        maxDiffPixels: options.maxDiffPixels,
        maxDiffPixelRatio: options.maxDiffPixelRatio,
        signals,
      },
    });
    stopwatch.split('write');
    // A current capture with no baseline to compare (one the pass has yet to render, after an edit) is timed apart.
    stopwatch.finish(target.role === 'baseline' ? 'base checkpoint' : baseline ? 'checkpoint' : 'checkpoint, no baseline at hand');
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
