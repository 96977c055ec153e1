import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File } from '../../../src/util/hash';
import {
  caseId,
  labelledCase,
  readLabels,
  writeLabel,
  type DecidedCheckpoint,
  type Decision,
  type LabelledCase,
} from '../../../src/approve';
import { resolveSettings } from '../../../src/config/settings';
import { NO_SIGNALS } from '../../../src/compare';
import type { RunContext } from '../../../src/types';
import { writePng } from '../../support/png';

const CONTEXT: RunContext = {
  baseBranch: 'main',
  baseRef: 'origin/main',
  baseCommit: 'a'.repeat(40),
  currentBranch: 'feature/pill-buttons',
  currentCommit: 'b'.repeat(40),
  dirty: false,
  sameAsBase: false,
  commits: ['1a2b3c4 Restyle plan buttons as pills'],
  changedFiles: ['M src/pricing.css'],
  appFilesChanged: ['src/pricing.css'],
  baselineDir: '/run/baselines/aaaa',
  baselineError: null,
};

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-labels-'));
}

function pair(dir: string, colour: number): { baseline: string; current: string } {
  return {
    baseline: writePng(path.join(dir, 'run', 'baseline.png'), 40, 30, [{ x: 5, y: 5, width: 10, height: 10, rgba: [200, 200, 200, 255] }]),
    current: writePng(path.join(dir, 'run', `current-${colour}.png`), 40, 30, [
      { x: 5, y: 5, width: 10, height: 10, rgba: [colour, 90, 220, 255] },
    ]),
  };
}

function decided(images: { baseline: string; current: string }): DecidedCheckpoint {
  return {
    project: 'chromium',
    titlePath: ['pricing.spec.ts', 'pricing'],
    file: 'tests/pricing.spec.ts',
    checkpoint: 'plans',
    intent: { test: 'Plan buttons are pills', checkpoint: null },
    context: CONTEXT,
    diffMetrics: { pixelDiffPercent: 8.3, changedRegions: [{ x: 5, y: 5, width: 10, height: 10, kind: 'modified' }] },
    signals: NO_SIGNALS,
    explanation: null,
    imageHashes: { baseline: sha256File(images.baseline), current: sha256File(images.current) },
  };
}

const APPROVED: Decision = {
  label: 'intended',
  source: 'approve',
  by: 'Ada <ada@example.com>',
  at: '2025-06-01T10:00:00.000Z',
  note: 'pill buttons, PR #42',
};

describe('labelled cases', () => {
  it('keep the decision with copies of its images, so the label outlives the run', () => {
    const dir = tempDir();
    const images = pair(dir, 30);
    const checkpoint = decided(images);
    const labelled = labelledCase(checkpoint, APPROVED);
    const folder = writeLabel(path.join(dir, 'labels'), labelled, images);
    fs.rmSync(path.join(dir, 'run'), { recursive: true });

    const store = readLabels(path.join(dir, 'labels'));
    expect(store.problems).toEqual([]);
    expect(store.cases).toHaveLength(1);
    const [loaded] = store.cases;
    expect(loaded.folder).toBe(folder);
    expect(loaded.case).toEqual(labelled);
    expect(loaded.images).toEqual({ baseline: path.join(folder, 'baseline.png'), current: path.join(folder, 'current.png') });
    expect({ baseline: sha256File(loaded.images.baseline), current: sha256File(loaded.images.current) }).toEqual(checkpoint.imageHashes);
    expect(loaded.case.change).toEqual({
      baseBranch: 'main',
      baseCommit: 'a'.repeat(40),
      currentBranch: 'feature/pill-buttons',
      currentCommit: 'b'.repeat(40),
      dirty: false,
      commits: ['1a2b3c4 Restyle plan buttons as pills'],
      changedFiles: ['M src/pricing.css'],
    });
  });

  it('write case.json with its keys in a fixed order, readable in a diff', () => {
    const dir = tempDir();
    const images = pair(dir, 30);
    const folder = writeLabel(dir, labelledCase(decided(images), APPROVED), images);
    const text = fs.readFileSync(path.join(folder, 'case.json'), 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual([
      'version',
      'id',
      'label',
      'source',
      'by',
      'at',
      'note',
      'test',
      'checkpoint',
      'intent',
      'change',
      'diffMetrics',
      'signals',
      'explanation',
    ]);
    expect(text).toContain('\n  "label": "intended",\n');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('are named by checkpoint and images: the same pair decided again replaces its label, another pair adds one', () => {
    const dir = tempDir();
    const images = pair(dir, 30);
    const labels = path.join(dir, 'labels');
    const approved = labelledCase(decided(images), APPROVED);
    expect(approved.id).toMatch(/^pricing-plans-[0-9a-f]{10}$/);
    writeLabel(labels, approved, images);
    writeLabel(labels, labelledCase(decided(images), { ...APPROVED, label: 'regression', source: 'reject', note: null }), images);
    expect(readLabels(labels).cases.map((c) => [c.case.id, c.case.label, c.case.source])).toEqual([[approved.id, 'regression', 'reject']]);

    const other = pair(dir, 90);
    writeLabel(labels, labelledCase(decided(other), APPROVED), other);
    expect(readLabels(labels).cases).toHaveLength(2);
    expect(fs.readdirSync(labels).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('ids differ by project, test, checkpoint and either image', () => {
    const hashes = { baseline: 'b1', current: 'c1' };
    const id = caseId('chromium', ['a.spec.ts', 'a'], 'x', hashes);
    expect(caseId('chromium', ['a.spec.ts', 'a'], 'x', hashes)).toBe(id);
    for (const other of [
      caseId('firefox', ['a.spec.ts', 'a'], 'x', hashes),
      caseId('chromium', ['b.spec.ts', 'a'], 'x', hashes),
      caseId('chromium', ['a.spec.ts', 'a'], 'y', hashes),
      caseId('chromium', ['a.spec.ts', 'a'], 'x', { ...hashes, baseline: 'b2' }),
      caseId('chromium', ['a.spec.ts', 'a'], 'x', { ...hashes, current: 'c2' }),
    ])
      expect(other).not.toBe(id);
  });

  it('a missing image fails the write with its name, and leaves nothing behind', () => {
    const dir = tempDir();
    const images = pair(dir, 30);
    const labels = path.join(dir, 'labels');
    expect(() => writeLabel(labels, labelledCase(decided(images), APPROVED), { ...images, current: path.join(dir, 'gone.png') })).toThrow(
      /cannot keep the labelled case pricing-plans-[0-9a-f]+: .*gone\.png cannot be read \(ENOENT\)/,
    );
    expect(fs.readdirSync(labels)).toEqual([]);
  });

  it('an id that cannot name a folder, or a malformed case, is refused', () => {
    const dir = tempDir();
    const images = pair(dir, 30);
    const good = labelledCase(decided(images), APPROVED);
    expect(() => writeLabel(dir, { ...good, id: '../escape' }, images)).toThrow('cannot name a folder');
    expect(() => writeLabel(dir, { ...good, label: 'maybe' } as unknown as LabelledCase, images)).toThrow(
      'label must be "intended" or "regression" (got "maybe")',
    );
  });

  it('a folder that cannot be read is reported with the fix, and the others still load', () => {
    const images = pair(tempDir(), 30);
    const dir = tempDir();
    const good = labelledCase(decided(images), APPROVED);
    writeLabel(dir, good, images);
    const broken = (name: string, text: string | null, withImages = true) => {
      const folder = path.join(dir, name);
      fs.mkdirSync(folder);
      if (text !== null) fs.writeFileSync(path.join(folder, 'case.json'), text);
      if (withImages) for (const image of ['baseline.png', 'current.png']) fs.copyFileSync(images.baseline, path.join(folder, image));
    };
    broken('a-not-json', '{ "version": 1,');
    broken('b-bad-label', JSON.stringify({ ...good, id: 'b-bad-label', label: 'fine' }));
    broken('c-wrong-id', JSON.stringify({ ...good, id: 'something-else' }));
    broken('d-no-images', JSON.stringify({ ...good, id: 'd-no-images' }), false);
    broken('e-empty', null);
    fs.mkdirSync(path.join(dir, '.f-staging'));

    const store = readLabels(dir);
    expect(store.cases.map((c) => c.case.id)).toEqual([good.id]);
    expect(store.problems).toEqual([
      expect.stringMatching(/a-not-json: case\.json is not valid JSON \(.+\): fix it or delete the folder$/),
      `${path.join(dir, 'b-bad-label', 'case.json')}: label must be "intended" or "regression" (got "fine"): fix it or delete the folder`,
      `${path.join(dir, 'c-wrong-id', 'case.json')}: id "something-else" does not match its folder "c-wrong-id": rename one of them`,
      `${path.join(dir, 'd-no-images')}: baseline.png and current.png missing: a label needs both images; delete the folder`,
      `${path.join(dir, 'e-empty')}: no case.json: fix it or delete the folder`,
    ]);
  });

  it('a folder that does not exist holds no cases', () => {
    expect(readLabels(path.join(tempDir(), 'nothing'))).toEqual({ cases: [], problems: [] });
  });

  it('live under the output folder unless labelsDir names a folder relative to the config', () => {
    expect(resolveSettings('/repo/playwright.config.ts', {}, {}).labelsDir).toBe(path.join('/repo/.visual-uat', 'labels'));
    expect(resolveSettings('/repo/e2e/playwright.config.ts', { labelsDir: 'visual-labels' }, {}).labelsDir).toBe('/repo/e2e/visual-labels');
  });
});
