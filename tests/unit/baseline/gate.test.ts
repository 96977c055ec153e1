import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openGate, waitAtGate } from '../../../src/baseline/gate';
import { listedFiles, wholeFilesListText } from '../../../src/baseline/selection';

describe('the gate of a base pass started ahead of its plan', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the run until it opens, and ends it when told to stop', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-gate-'));
    const gate = path.join(dir, 'gate');
    let passed = false;
    const waiting = waitAtGate(gate).then(() => (passed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(passed).toBe(false);
    openGate(gate, true);
    await waiting;
    expect(passed).toBe(true);
    openGate(gate, false);
    await expect(waitAtGate(gate)).rejects.toThrow('visual-uat: the base pass started ahead of its plan is not needed');
  });
});

describe('wholeFilesListText', () => {
  it("names each file the listing named, a test declared skipped and all, as Playwright's --test-list takes a file", () => {
    const report = {
      config: { rootDir: '/repo/tests' },
      suites: [
        { title: 'a.spec.ts', file: 'a.spec.ts', specs: [] },
        { title: 'sub/only-skipped.spec.ts', file: 'sub/only-skipped.spec.ts', specs: [] },
      ],
    };
    expect(wholeFilesListText(listedFiles(report))).toBe('a.spec.ts\nsub/only-skipped.spec.ts\n');
    expect(wholeFilesListText(['a › b.spec.ts'])).toBeNull();
    expect(wholeFilesListText(['a>b.spec.ts'])).toBeNull();
  });
});
