import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeTopUp } from '../../../src/baseline/top-up';

describe('mergeTopUp', () => {
  it('moves a top-up test into an entry that holds no test of its project yet (a pass that ran none)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'top-up-'));
    const entryDir = path.join(root, 'entry');
    const topUpDir = path.join(root, 'top-up');
    fs.mkdirSync(entryDir);
    fs.mkdirSync(path.join(topUpDir, 'default', 'hidden-1a2b3c4d'), { recursive: true });
    fs.writeFileSync(path.join(topUpDir, 'default', 'hidden-1a2b3c4d', 'header.png'), 'png');
    const record = { folder: path.join('default', 'hidden-1a2b3c4d'), status: 'passed', error: null, checkpoints: ['header'], layouts: [] };
    const merged = mergeTopUp(
      { complete: true, tests: {}, selection: { listed: 2, run: 0 } },
      entryDir,
      { complete: true, tests: { 'hidden.spec.ts › hidden': record } },
      topUpDir,
    );
    expect(merged.added).toEqual(['hidden.spec.ts › hidden']);
    expect(merged.manifest.tests['hidden.spec.ts › hidden']).toEqual(record);
    expect(fs.readFileSync(path.join(entryDir, 'default', 'hidden-1a2b3c4d', 'header.png'), 'utf8')).toBe('png');
  });
});
