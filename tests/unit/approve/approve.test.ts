import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVALS_FILE,
  classify,
  coveringDecision,
  readApprovals,
  recordDecisions,
  reviewApprovals,
  writeApprovals,
  type Approval,
  type ApprovalSubject,
} from '../../../src/approve';
import { compareImages, encodeChange, partOf, withAriaLines, type ChangePrint } from '../../../src/compare';
import type { Explanation } from '../../../src/explain';
import { outputPath } from '../../../src/config/paths';
import { resolveSettings, type Settings } from '../../../src/config/settings';
import { approveOrReject, report } from '../../../src/cli/review';
import { reviewModel } from '../../../src/cli/review-model';
import { sha256File } from '../../../src/util/hash';
import { writeNoisyPng, writePng, type Box } from '../../support/png';
import { checkpointResult, runOf, testResult } from '../../support/results';

/**
 * One approval rule for the run, the CLI and the review page: by exact images (the fast path), by
 * the same change within the comparison's tolerance on the same checkpoint (rendering noise); the
 * same change on a checkpoint nobody approved it on only resembles the approval (a rejection
 * applies there); stale when a compared checkpoint's change really differs, never when the run
 * did not capture it.
 */

const ABOUT = 'site.spec.ts › site › about';
const HOME = 'site.spec.ts › site › home';
const GREY: Box['rgba'] = [200, 200, 200, 255];
const BLUE: Box['rgba'] = [30, 90, 220, 255];
const GREEN: Box['rgba'] = [0, 160, 60, 255];
const box = (y: number, rgba: Box['rgba']): Box[] => [{ x: 20, y, width: 100, height: 40, rgba }];

let dir: string;
let settings: Settings;
let images: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-approve-'));
  settings = resolveSettings(path.join(dir, 'playwright.config.ts'), {}, {});
  images = path.join(settings.outputDir, 'images');
});

/** A compared pair as the run sees it: images on disk, and its change from the product's own diff engine. */
async function subject(
  name: string,
  base: string,
  current: string,
  test = ABOUT,
  ariaDiff: string | null = null,
  project = '',
): Promise<ApprovalSubject> {
  const outcome = await compareImages({
    baseline: base,
    current,
    diffOutput: path.join(images, `${name}-diff.png`),
    tolerance: { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 },
  });
  const change: ChangePrint | null = outcome.kind === 'different' ? withAriaLines(outcome.change, ariaDiff) : null;
  return { test, project, checkpoint: name.replace(/-.*/, ''), baselineImage: base, currentImage: current, change };
}

const png = (name: string, height: number, boxes: Box[]) => writePng(path.join(images, `${name}.png`), 200, height, boxes);
const noisy = (name: string, height: number, boxes: Box[], seed: number) =>
  writeNoisyPng(path.join(images, `${name}.png`), 200, height, boxes, seed);

function approval(of: ApprovalSubject, extra: Partial<Approval> = {}): Approval {
  return {
    decision: 'approved',
    scope: 'change',
    checkpoints: [
      { test: of.test, checkpoint: of.checkpoint, baseline: sha256File(of.baselineImage!), current: sha256File(of.currentImage!) },
    ],
    by: 'Ann',
    at: '2026-01-01T00:00:00Z',
    reason: null,
    change: encodeChange(of.change!),
    ...extra,
  };
}

describe('classify', () => {
  it('applies to the very pair it saw, by its hashes', async () => {
    const seen = await subject('contact', png('base', 120, box(20, GREY)), noisy('current', 120, box(20, BLUE), 1));
    expect(classify(approval(seen), seen)).toEqual({ fit: 'applies', how: 'same-images', covers: 'all' });
  });

  it('still applies when the same checkpoint renders with noise below the threshold, on every load', async () => {
    const base = png('base', 120, box(20, GREY));
    const approved = approval(await subject('contact', base, noisy('current', 120, box(20, BLUE), 1)));
    for (const seed of [2, 3, 4, 5, 6]) {
      const again = await subject(`contact-${seed}`, base, noisy(`current-${seed}`, 120, box(20, BLUE), seed));
      expect(sha256File(again.currentImage!)).not.toBe(approved.checkpoints[0].current);
      expect(classify(approved, again)).toMatchObject({ fit: 'applies', how: 'same-checkpoint' });
    }
  });

  it('is stale on the same checkpoint when a colour moved or a text changed', async () => {
    const base = png('base', 120, box(20, GREY));
    const seen = await subject(
      'contact',
      base,
      noisy('current', 120, box(20, BLUE), 1),
      ABOUT,
      '@@ -1 +1 @@\n-- button "Contact"\n+- button "Contact us"',
    );
    const approved = approval(seen);
    const recoloured = await subject(
      'contact-green',
      base,
      noisy('green', 120, box(20, GREEN), 2),
      ABOUT,
      '@@ -1 +1 @@\n-- button "Contact"\n+- button "Contact us"',
    );
    expect(classify(approved, recoloured)).toEqual({ fit: 'stale' });
    const retexted = await subject(
      'contact-text',
      base,
      noisy('again', 120, box(20, BLUE), 3),
      ABOUT,
      '@@ -1 +1 @@\n-- button "Contact"\n+- button "Write to us"',
    );
    expect(classify(approved, retexted)).toEqual({ fit: 'stale' });
    // Identical on the baseline it was decided on: a flaky change that did not show, not a stale decision.
    const gone = await subject('contact-gone', base, png('same', 120, box(20, GREY)));
    expect(classify(approved, gone)).toEqual({ fit: 'not-shown' });
  });

  it('covers what was seen: the same change on a checkpoint nobody approved it on only resembles the approval; a rejection applies there', async () => {
    const approved = approval(await subject('contact', png('base', 120, box(20, GREY)), png('current', 120, box(20, BLUE))));
    const elsewhere = await subject('hero', png('home-base', 200, box(130, GREY)), noisy('home', 200, box(130, BLUE), 4), HOME);
    expect(classify(approved, elsewhere)).toEqual({ fit: 'resembles', covers: { regions: [0], lines: [] } });
    expect(classify({ ...approved, decision: 'rejected' }, elsewhere)).toMatchObject({
      fit: 'applies',
      how: 'same-change',
      covers: { regions: [0], lines: [] },
    });
    expect(classify({ ...approved, scope: 'checkpoints' }, elsewhere)).toEqual({ fit: 'unrelated' });
    const other = await subject('hero-green', png('home-base', 200, box(130, GREY)), png('home-green', 200, box(130, GREEN)), HOME);
    expect(classify(approved, other)).toEqual({ fit: 'unrelated' });
  });

  it('is stale when an icon inside an approved 1280×800 region is recoloured: any 19 px square moved past the threshold is caught', async () => {
    const page = (name: string, boxes: Box[]) => writePng(path.join(images, `${name}.png`), 1280, 800, boxes);
    const panel: Box = { x: 0, y: 0, width: 1280, height: 800, rgba: BLUE };
    const base = page('panel-base', [{ ...panel, rgba: GREY }]);
    const approved = approval(await subject('panel', base, page('panel', [panel])));
    expect(approved.change).toMatch(/ m1280x800c10:/);
    const again = await subject('panel-noisy', base, writeNoisyPng(path.join(images, 'panel-noisy.png'), 1280, 800, [panel], 3));
    expect(classify(approved, again)).toMatchObject({ fit: 'applies', how: 'same-checkpoint' });
    // A colour 1.5 times the threshold away from the panel's: subtle, past the threshold on every pixel.
    const ICON: Box['rgba'] = [70, 120, 230, 255];
    for (const [x, y, size] of [
      [613, 407, 19],
      [1, 781, 19],
      [1000, 95, 20],
    ]) {
      const edited = await subject(`panel-${x}`, base, page(`panel-${x}`, [panel, { x, y, width: size, height: size, rgba: ICON }]));
      expect(classify(approved, edited), `a ${size} px icon at ${x},${y}`).toEqual({ fit: 'stale' });
    }
  });
});

describe('a decision on a group holds a member to its own part of the change', () => {
  // One edit (the header turns blue and pushes a card down) on the full page and on a list; the list also shows a second edit.
  const pageBoxes = [...box(20, BLUE)];
  const listBoxes = [...box(20, BLUE), ...box(120, GREEN), { x: 20, y: 240, width: 60, height: 20, rgba: BLUE }];

  it('covers every region the run put in the group, not only those matching the representative print, run after run', async () => {
    const page = await subject('page', png('page-base', 300, box(20, GREY)), png('page', 300, pageBoxes), HOME);
    const list = await subject('list', png('list-base', 300, box(20, GREY)), png('list', 300, listBoxes), HOME);
    // What grouping made of the list's change: the two 100×40 regions are the header edit's, the small one another edit's.
    const parts = (change: ChangePrint) => ({
      edit: partOf(change, { regions: [0, 1], lines: [] }),
      other: partOf(change, { regions: [2], lines: [] }),
    });
    const { edit, other } = parts(list.change!);
    const decision = { decision: 'approved' as const, scope: 'change' as const, by: 'Ann', at: '2026-01-02T00:00:00Z', reason: null };
    recordDecisions(
      dir,
      [page, list],
      [
        {
          ...decision,
          change: encodeChange(page.change!),
          checkpoints: [
            { subject: page, whole: true },
            { subject: list, whole: false, part: encodeChange(edit) },
          ],
        },
        { ...decision, change: encodeChange(other), checkpoints: [{ subject: list, whole: false, part: encodeChange(other) }] },
      ],
    );
    const again = await subject('list', png('list-base', 300, box(20, GREY)), noisy('list-again', 300, listBoxes, 7), HOME);
    const applied = reviewApprovals(readApprovals(dir), [again]).applied[0];
    const now = parts(again.change!);
    expect(coveringDecision(applied, again.change!, now.edit)).toMatchObject({ decision: 'approved' });
    expect(coveringDecision(applied, again.change!, now.other)).toMatchObject({ decision: 'approved' });
  });
});

describe('recordDecisions', () => {
  it('writes one line for a whole group, and replaces an older decision on the same change', async () => {
    const base = png('base', 120, box(20, GREY));
    const contact = await subject('contact', base, png('current', 120, box(20, BLUE)));
    const hero = await subject('hero', png('home-base', 200, box(130, GREY)), png('home', 200, box(130, BLUE)), HOME);
    const request = {
      decision: 'approved' as const,
      scope: 'change' as const,
      change: encodeChange(contact.change!),
      by: 'Ann',
      at: '2026-01-02T00:00:00Z',
      reason: 'new brand colour',
    };
    const first = recordDecisions(
      dir,
      [contact, hero],
      [
        {
          ...request,
          checkpoints: [
            { subject: contact, whole: true },
            { subject: hero, whole: true },
          ],
        },
      ],
    );
    expect(first).toMatchObject({ written: true, replaced: [], dropped: [] });
    const text = fs.readFileSync(path.join(dir, APPROVALS_FILE), 'utf8');
    const lines = text.split('\n');
    expect(lines.filter((line) => line.includes('"verdict"'))).toHaveLength(1);
    expect(lines[3]).toMatch(
      /^ {4}\{"verdict":"approved","scope":"change","checkpoints":\[\{"test":"site\.spec\.ts › site › about","checkpoint":"contact",.*\{"test":"site\.spec\.ts › site › home","checkpoint":"hero",.*"reason":"new brand colour","change":"v1 t0\.1 m100x40c2:/,
    );

    const rejected = recordDecisions(
      dir,
      [contact, hero],
      [
        {
          ...request,
          decision: 'rejected',
          at: '2026-01-03T00:00:00Z',
          checkpoints: [
            { subject: contact, whole: true },
            { subject: hero, whole: true },
          ],
        },
      ],
    );
    expect(rejected.replaced.map((r) => r.checkpoint.checkpoint)).toEqual(['contact', 'hero']);
    expect(readApprovals(dir).map((a) => a.decision)).toEqual(['rejected']);
  });
});

describe('a decision on a checkpoint that shows part of the change', () => {
  it('records the part that checkpoint showed, and applies to it there, run after run', async () => {
    const two = (rgba: Box['rgba']): Box[] => [
      ...box(20, rgba),
      { x: 120, y: 160, width: 60, height: 20, rgba: rgba === GREY ? GREY : GREEN },
    ];
    const whole = await subject('footer', png('two-base', 200, two(GREY)), png('two', 200, two(BLUE)));
    // The full page shows the first box's change only (its second box is cut off there).
    const page = await subject('page', png('page-base', 120, box(20, GREY)), png('page', 120, box(20, BLUE)), HOME);
    expect(whole.change!.regions).toHaveLength(2);
    const request = {
      decision: 'approved' as const,
      scope: 'change' as const,
      change: encodeChange(whole.change!),
      by: 'Ann',
      at: '2026-01-02T00:00:00Z',
      reason: null,
    };
    recordDecisions(
      dir,
      [whole, page],
      [
        {
          ...request,
          checkpoints: [
            { subject: whole, whole: true },
            { subject: page, whole: false },
          ],
        },
      ],
    );
    const [approved] = readApprovals(dir);
    expect(approved.checkpoints.map((c) => [c.checkpoint, typeof c.change])).toEqual([
      ['footer', 'undefined'],
      ['page', 'string'],
    ]);
    const again = await subject('page', png('page-base', 120, box(20, GREY)), noisy('page-again', 120, box(20, BLUE), 5), HOME);
    expect(classify(approved, again)).toMatchObject({ fit: 'applies', how: 'same-checkpoint' });
  });
});

describe('a decision on a change shown in two Playwright projects', () => {
  const DESKTOP_KEY = `desktop › ${ABOUT}`;
  const MOBILE_KEY = `mobile › ${ABOUT}`;
  // The same header edit: 100 px wide on the desktop page, 60 px on the mobile one.
  const header = (width: number, rgba: Box['rgba']): Box[] => [{ x: 20, y: 20, width, height: 40, rgba }];
  const desktopPair = (name: string, seed?: number) =>
    subject(
      'contact',
      png(`${name}-desktop-base`, 120, header(100, GREY)),
      seed ? noisy(`${name}-desktop`, 120, header(100, BLUE), seed) : png(`${name}-desktop`, 120, header(100, BLUE)),
      DESKTOP_KEY,
      null,
      'desktop',
    );
  const mobilePair = (name: string, seed?: number, test = MOBILE_KEY) =>
    subject(
      'contact',
      png(`${name}-mobile-base`, 120, header(60, GREY)),
      seed ? noisy(`${name}-mobile`, 120, header(60, BLUE), seed) : png(`${name}-mobile`, 120, header(60, BLUE)),
      test,
      null,
      'mobile',
    );

  async function decided(decision: 'approved' | 'rejected' = 'approved'): Promise<Approval> {
    const [desktop, mobile] = [await desktopPair('seen'), await mobilePair('seen')];
    const projects = { desktop: encodeChange(desktop.change!), mobile: encodeChange(mobile.change!) };
    const request = {
      decision,
      scope: 'change' as const,
      change: projects.desktop,
      projects,
      by: 'Ann',
      at: '2026-01-02T00:00:00Z',
      reason: null,
    };
    recordDecisions(
      dir,
      [desktop, mobile],
      [
        {
          ...request,
          checkpoints: [
            { subject: desktop, whole: true },
            { subject: mobile, whole: true },
          ],
        },
      ],
    );
    return readApprovals(dir)[0];
  }

  it("keeps what each project showed: both checkpoints whole, each project's print", async () => {
    const approved = await decided();
    expect(approved.checkpoints.map((c) => [c.test, c.change, c.baseline === null])).toEqual([
      [DESKTOP_KEY, undefined, false],
      [MOBILE_KEY, undefined, false],
    ]);
    expect(Object.keys(approved.projects!)).toEqual(['desktop', 'mobile']);
    expect(approved.projects!.mobile).toMatch(/ m60x40c/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, APPROVALS_FILE), 'utf8')).version).toBe(3);
  });

  it('applies in each project to what that project showed, run after run', async () => {
    const approved = await decided();
    expect(classify(approved, await desktopPair('again', 3))).toMatchObject({ fit: 'applies', how: 'same-checkpoint' });
    expect(classify(approved, await mobilePair('again', 4))).toMatchObject({ fit: 'applies', how: 'same-checkpoint' });
  });

  it("never lends one project's print to another: the mobile pixels on a desktop checkpoint are stale there", async () => {
    const approved = await decided();
    const desktopShowingMobile = await subject(
      'contact',
      png('odd-base', 120, header(60, GREY)),
      png('odd', 120, header(60, BLUE)),
      DESKTOP_KEY,
      null,
      'desktop',
    );
    expect(classify(approved, desktopShowingMobile)).toEqual({ fit: 'stale' });
  });

  it("on a checkpoint nobody decided it on, matches by that checkpoint's project: resembles an approval, applies a rejection", async () => {
    const elsewhere = await mobilePair('home', 6, `mobile › ${HOME}`);
    expect(classify(await decided(), elsewhere)).toEqual({ fit: 'resembles', covers: { regions: [0], lines: [] } });
    expect(classify(await decided('rejected'), elsewhere)).toMatchObject({ fit: 'applies', how: 'same-change' });
    const desktopElsewhere = await subject(
      'hero',
      png('hero-base', 120, header(60, GREY)),
      png('hero', 120, header(60, BLUE)),
      `desktop › ${HOME}`,
      null,
      'desktop',
    );
    expect(classify(await decided('rejected'), desktopElsewhere)).toEqual({ fit: 'unrelated' });
  });

  it('is taken by one approve of the group, and the review page shows one entry naming both projects, decided', async () => {
    const [desktop, mobile] = [await desktopPair('run'), await mobilePair('run')];
    const relative = (file: string) => path.relative(outputPath(settings.outputDir, 'results'), file);
    const result = (of: ApprovalSubject) =>
      checkpointResult({
        name: 'contact',
        baselineImage: relative(of.baselineImage!),
        currentImage: relative(of.currentImage!),
        diffImage: relative(of.currentImage!),
        diffMetrics: {
          pixelDiffPercent: 1,
          changedRegions: [{ x: 20, y: 20, width: of.project === 'desktop' ? 100 : 60, height: 40, kind: 'modified' }],
        },
        group: 'g1',
        fingerprint: encodeChange(of.change!),
      });
    const run = runOf([
      testResult(['site.spec.ts', 'site', 'about'], [result(desktop)], { project: 'desktop' }),
      testResult(['site.spec.ts', 'site', 'about'], [result(mobile)], { project: 'mobile' }),
    ]);
    const projects = { desktop: encodeChange(desktop.change!), mobile: encodeChange(mobile.change!) };
    run.groups = [
      {
        id: 'g1',
        fingerprint: projects.desktop,
        projects,
        members: [`${DESKTOP_KEY} › contact`, `${MOBILE_KEY} › contact`],
        alsoIn: [],
        status: 'needs_review',
        reason: '',
        evaluation: null,
        explanation: null,
      },
    ];
    fs.mkdirSync(path.dirname(outputPath(settings.outputDir, 'latestResults')), { recursive: true });
    fs.writeFileSync(outputPath(settings.outputDir, 'latestResults'), JSON.stringify(run));

    expect(await approveOrReject(settings, ['g1'], {})).toContain(
      [
        'approved: group g1 · 2 checkpoints in [desktop, mobile] (needs_review):',
        '  [desktop] › site.spec.ts › site › about › contact',
        '  [mobile] › site.spec.ts › site › about › contact',
      ].join('\n'),
    );
    // One checkpoint at a time, each is named with its project, as the run's table names it.
    expect(await approveOrReject(settings, ['contact'], { only: true, dryRun: true })).toMatch(
      /^would approve: \[desktop\] › site\.spec\.ts › site › about › contact \(needs_review\), this checkpoint only\nwould approve: \[mobile\] › site\.spec\.ts › site › about › contact \(needs_review\), this checkpoint only\n/,
    );
    const [approved] = readApprovals(settings.configDir);
    expect(approved.projects).toEqual(projects);
    expect(approved.checkpoints.map((c) => c.change)).toEqual([undefined, undefined]);

    const [entry] = reviewModel(settings).entries;
    expect(entry).toMatchObject({
      id: 'g1',
      title: '[desktop, mobile] › site.spec.ts › site › about › contact',
      decision: { decision: 'approved' },
    });
    expect(entry.checkpoints.map((c) => [c.title, c.regions.map((r) => r.width)])).toEqual([
      ['[desktop] › site.spec.ts › site › about › contact', [100]],
      ['[mobile] › site.spec.ts › site › about › contact', [60]],
    ]);
  });
});

/** A latest.json whose one checkpoint has the given images, change, group and explanation. */
function writeLatestRun(of: ApprovalSubject, status: 'needs_review' | 'unchanged', explanation: Explanation | null = null): void {
  const relative = (file: string) => path.relative(outputPath(settings.outputDir, 'results'), file);
  const fingerprint = of.change ? encodeChange(of.change) : null;
  const contact = checkpointResult({
    name: 'contact',
    status,
    baselineImage: relative(of.baselineImage!),
    currentImage: relative(of.currentImage!),
    diffImage: fingerprint ? relative(of.currentImage!) : null,
    diffMetrics: { pixelDiffPercent: fingerprint ? 1 : 0, changedRegions: [] },
    group: fingerprint ? 'g1' : null,
    fingerprint,
    explanation,
  });
  const run = runOf([testResult(['site.spec.ts', 'site', 'about'], [contact])]);
  if (fingerprint)
    run.groups = [
      { id: 'g1', fingerprint, members: [`${ABOUT} › contact`], alsoIn: [], status, reason: '', evaluation: null, explanation: null },
    ];
  fs.mkdirSync(path.dirname(outputPath(settings.outputDir, 'latestResults')), { recursive: true });
  fs.writeFileSync(outputPath(settings.outputDir, 'latestResults'), JSON.stringify(run));
}

describe('the run and approve --prune agree', () => {
  it('an approval whose baseline moved while the current image stayed is stale for both, and --prune drops it', async () => {
    const current = png('current', 120, box(20, BLUE));
    const approved = approval(await subject('contact', png('old-base', 120, box(20, GREY)), current));
    writeApprovals(settings.configDir, [approved]);
    // The base now has the current page: nothing changed, the approved change is gone.
    const moved = await subject('contact', png('new-base', 120, box(20, BLUE)), current);
    writeLatestRun(moved, 'unchanged');

    expect(reviewApprovals([approved], [moved]).stale).toEqual([{ approval: approved, checkpoint: approved.checkpoints[0] }]);
    expect(await report(settings, false)).toContain(
      `stale approval ignored: ${ABOUT} › contact no longer shows the approved change; npx visual-uat approve --prune drops it`,
    );
    const pruned = await approveOrReject(settings, [], { prune: true });
    expect(pruned).toContain(`dropped stale approval: ${ABOUT} › contact (no longer shows the approved change)`);
    expect(readApprovals(settings.configDir)).toEqual([]);
  });

  it('keeps an approval that still applies (noise and all), and one for a checkpoint the run did not take', async () => {
    const base = png('base', 120, box(20, GREY));
    const applying = approval(await subject('contact', base, noisy('current', 120, box(20, BLUE), 1)));
    const elsewhere = {
      ...applying,
      scope: 'checkpoints' as const,
      checkpoints: [{ ...applying.checkpoints[0], test: 'other.spec.ts › other' }],
    };
    writeApprovals(settings.configDir, [applying, elsewhere]);
    writeLatestRun(await subject('contact', base, noisy('rerun', 120, box(20, BLUE), 2)), 'needs_review');
    expect(await approveOrReject(settings, [], { prune: true })).toContain('nothing changed in');
    expect(readApprovals(settings.configDir)).toHaveLength(2);
    expect(await report(settings, false)).toContain('1 checkpoint approved earlier');
  });

  it('a checkpoint the run did not capture (its test failed) never makes an approval stale, and --prune keeps it', async () => {
    const approved = approval(await subject('contact', png('base', 120, box(20, GREY)), png('current', 120, box(20, BLUE))));
    writeApprovals(settings.configDir, [approved]);
    const notCaptured: ApprovalSubject = {
      test: ABOUT,
      project: '',
      checkpoint: 'contact',
      baselineImage: png('base', 120, box(20, GREY)),
      currentImage: null,
      change: null,
    };
    expect(classify(approved, notCaptured)).toEqual({ fit: 'not-compared' });
    expect(reviewApprovals([approved], [notCaptured]).stale).toEqual([]);
    const relative = (file: string) => path.relative(outputPath(settings.outputDir, 'results'), file);
    const missing = checkpointResult({
      name: 'contact',
      status: 'missing',
      reason: 'in the baseline only: the current run did not capture it',
      baselineImage: relative(notCaptured.baselineImage!),
      currentImage: null,
    });
    fs.mkdirSync(path.dirname(outputPath(settings.outputDir, 'latestResults')), { recursive: true });
    fs.writeFileSync(
      outputPath(settings.outputDir, 'latestResults'),
      JSON.stringify(runOf([testResult(['site.spec.ts', 'site', 'about'], [missing])])),
    );
    expect(await report(settings, false)).not.toContain('stale');
    expect(await approveOrReject(settings, [], { prune: true })).toContain('nothing changed in');
    expect(readApprovals(settings.configDir)).toEqual([approved]);
  });

  it('a new approval replaces the older one of the same checkpoint', async () => {
    const older = approval(await subject('contact', png('old-base', 120, box(20, GREY)), png('current', 120, box(20, BLUE))));
    writeApprovals(settings.configDir, [older]);
    const now = await subject('contact', png('new-base', 120, box(20, GREEN)), png('current', 120, box(20, BLUE)));
    writeLatestRun(now, 'needs_review');
    const out = await approveOrReject(settings, ['about › contact'], { reason: 'the new base is right' });
    expect(out).toContain(`approved: site.spec.ts › site › about › contact (needs_review)`);
    const [only, ...rest] = readApprovals(settings.configDir);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      decision: 'approved',
      scope: 'change',
      checkpoints: [{ test: ABOUT, checkpoint: 'contact' }],
      reason: 'the new base is right',
    });
    expect(classify(only, now)).toMatchObject({ fit: 'applies', how: 'same-images' });
  });

  it('an approval of a checkpoint whose words left regions unexplained says so, in the approvals file and in what approve prints', async () => {
    const now = await subject('contact', png('base', 120, box(20, GREY)), png('current', 120, box(20, BLUE)));
    const regions = [
      { x: 0, y: 0, width: 20, height: 20, kind: 'modified' as const },
      { x: 40, y: 60, width: 30, height: 10, kind: 'modified' as const },
    ];
    const tags = {
      kind: 'removed' as const,
      element: '.tags',
      path: 'html>body>div.tags',
      box: { x: 0, y: 0, width: 20, height: 20 },
      properties: [],
      cause: null,
      words: '.tags removed (20×20) — no changed file mentions this element',
      regions: [0],
    };
    writeLatestRun(now, 'needs_review', { changes: [tags], summary: tags.words, note: null, unexplained: [regions[1]], regionCount: 2 });
    const out = await approveOrReject(settings, ['about › contact'], {});
    const words = '1 of 2 changed regions not explained: at (40, 60) 30×10';
    expect(out).toContain(`note: site.spec.ts › site › about › contact: ${words}`);
    expect(readApprovals(settings.configDir)[0].checkpoints).toEqual([
      expect.objectContaining({ test: ABOUT, checkpoint: 'contact', unexplained: words }),
    ]);
    // A checkpoint whose words account for every region gets no such field.
    writeLatestRun(now, 'needs_review', { changes: [tags], summary: tags.words, note: null, unexplained: [], regionCount: 1 });
    await approveOrReject(settings, ['about › contact'], {});
    const [replaced, ...none] = readApprovals(settings.configDir);
    expect([replaced.checkpoints[0], none]).toEqual([expect.not.objectContaining({ unexplained: expect.anything() }), []]);
  });
});
