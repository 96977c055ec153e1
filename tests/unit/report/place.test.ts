import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointImage, mergedBaselineDir, outputPath } from '../../../src/config/paths';
import { baselineHome, placeImages } from '../../../src/report/place';
import type { RunContext } from '../../../src/types';
import { checkpointPair, collectedTest } from '../../support/collected';

function folder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-place-'));
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const BASE_COMMIT = 'a'.repeat(40);
const context = { baseCommit: BASE_COMMIT, baselineDir: '/store/entry' } as RunContext;

describe('baselineHome', () => {
  it("is the run's baseline entry of a local run, a folder of the base commit's own for merged blobs, and none without a base", () => {
    expect(baselineHome(context, '/out', false)).toBe('/store/entry');
    expect(baselineHome(context, '/out', true)).toBe(mergedBaselineDir('/out', BASE_COMMIT));
    expect(baselineHome(null, '/out', false)).toBeNull();
    expect(baselineHome({ ...context, baseCommit: null } as unknown as RunContext, '/out', false)).toBeNull();
  });
});

describe('placeImages', () => {
  it("copies the current image out of test-results into the output folder, replacing the last run's", () => {
    const outputDir = folder();
    const running = write(path.join(folder(), 'test-results', 'visual-uat', 'hero.png'), 'this run');
    const test = collectedTest('plans', [checkpointPair('hero', null, running)]);
    const home = checkpointImage(outputPath(outputDir, 'currentScreenshots'), test.folder, 'hero');
    write(home, 'the last run');
    const [placed] = placeImages([test], outputDir, null, false);
    expect(placed.pairs[0].current).toBe(home);
    expect(fs.readFileSync(home, 'utf8')).toBe('this run');
    expect(test.pairs[0].current).toBe(running);
  });

  it("leaves a baseline already in its home where it is, and keeps an entry's image over a blob's copy only when not merging", () => {
    const outputDir = folder();
    const baselineDir = folder();
    const test = collectedTest('plans', [checkpointPair('hero', null, null)]);
    const home = write(checkpointImage(baselineDir, test.folder, 'hero'), 'stored');
    const inPlace = placeImages([{ ...test, pairs: [checkpointPair('hero', home, null)] }], outputDir, baselineDir, false);
    expect(inPlace[0].pairs[0].baseline).toBe(home);
    const extracted = write(path.join(folder(), 'blob', 'hero.png'), 'from the blob');
    placeImages([{ ...test, pairs: [checkpointPair('hero', extracted, null)] }], outputDir, baselineDir, false);
    expect(fs.readFileSync(home, 'utf8')).toBe('stored');
    placeImages([{ ...test, pairs: [checkpointPair('hero', extracted, null)] }], outputDir, baselineDir, true);
    expect(fs.readFileSync(home, 'utf8')).toBe('from the blob');
  });

  it('keeps a baseline path as it is when the run has no baseline home, and a missing image missing', () => {
    const outputDir = folder();
    const [placed] = placeImages([collectedTest('plans', [checkpointPair('hero', '/elsewhere/hero.png', null)])], outputDir, null, false);
    expect(placed.pairs[0]).toMatchObject({ baseline: '/elsewhere/hero.png', current: null });
  });
});
