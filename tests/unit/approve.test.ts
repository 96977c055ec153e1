import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { approvalOf, classify, readApprovals, reviewApprovals, writeApprovals, type ApprovalSubject } from '../../src/approve';
import { NO_DIFF, NO_SIGNALS } from '../../src/compare';
import { latestResults, resultsDir } from '../../src/config/layout';
import { resolveSettings, type Settings } from '../../src/config/options';
import { approve, report } from '../../src/cli/review';
import { writePng } from '../support/png';
import { runOf } from '../support/results';

/**
 * One approval rule for the run and the CLI. The case that drifted: the base branch moved (the
 * baseline image is new) while the current image stayed the same.
 */

const KEY = 'site.spec.ts › site › about';
let dir: string;
let settings: Settings;
let files: Record<'oldBase' | 'newBase' | 'current', string>;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-approve-'));
  settings = resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {});
  const images = path.join(settings.outputDir, 'images');
  files = {
    oldBase: writePng(path.join(images, 'old-base.png'), 40, 20, [{ x: 0, y: 0, width: 10, height: 10, rgba: [200, 0, 0, 255] }]),
    newBase: writePng(path.join(images, 'new-base.png'), 40, 20, [{ x: 0, y: 0, width: 10, height: 10, rgba: [0, 200, 0, 255] }]),
    current: writePng(path.join(images, 'current.png'), 40, 20, [{ x: 0, y: 0, width: 10, height: 10, rgba: [0, 0, 200, 255] }]),
  };
});

const subject = (baselineImage: string | null, currentImage: string | null, checkpoint = 'contact'): ApprovalSubject => ({ test: KEY, checkpoint, baselineImage, currentImage });

/** A latest.json whose one checkpoint has the given images (and a diff image when it changed). */
function writeLatestRun(baselineImage: string, currentImage: string, status: 'needs_review' | 'unchanged'): void {
  const relative = (file: string) => path.relative(resultsDir(settings.outputDir), file);
  const run = runOf([
    {
      title: 'about',
      titlePath: ['site.spec.ts', 'site', 'about'],
      file: 'tests/site.spec.ts',
      project: '',
      status: 'needs_review',
      baselineAvailable: true,
      error: null,
      checkpoints: [
        {
          name: 'contact',
          status,
          reason: '',
          baselineImage: relative(baselineImage),
          currentImage: relative(currentImage),
          diffImage: status === 'needs_review' ? relative(currentImage) : null,
          diffMetrics: NO_DIFF,
          evaluation: null,
          signals: NO_SIGNALS,
          stable: true,
        },
      ],
    },
  ]);
  fs.mkdirSync(path.dirname(latestResults(settings.outputDir)), { recursive: true });
  fs.writeFileSync(latestResults(settings.outputDir), JSON.stringify(run));
}

describe('classify', () => {
  it('applies to the approved pair only, is stale once either image moved or went, and ignores other checkpoints', async () => {
    const approval = approvalOf({ ...subject(files.oldBase, files.current), baselineImage: files.oldBase, currentImage: files.current }, 'Ann', '2026-01-01T00:00:00Z', null);
    expect(await classify(approval, subject(files.oldBase, files.current))).toBe('applies');
    expect(await classify(approval, subject(files.newBase, files.current))).toBe('stale');
    expect(await classify(approval, subject(files.oldBase, files.newBase))).toBe('stale');
    expect(await classify(approval, subject(null, files.current))).toBe('stale');
    expect(await classify(approval, subject(files.oldBase, files.current, 'header'))).toBe('unrelated');
  });
});

describe('the run and approve --prune agree', () => {
  it('an approval whose baseline moved while the current image stayed is stale for both, and --prune drops it', async () => {
    const approval = approvalOf({ ...subject(files.oldBase, files.current), baselineImage: files.oldBase, currentImage: files.current }, 'Ann', '2026-01-01T00:00:00Z', null);
    writeApprovals(settings.configDir, [approval]);
    writeLatestRun(files.newBase, files.current, 'needs_review');

    // What the reporter uses on this run's pairs…
    expect((await reviewApprovals([approval], [subject(files.newBase, files.current)])).stale).toEqual([approval]);
    // …and what report and approve --prune use on the results file.
    expect(await report(settings, false)).toContain(`stale approval ignored: ${KEY} › contact no longer matches its images; npx visual-uat approve --prune drops it`);
    const pruned = await approve(settings, [], { prune: true });
    expect(pruned).toContain(`dropped stale approval: ${KEY} › contact (no longer matches its images)`);
    expect(readApprovals(settings.configDir)).toEqual([]);
  });

  it('keeps an approval that still applies, and one for a checkpoint the run did not take', async () => {
    const applying = approvalOf({ ...subject(files.oldBase, files.current), baselineImage: files.oldBase, currentImage: files.current }, 'Ann', '2026-01-01T00:00:00Z', null);
    const elsewhere = { ...applying, test: 'other.spec.ts › other' };
    writeApprovals(settings.configDir, [applying, elsewhere]);
    writeLatestRun(files.oldBase, files.current, 'needs_review');
    expect(await approve(settings, [], { prune: true })).toContain('nothing changed in');
    expect(readApprovals(settings.configDir)).toHaveLength(2);
    expect(await report(settings, false)).toContain('1 checkpoint approved earlier');
  });

  it('a new approval replaces the older one of the same checkpoint', async () => {
    const older = approvalOf({ ...subject(files.oldBase, files.current), baselineImage: files.oldBase, currentImage: files.current }, 'Ann', '2026-01-01T00:00:00Z', null);
    writeApprovals(settings.configDir, [older]);
    writeLatestRun(files.newBase, files.current, 'needs_review');
    const out = await approve(settings, ['about › contact'], { reason: 'the new base is right' });
    expect(out).toContain(`approved: ${KEY} › contact (needs_review)`);
    const [only, ...rest] = readApprovals(settings.configDir);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ test: KEY, checkpoint: 'contact', reason: 'the new base is right' });
    expect(await classify(only, subject(files.newBase, files.current))).toBe('applies');
  });
});
