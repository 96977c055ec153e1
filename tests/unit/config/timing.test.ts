import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointStopwatch, timingReport } from '../../../src/config/timing';
import { ENV } from '../../../src/config/environment';
import { moveTree } from '../../../src/checkout/staging';

describe('VISUAL_UAT_DEBUG=timing: the workers’ checkpoints', () => {
  let dir: string;
  const debug = process.env[ENV.debug.name];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-timing-'));
    process.env[ENV.debug.name] = 'timing';
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (debug === undefined) delete process.env[ENV.debug.name];
    else process.env[ENV.debug.name] = debug;
  });

  const checkpoint = (outputDir: string, kind: string) => {
    const stopwatch = checkpointStopwatch({ [ENV.debug.name]: 'timing', [ENV.outputDir.name]: outputDir });
    stopwatch.split('settle');
    stopwatch.split('screenshots');
    stopwatch.finish(kind);
  };

  it('keeps the current workers’ times when a pass beside the tests moves its output folder over the run’s', () => {
    const run = path.join(dir, 'run');
    const beside = path.join(dir, 'beside');
    checkpoint(run, 'checkpoint');
    checkpoint(run, 'checkpoint, no baseline at hand');
    checkpoint(beside, 'base checkpoint');
    checkpoint(beside, 'base checkpoint');
    moveTree(beside, run);
    const report = timingReport(run) ?? '';
    expect(report).toMatch(/ {2}checkpoint: screenshots +\d+ ms \(1 checkpoints\)/);
    expect(report).toMatch(/ {2}checkpoint, no baseline at hand: all +\d+ ms \(1 checkpoints\)/);
    expect(report).toMatch(/ {2}base checkpoint: settle +\d+ ms \(2 checkpoints\)/);
    // Read once: the next run starts from none.
    expect(timingReport(run)).not.toContain('in the workers');
  });

  it('costs nothing when timing is off', () => {
    const stopwatch = checkpointStopwatch({ [ENV.outputDir.name]: dir });
    stopwatch.split('settle');
    stopwatch.finish('checkpoint');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
