import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineEntryDir, mergedBaselineDir } from '../../../src/config/paths';
import { clearEarlierBaselines, writeManifest } from '../../../src/files/run-folder';

const COMMIT = 'a'.repeat(40);

describe('the run folder', () => {
  it("keeps this run's baseline entry and the merged images only: earlier runs' entries go, a folder no run made stays", () => {
    const outputDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'run-folder-')), '.visual-uat');
    const mine = baselineEntryDir(outputDir, COMMIT, 'c'.repeat(64));
    const earlier = baselineEntryDir(outputDir, COMMIT, 'e'.repeat(64));
    const otherCommit = baselineEntryDir(outputDir, 'b'.repeat(40), 'd'.repeat(64));
    const merged = mergedBaselineDir(outputDir, COMMIT);
    for (const dir of [mine, earlier, otherCommit]) writeManifest(dir, { complete: true, tests: {} });
    fs.mkdirSync(merged, { recursive: true });
    const notes = path.join(outputDir, 'baselines', COMMIT, 'my-notes');
    fs.mkdirSync(notes);
    clearEarlierBaselines(outputDir, mine);
    expect(fs.readdirSync(path.join(outputDir, 'baselines', COMMIT)).sort()).toEqual([path.basename(mine), 'merged', 'my-notes'].sort());
    // The other commit's folder held nothing else: it goes too.
    expect(fs.readdirSync(path.join(outputDir, 'baselines'))).toEqual([COMMIT]);
  });
});
