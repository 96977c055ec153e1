import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLatestRun } from '../../../src/cli/latest-run';
import { outputPath } from '../../../src/config/paths';
import { checkpointResult, runOf, testResult } from '../../support/results';

let outputDir: string;
beforeEach(() => {
  outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-latest-run-'));
  fs.mkdirSync(outputPath(outputDir, 'results'), { recursive: true });
});
afterEach(() => fs.rmSync(outputDir, { recursive: true, force: true }));

const write = (text: string) => fs.writeFileSync(outputPath(outputDir, 'latestResults'), text);
const run = runOf([testResult(['home.spec.ts', 'home'], [checkpointResult({ name: 'hero' })], { project: 'chromium' })]);

describe('readLatestRun', () => {
  it('reads a results file as the reporter wrote it', () => {
    write(JSON.stringify(run));
    expect(readLatestRun(outputDir)).toEqual(run);
  });

  it('says in one line to run the tests again when a field the schema requires is missing', () => {
    const { groups: _dropped, ...withoutGroups } = run;
    write(JSON.stringify(withoutGroups));
    expect(() => readLatestRun(outputDir)).toThrow(
      /^visual-uat: .*latest\.json does not read as a results file \("groups" is missing\): run the tests again$/,
    );
  });

  it('says so when the file is cut short', () => {
    write(JSON.stringify(run).slice(0, 40));
    expect(() => readLatestRun(outputDir)).toThrow(/does not read as a results file \(it is not JSON\): run the tests again$/);
  });

  it('says to run the tests first when there is no run yet', () => {
    fs.rmSync(outputPath(outputDir, 'latestResults'), { force: true });
    expect(() => readLatestRun(outputDir)).toThrow(/no run yet .* run npx visual-uat test \(or npx playwright test\) first$/);
  });
});
