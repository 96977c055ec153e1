import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { beforeEach, describe, expect, it } from 'vitest';
import { baseImageUsable, baselineInfo, readCheckpoints, type BaseCapture, type CheckpointMeta, type TestMeta } from '../../../src/capture';
import { writeCheckpoint, writeRunContext, writeTestMeta } from '../../../src/capture/codec';
import { checkpointImage, checkpointLayout, checkpointLiveDiff, checkpointSignals } from '../../../src/config/paths';
import { baselineManifest } from '../../../src/report/baseline-manifest';
import { collectTests, runContextOf } from '../../../src/report/collect';
import { openRunFolder, type RunFolder } from '../../../src/files/run-folder';
import type { CapturedSignals, LayoutRecord, RunContext } from '../../../src/types';

/**
 * The attachment codec both ways (capture writes, the reporter reads), and the collect stage on
 * what it reads: Playwright's results stood in for by plain objects of the same shape.
 */

type Attachment = TestResult['attachments'][number];

/**
 * What a test's attachments leave on its result. `attach` copies a file into the test's output
 * folder, as Playwright's does (a folder Playwright removes when the test passes under
 * `preserveOutput: 'failures-only'`); a push onto `attachments` keeps the path it is given.
 */
function recorder() {
  const attachments: Attachment[] = [];
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-test-output-'));
  return {
    attachments,
    attach: async (name: string, options: { body?: string | Buffer; path?: string; contentType?: string }) => {
      let copy: string | undefined;
      if (options.path) {
        copy = path.join(outputDir, 'attachments', `${name.replace(/[^\w-]/g, '-')}${path.extname(options.path)}`);
        fs.mkdirSync(path.dirname(copy), { recursive: true });
        fs.copyFileSync(options.path, copy);
      }
      attachments.push({
        name,
        contentType: options.contentType ?? 'application/octet-stream',
        path: copy,
        body: options.body === undefined ? undefined : Buffer.from(options.body),
      });
    },
  };
}

const SIGNALS: CapturedSignals = {
  origin: null,
  aria: '- heading "Pricing"',
  consoleErrors: [],
  failedRequests: [],
  a11y: null,
  interaction: null,
};
const BASE_SIGNALS: CapturedSignals = { ...SIGNALS, aria: '- heading "Plans"' };
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const FOLDER = path.join('default', 'pricing-plans-1234abcd');
const TEST_META: TestMeta = {
  key: 'site.spec.ts › pricing › plans',
  folder: FOLDER,
  baseline: { available: true, error: null, checkpoints: ['plans', 'old'], record: null },
  options: {},
};
const meta = (name: string): CheckpointMeta => ({ name, intent: null, stable: true, unsettled: null, signals: SIGNALS });
const LAYOUT: LayoutRecord = { version: 1, width: 1, height: 1, elements: [], styles: [], truncated: false, hidden: [] };

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-codec-'));
});

describe('writeCheckpoint / readCheckpoints', () => {
  it('in the baseline role keeps the signals beside the image, and its meta (whether it held still) for the manifest', async () => {
    const info = recorder();
    const root = path.join(dir, 'baseline');
    await writeCheckpoint(info, { role: 'baseline', folder: FOLDER, png: PNG, meta: meta('plans'), imageRoot: root, baselineRoot: null });
    expect(fs.readFileSync(checkpointImage(root, FOLDER, 'plans'))).toEqual(PNG);
    expect(JSON.parse(fs.readFileSync(checkpointSignals(root, FOLDER, 'plans'), 'utf8'))).toEqual(SIGNALS);
    expect(readCheckpoints(info.attachments).checkpoints).toEqual([
      {
        name: 'plans',
        image: checkpointImage(root, FOLDER, 'plans'),
        meta: meta('plans'),
        layout: null,
        liveDiff: null,
        baseline: { image: null, signals: null, layout: null },
      },
    ]);
  });

  it("in the current role carries its meta and the baseline's image, signals and layout record, writes no signals file, and names the files the run keeps, not copies", async () => {
    const baselineRoot = path.join(dir, 'baseline');
    await writeCheckpoint(recorder(), {
      role: 'baseline',
      folder: FOLDER,
      png: PNG,
      meta: { ...meta('plans'), signals: BASE_SIGNALS },
      layout: LAYOUT,
      imageRoot: baselineRoot,
      baselineRoot: null,
    });
    const info = recorder();
    const root = path.join(dir, 'current');
    const context = { baseCommit: 'a'.repeat(40) } as RunContext;
    await writeTestMeta(info, TEST_META);
    await writeRunContext(info, context);
    // The live look's diff image, written in a scratch folder it removes: kept beside the image.
    const scratchDiff = path.join(dir, 'scratch-diff.png');
    fs.writeFileSync(scratchDiff, PNG);
    await writeCheckpoint(info, {
      role: 'current',
      folder: FOLDER,
      png: PNG,
      meta: meta('plans'),
      layout: LAYOUT,
      liveDiff: scratchDiff,
      imageRoot: root,
      baselineRoot,
    });
    fs.rmSync(scratchDiff);
    await writeCheckpoint(info, { role: 'current', folder: FOLDER, png: PNG, meta: meta('added'), imageRoot: root, baselineRoot });
    expect(fs.existsSync(checkpointSignals(root, FOLDER, 'plans'))).toBe(false);
    expect(fs.readFileSync(checkpointLiveDiff(root, FOLDER, 'plans'))).toEqual(PNG);
    expect(readCheckpoints(info.attachments)).toEqual({
      test: TEST_META,
      context,
      checkpoints: [
        {
          name: 'plans',
          image: checkpointImage(root, FOLDER, 'plans'),
          meta: meta('plans'),
          layout: checkpointLayout(root, FOLDER, 'plans'),
          liveDiff: checkpointLiveDiff(root, FOLDER, 'plans'),
          baseline: {
            image: checkpointImage(baselineRoot, FOLDER, 'plans'),
            signals: BASE_SIGNALS,
            layout: checkpointLayout(baselineRoot, FOLDER, 'plans'),
          },
        },
        {
          name: 'added',
          image: checkpointImage(root, FOLDER, 'added'),
          meta: meta('added'),
          layout: null,
          liveDiff: null,
          baseline: { image: null, signals: null, layout: null },
        },
      ],
    });
  });
});

/** A TestCase as the reporter API hands it over, for the parts collect and the manifest read. */
function testCase(attachments: Attachment[], errors: TestResult['errors'] = []): TestCase {
  const result = { status: errors.length ? 'failed' : 'passed', errors, attachments } as unknown as TestResult;
  return {
    title: 'plans',
    titlePath: () => ['', '', 'site.spec.ts', 'pricing', 'plans'],
    parent: { project: () => ({ name: '' }) },
    location: { file: '/repo/tests/site.spec.ts', line: 1, column: 1 },
    results: [result],
  } as unknown as TestCase;
}

const ANSI_ERROR = {
  message: 'Error: \u001b[2mexpect(\u001b[22m\u001b[31mlocator\u001b[39m\u001b[2m).\u001b[22mtoBeVisible\u001b[2m()\u001b[22m failed',
};

describe('collectTests', () => {
  it('pairs what either pass took, the base-only one from the baseline entry, with plain-text errors', async () => {
    const baselineRoot = path.join(dir, 'baseline');
    await writeCheckpoint(recorder(), {
      role: 'baseline',
      folder: FOLDER,
      png: PNG,
      meta: meta('old'),
      imageRoot: baselineRoot,
      baselineRoot: null,
    });
    const info = recorder();
    const context = { sameAsBase: false, baselineDir: baselineRoot, baselineError: null } as RunContext;
    await writeTestMeta(info, { ...TEST_META, baseline: { ...TEST_META.baseline!, error: 'Error: \u001b[2mthe base app\u001b[22m' } });
    await writeRunContext(info, context);
    await writeCheckpoint(info, {
      role: 'current',
      folder: FOLDER,
      png: PNG,
      meta: meta('plans'),
      imageRoot: path.join(dir, 'current'),
      baselineRoot,
    });

    const tests = [testCase(info.attachments, [ANSI_ERROR])];
    const runContext = runContextOf(tests, null);
    expect(runContext).toEqual(context);
    const collected = collectTests(tests, runContext, openRunFolder(runContext));
    expect(collected.context).toEqual(context);
    const [test] = collected.tests;
    expect(test).toMatchObject({ key: TEST_META.key, titlePath: ['site.spec.ts', 'pricing', 'plans'], status: 'failed' });
    expect(test.error).toBe('Error: expect(locator).toBeVisible() failed');
    expect(test.baselineError).toBe('Error: the base app');
    expect(test.pairs.map((pair) => [pair.name, !!pair.current, !!pair.baseline])).toEqual([
      ['plans', true, false],
      ['old', false, true],
    ]);
  });
});

describe('collectTests after a baseline pass beside the tests', () => {
  it('takes a test whose capture found its stored baseline as having none when the pass failed as a whole, as a pass that failed first gives', async () => {
    const info = recorder();
    await writeTestMeta(info, TEST_META);
    await writeCheckpoint(info, {
      role: 'current',
      folder: FOLDER,
      png: PNG,
      meta: meta('plans'),
      imageRoot: path.join(dir, 'current'),
      baselineRoot: null,
    });
    const failed = {
      sameAsBase: false,
      baselineDir: path.join(dir, 'baseline'),
      baselineError: 'the baseline pass failed: the base server did not start',
    } as RunContext;
    const files: RunFolder = {
      ...openRunFolder(failed),
      manifest: {
        complete: false,
        tests: { [TEST_META.key]: { folder: FOLDER, status: 'passed', error: null, checkpoints: ['plans'], layouts: [] } },
      },
    };
    const [test] = collectTests([testCase(info.attachments)], failed, files).tests;
    expect(test).toMatchObject({ baselineAvailable: false, baselineError: failed.baselineError });
  });
});

describe('collectTests after a base test that failed', () => {
  it('compares with a capture that held still before the failure, not with one that did not, and still shows one only the base took', async () => {
    const baselineRoot = path.join(dir, 'baseline');
    for (const name of ['settled', 'restless', 'dropped'])
      await writeCheckpoint(recorder(), {
        role: 'baseline',
        folder: FOLDER,
        png: PNG,
        meta: meta(name),
        imageRoot: baselineRoot,
        baselineRoot: null,
      });
    const record = {
      folder: FOLDER,
      status: 'timedOut',
      error: 'Test timeout of 30000ms exceeded.\nCall log:',
      checkpoints: ['settled', 'restless', 'dropped'],
      unsettled: ['restless', 'dropped'],
      layouts: ['settled'],
    };
    const context = { sameAsBase: false, baselineDir: baselineRoot, baselineError: null } as RunContext;
    const info = recorder();
    await writeTestMeta(info, {
      ...TEST_META,
      baseline: { ...baselineInfo(context, { complete: true, tests: { [TEST_META.key]: record } }, TEST_META.key) },
    });
    for (const name of ['settled', 'restless', 'fresh'])
      await writeCheckpoint(info, {
        role: 'current',
        folder: FOLDER,
        png: PNG,
        meta: meta(name),
        imageRoot: path.join(dir, 'current'),
        baselineRoot,
      });
    const [test] = collectTests([testCase(info.attachments)], context, openRunFolder(context)).tests;
    expect(test).toMatchObject({ status: 'passed', error: null, baselineAvailable: false, baselineError: record.error });
    const sides = (name: string) => test.pairs.find((pair) => pair.name === name)!;
    expect(sides('settled')).toMatchObject({
      baseline: checkpointImage(baselineRoot, FOLDER, 'settled'),
      baseSignals: SIGNALS,
      baseCapture: { testStatus: 'timedOut', taken: true, settled: true, layout: true },
    });
    expect(sides('restless')).toMatchObject({
      baseline: null,
      baseSignals: null,
      layouts: { baseline: null },
      baseCapture: { settled: false, layout: false },
    });
    expect(sides('fresh')).toMatchObject({ baseline: null, baseCapture: { taken: false, settled: null } });
    expect(sides('dropped')).toMatchObject({ current: null, baseline: checkpointImage(baselineRoot, FOLDER, 'dropped') });
  });
});

describe('baseImageUsable', () => {
  it('takes a base image whose test passed, or failed only after it held still', () => {
    const capture = (extra: Partial<BaseCapture>): BaseCapture => ({
      testStatus: 'failed',
      error: 'Error: x',
      taken: true,
      settled: true,
      layout: true,
      ...extra,
    });
    expect(baseImageUsable(null)).toBe(true);
    expect(baseImageUsable(capture({ testStatus: 'passed', settled: false }))).toBe(true);
    expect(baseImageUsable(capture({}))).toBe(true);
    expect(baseImageUsable(capture({ settled: false }))).toBe(false);
    expect(baseImageUsable(capture({ settled: null }))).toBe(false);
    expect(baseImageUsable(capture({ taken: false, settled: null }))).toBe(false);
  });
});

describe('collectTests lists every test that failed', () => {
  it('keeps a test that crashed before its first checkpoint, and leaves out a passing test that took none', () => {
    const collected = collectTests([testCase([], [ANSI_ERROR]), testCase([])], null, openRunFolder(null));
    expect(collected.tests.map((test) => [test.title, test.status, test.pairs.length])).toEqual([['plans', 'failed', 0]]);
  });

  it('reads nothing itself: the base side and the manifest come from the run files it is given', () => {
    const context = { sameAsBase: false, baselineDir: '/nowhere', baselineError: null } as RunContext;
    const files: RunFolder = {
      manifest: {
        complete: true,
        tests: { [TEST_META.key]: { folder: FOLDER, status: 'passed', error: null, checkpoints: ['old'], layouts: [] } },
      },
      baseSide: (_folder, name) => ({ image: `/entry/${name}.png`, signals: null, layout: `/entry/${name}.layout.json.gz` }),
    };
    const [test] = collectTests([testCase([], [ANSI_ERROR])], context, files).tests;
    expect(test.pairs).toEqual([
      {
        name: 'old',
        current: null,
        baseline: '/entry/old.png',
        meta: null,
        baseSignals: null,
        layouts: { baseline: '/entry/old.layout.json.gz', current: null },
        baseCapture: { testStatus: 'passed', error: null, taken: true, settled: null, layout: false },
        liveDiff: null,
      },
    ]);
  });
});

describe('baselineManifest', () => {
  it("records each base test's status, plain-text error and checkpoints; a pass with global errors is incomplete", async () => {
    const info = recorder();
    await writeTestMeta(info, TEST_META);
    await writeCheckpoint(info, {
      role: 'baseline',
      folder: FOLDER,
      png: PNG,
      meta: meta('plans'),
      layout: LAYOUT,
      imageRoot: dir,
      baselineRoot: null,
    });
    await writeCheckpoint(info, {
      role: 'baseline',
      folder: FOLDER,
      png: PNG,
      meta: { ...meta('carousel'), stable: false },
      imageRoot: dir,
      baselineRoot: null,
    });
    const manifest = baselineManifest([testCase(info.attachments, [ANSI_ERROR])], 'passed', []);
    // A checkpoint whose capture never held still is named: its image settles no later capture. So is
    // each that wrote a layout record: a base side without one then says why.
    expect(manifest).toEqual({
      complete: true,
      tests: {
        [TEST_META.key]: {
          folder: FOLDER,
          status: 'failed',
          error: 'Error: expect(locator).toBeVisible() failed',
          checkpoints: ['plans', 'carousel'],
          unsettled: ['carousel'],
          layouts: ['plans'],
        },
      },
    });
    expect(baselineManifest([], 'passed', ['Error: webServer did not start']).complete).toBe(false);
    expect(baselineManifest([], 'interrupted', []).complete).toBe(false);
  });
});
