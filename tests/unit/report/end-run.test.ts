import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig, Suite, TestCase } from '@playwright/test/reporter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireRunLock } from '../../../src/baseline/lock';
import { outputPath } from '../../../src/config/paths';
import { endRun } from '../../../src/report/end-run';

function run(allTests: () => TestCase[]) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-end-run-')));
  const outputDir = path.join(dir, '.visual-uat');
  fs.mkdirSync(outputDir);
  acquireRunLock(outputDir);
  const config = { configFile: path.join(dir, 'playwright.config.ts'), reporter: [] } as unknown as FullConfig;
  return { outputDir, end: () => endRun(config, { allTests } as unknown as Suite, { outputDir }) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('endRun', () => {
  it('writes no results when no test ran, and releases the run lock', async () => {
    const { outputDir, end } = run(() => []);
    expect(await end()).toBeUndefined();
    expect(fs.existsSync(outputPath(outputDir, 'latestResults'))).toBe(false);
    expect(fs.existsSync(outputPath(outputDir, 'lock'))).toBe(false);
  });

  it("says in one line that the run's results could not be finished, and releases the lock all the same", async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { outputDir, end } = run(() => {
      throw new Error('the suite could not be read');
    });
    await expect(end()).rejects.toThrow('the suite could not be read');
    expect(stderr).toHaveBeenCalledWith("visual-uat: the reporter could not finish the run's results: the suite could not be read\n");
    expect(fs.existsSync(outputPath(outputDir, 'lock'))).toBe(false);
  });
});
