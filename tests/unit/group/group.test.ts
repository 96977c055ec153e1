import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareImages, decodeChange, encodeChange, sameChange, withAriaLines, type ChangePrint } from '../../../src/compare';
import { groupChanges } from '../../../src/group';
import { writeNoisyPng, writePng, type Box } from '../../support/png';

/**
 * Changes across a run's checkpoints: the same change wherever it is on the page is one group;
 * noise below the threshold never splits one; two different changes never share one.
 */

const GREY: Box['rgba'] = [200, 200, 200, 255];
const BLUE: Box['rgba'] = [30, 90, 220, 255];
const GREEN: Box['rgba'] = [0, 160, 60, 255];
const DARK: Box['rgba'] = [20, 20, 20, 255];

let dir: string;
let count = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-group-'));
});

interface Page {
  height: number;
  base: Box[];
  current: Box[];
  noise?: number;
}

/** A page's pair through the product's own diff engine: its change. */
async function changeOf(page: Page, ariaDiff: string | null = null): Promise<ChangePrint> {
  const n = count++;
  const baseline = writePng(path.join(dir, `${n}-base.png`), 320, page.height, page.base);
  const current = page.noise
    ? writeNoisyPng(path.join(dir, `${n}-current.png`), 320, page.height, page.current, page.noise)
    : writePng(path.join(dir, `${n}-current.png`), 320, page.height, page.current);
  const outcome = await compareImages({
    baseline,
    current,
    diffOutput: path.join(dir, `${n}-diff.png`),
    tolerance: { threshold: 0.1, maxDiffPixels: 0, maxDiffPixelRatio: 0 },
  });
  if (outcome.kind !== 'different') throw new Error(`page ${n} did not differ`);
  return withAriaLines(outcome.change, ariaDiff);
}

/** A page with a footer at `y`: grey in the base, `colour` now; text (dark bars) above it stays. */
function footerPage(y: number, colour: Box['rgba'], height = y + 60, noise?: number): Page {
  const text: Box[] = [{ x: 10, y: 10, width: 200, height: 12, rgba: DARK }];
  return {
    height,
    base: [...text, { x: 0, y, width: 320, height: 40, rgba: GREY }],
    current: [...text, { x: 0, y, width: 320, height: 40, rgba: colour }],
    noise,
  };
}

describe('the change fingerprint', () => {
  it('survives its text form, and refuses text that is not one', async () => {
    const change = await changeOf(footerPage(100, BLUE), '@@ -1 +1 @@\n-  - contentinfo: © 2024\n+  - contentinfo: © 2025');
    const text = encodeChange(change);
    expect(text).toMatch(/^v1 t0\.1 m320x40c4:[A-Za-z0-9_-]+ l[A-Za-z0-9_-]+ l[A-Za-z0-9_-]+$/);
    expect(decodeChange(text)).toEqual(change);
    expect(change.lines).toEqual(['+- contentinfo: © 2025', '-- contentinfo: © 2024']);
    for (const broken of ['', 'v1', 'v2 t0.1', 'v1 t0.1 m10x10c1:AAAA', 'v1 t0.1 q1x1c1:', 'v1 tx'])
      expect(decodeChange(broken)).toBeNull();
  });
});

describe('groupChanges', () => {
  it('puts the same footer change at three heights on three pages in one group', async () => {
    const changes = [await changeOf(footerPage(100, BLUE)), await changeOf(footerPage(700, BLUE)), await changeOf(footerPage(1500, BLUE))];
    const { groups, groupsOf } = groupChanges([null, ...changes]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ id: 'g1', members: [1, 2, 3], alsoIn: [], representative: 1 });
    expect(groupsOf).toEqual([[], ['g1'], ['g1'], ['g1']]);
  });

  it('is not split by noise below the threshold, on every page', async () => {
    const changes = await Promise.all([11, 12, 13, 14, 15].map((seed, i) => changeOf(footerPage(100 + 200 * i, BLUE, undefined, seed))));
    expect(new Set(changes.map(encodeChange)).size).toBeGreaterThan(1);
    expect(groupChanges(changes).groups.map((g) => g.members)).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('never merges two different changes of the same size: another colour, other text', async () => {
    const blue = await changeOf(footerPage(100, BLUE));
    const green = await changeOf(footerPage(100, GREEN));
    const retexted = await changeOf(footerPage(100, BLUE), '@@ -1 +1 @@\n-- paragraph: Contact\n+- paragraph: Write to us');
    expect(sameChange(blue, green)).toBe(false);
    expect(sameChange(blue, retexted)).toBe(false);
    // The text edit is a change of its own: the third page shows the blue change and it.
    const { groups, groupsOf } = groupChanges([blue, green, retexted]);
    expect(groups.map((g) => [g.id, g.members, g.alsoIn])).toEqual([
      ['g1', [0, 2], []],
      ['g2', [1], []],
      ['g3', [], [2]],
    ]);
    expect(groupsOf[2]).toEqual(['g1', 'g3']);
  });

  it('makes a change of two regions that always come together one change', async () => {
    const header = (height: number): Page => ({
      height,
      base: [
        { x: 10, y: 10, width: 40, height: 30, rgba: GREY },
        { x: 200, y: 10, width: 100, height: 20, rgba: GREY },
      ],
      current: [
        { x: 10, y: 10, width: 40, height: 30, rgba: BLUE },
        { x: 200, y: 10, width: 100, height: 20, rgba: GREEN },
      ],
    });
    const changes = [await changeOf(header(200)), await changeOf(header(400))];
    expect(changes[0].regions).toHaveLength(2);
    const { groups } = groupChanges(changes);
    expect(groups).toHaveLength(1);
    expect(groups[0].change.regions).toHaveLength(2);
  });

  it('groups 40 pages sharing a header change plus 2 unrelated larger changes into exactly 3 groups', async () => {
    const header: Box = { x: 10, y: 10, width: 120, height: 24, rgba: BLUE };
    const headerBase: Box = { ...header, rgba: GREY };
    const pages: Page[] = Array.from({ length: 40 }, (_, n) => ({ height: 300 + 10 * n, base: [headerBase], current: [header] }));
    pages[7] = { ...pages[7], base: [headerBase], current: [header, { x: 0, y: 120, width: 320, height: 80, rgba: GREEN }] };
    pages[23] = {
      ...pages[23],
      base: [headerBase, { x: 20, y: 150, width: 200, height: 100, rgba: GREY }],
      current: [header, { x: 20, y: 150, width: 200, height: 100, rgba: DARK }],
    };
    const changes = await Promise.all(pages.map((page) => changeOf(page)));
    const { groups, groupsOf } = groupChanges(changes);
    expect(groups.map((g) => [g.id, g.members.length, g.alsoIn])).toEqual([
      ['g1', 38, [7, 23]],
      ['g2', 1, []],
      ['g3', 1, []],
    ]);
    expect(groupsOf[7]).toEqual([groups.find((g) => g.members.includes(7))!.id, 'g1']);
    expect(groups[0].representative).toBe(0);
  });
});

/** A region's print with flat sides: `level` is the grey of its current side (the base is white). */
function flatRegion(kind: 'modified' | 'added', width: number, height: number, level: number): ChangePrint['regions'][number] {
  const cell = Math.max(1, Math.ceil(Math.sqrt((width * height) / 1024)));
  const side = (value: number) => new Uint8Array(Math.ceil(width / cell) * Math.ceil(height / cell) * 3).fill(value);
  return { kind, width, height, cell, base: kind === 'added' ? null : side(255), current: side(level) };
}

function print(...regions: ChangePrint['regions']): ChangePrint {
  return { threshold: 0.1, regions, lines: [] };
}

describe('groupChanges follows what a person sees', () => {
  // The footer's CSS change as the region finder cuts it: an added strip and two moved text boxes.
  const strip = () => flatRegion('added', 1280, 8, 40);
  const copyright = () => flatRegion('modified', 180, 18, 90);
  const madeIn = () => flatRegion('modified', 120, 18, 60);
  const banner = () => flatRegion('added', 1280, 96, 200);

  it('makes a footer change of three regions on four footers one group, the full home page that also shows a banner "also in" it', () => {
    const footer = () => print(strip(), copyright(), madeIn());
    // The full page shows the footer's text boxes; its strip is cut into the page's other rows.
    const home = print(banner(), copyright(), madeIn());
    const { groups, groupsOf } = groupChanges([home, footer(), footer(), footer(), footer()]);
    expect(groups.map((g) => [g.id, g.members, g.alsoIn])).toEqual([
      ['g1', [1, 2, 3, 4], [0]],
      ['g2', [0], []],
    ]);
    expect(groups[0].change.regions).toHaveLength(3);
    expect(groupsOf[0]).toEqual(['g2', 'g1']);
  });

  it('never makes more groups than changed checkpoints, and gives every region of a checkpoint to one of its groups', () => {
    const kinds = [strip, copyright, madeIn, banner, () => flatRegion('modified', 300, 200, 10), () => flatRegion('added', 40, 40, 120)];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 50; run++) {
      const changes = Array.from({ length: 8 }, () => {
        const regions = kinds.filter(() => random() < 0.4).map((make) => make());
        return regions.length ? print(...regions) : null;
      });
      const { groups, partsOf } = groupChanges(changes);
      expect(groups.length).toBeLessThanOrEqual(changes.filter(Boolean).length);
      changes.forEach((change, i) => {
        if (!change) return;
        const given = [...partsOf[i].values()].flatMap((part) => part.regions);
        expect(given).toHaveLength(change.regions.length);
        expect(change.regions.every((region) => given.includes(region))).toBe(true);
      });
    }
  });
});

describe('sameChange on thin regions', () => {
  it('never matches two regions that share no whole cell', () => {
    const line = (height: number, level: number): ChangePrint => {
      const cells = (value: number) => new Uint8Array(Math.ceil(2000 / 2) * Math.ceil(height / 2) * 3).fill(value);
      return {
        threshold: 0.1,
        regions: [{ kind: 'modified', width: 2000, height, cell: 2, base: cells(255), current: cells(level) }],
        lines: [],
      };
    };
    expect(sameChange(line(1, 0), line(2, 200))).toBe(false);
    expect(sameChange(line(1, 0), line(1, 0))).toBe(true);
  });
});
