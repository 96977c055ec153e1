import { describe, expect, it } from 'vitest';
import { NO_DIFF } from '../../../src/compare';
import type { CheckpointResult } from '../../../src/report';
import type { ElementChange } from '../../../src/explain';
import type { Approval } from '../../../src/approve';
import { approvalLines, byProject, formatTable, stepSummary, summaryLines, terminalWidth, titleLines } from '../../../src/report/summary';
import { checkpointResult, runOf, testResult as test } from '../../support/results';

function checkpoint(
  name: string,
  status: CheckpointResult['status'],
  reason: string,
  pixelDiffPercent = 0,
  group: string | null = null,
  otherGroups: string[] = [],
): CheckpointResult {
  return checkpointResult({
    name,
    status,
    reason,
    baselineImage: 'b.png',
    currentImage: 'c.png',
    diffImage: pixelDiffPercent ? 'd.png' : null,
    diffMetrics: pixelDiffPercent
      ? { pixelDiffPercent, changedRegions: [{ x: 0, y: 0, width: 10, height: 10, kind: 'modified' }] }
      : NO_DIFF,
    group,
    otherGroups,
    fingerprint: group ? 'v1 t0.1' : null,
  });
}

const REASON = 'no baseline: Error: expect(locator).toBeVisible() failed: waiting for locator(".badge")';

const run = runOf([
  test(
    ['site.spec.ts', 'site', 'pricing', 'plans'],
    [checkpoint('plans', 'needs_review', 'no evaluator configured', 1.48), checkpoint('header', 'unchanged', 'identical')],
  ),
  test(
    ['marketing/landing-pages/engineering.spec.ts', 'engineering team landing page', 'hero section renders the hiring banner'],
    [checkpoint('engineering-page', 'new', REASON)],
  ),
]);

/** The columns of a table, found from its header line: where the title and the reason start. */
function columns(lines: string[]): { title: number; titleWidth: number; reason: number } {
  const reason = lines[0].indexOf('reason');
  return { title: 15, titleWidth: reason - 15 - 10, reason };
}

/** The title column's text of every row, its continuation lines joined back. */
function titles(lines: string[]): string[] {
  const { title, titleWidth } = columns(lines);
  const rows: string[] = [];
  for (const line of lines.slice(1)) {
    const text = line.slice(title, title + titleWidth).trim();
    if (line.startsWith(' '.repeat(title))) {
      if (text) rows[rows.length - 1] += ` ${text}`;
    } else rows.push(text);
  }
  return rows;
}

/** The reason column's text of every row, its continuation lines joined back. */
function reasons(lines: string[]): string[] {
  const { title, reason } = columns(lines);
  const rows: string[] = [];
  for (const line of lines.slice(1)) {
    const text = line.slice(reason).trim();
    if (line.startsWith(' '.repeat(title))) {
      if (text) rows[rows.length - 1] += ` ${text}`;
    } else rows.push(text);
  }
  return rows;
}

describe('titleLines', () => {
  it('keeps a title that fits', () => {
    expect(titleLines(['site.spec.ts', 'home'], 'landing', 40)).toEqual(['site.spec.ts › home › landing']);
  });

  it('drops the folders of the file first', () => {
    expect(titleLines(['a/b/site.spec.ts', 'home'], 'landing', 30)).toEqual(['site.spec.ts › home › landing']);
  });

  it('then wraps between parts, never cutting the title or the checkpoint name', () => {
    expect(titleLines(['site.spec.ts', 'site', 'pricing', 'plans'], 'plans', 24)).toEqual([
      'site.spec.ts › site ›',
      'pricing › plans › plans',
    ]);
  });

  it('splits a part longer than a line rather than cutting it', () => {
    const lines = titleLines(['x.spec.ts', 'a-very-long-test-title-that-goes-on'], 'cp', 16);
    expect(lines.join('')).toContain('a-very-long-test-title-that-goes-on');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(16);
  });
});

describe('formatTable', () => {
  for (const width of [80, 200]) {
    it(`at ${width} columns shows every test title and checkpoint name whole, within the width`, () => {
      const lines = formatTable(run, true, width);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
      const shown = titles(lines).join('\n');
      expect(shown).toContain('plans › plans');
      expect(shown).toMatch(/engineering team landing page › hero section renders the hiring banner › engineering-page/);
      expect(lines[1]).toMatch(/^ {2}needs_review /);
      expect(lines[1]).toMatch(/ 1\.48% no evaluator/);
    });
  }

  it('at 200 columns gives every title one line with the whole file path', () => {
    const lines = formatTable(run, true, 200);
    expect(lines[2]).toContain(
      'marketing/landing-pages/engineering.spec.ts › engineering team landing page › hero section renders the hiring banner › engineering-page',
    );
    expect(titles(lines)).toHaveLength(2);
  });

  it('at 80 columns shortens the file path before it wraps; a reason wraps in its column, never cut', () => {
    for (const width of [80, 100, 200]) {
      const lines = formatTable(run, true, width);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
      // A word longer than the column is split across lines: compared without spaces.
      const compact = (texts: string[]) => texts.map((text) => text.replace(/ /g, ''));
      expect(compact(reasons(lines))).toEqual(compact(['no evaluator configured', REASON]));
    }
    const lines = formatTable(run, true, 80);
    expect(lines.join('\n')).not.toContain('marketing/');
    expect(lines.join('\n')).toContain('engineering.spec.ts ›');
  });

  it('lists unchanged checkpoints only when asked for all', () => {
    expect(titles(formatTable(run, false, 120)).some((title) => title.includes('header'))).toBe(true);
    expect(titles(formatTable(run, true, 120)).some((title) => title.includes('header'))).toBe(false);
  });

  it("uses the terminal's width, and 100 columns when stdout is not a terminal", () => {
    expect(terminalWidth({ isTTY: true, columns: 80 })).toBe(80);
    expect(terminalWidth({ isTTY: false, columns: 80 })).toBe(100);
    expect(terminalWidth({})).toBe(100);
  });
});

describe('approvalLines', () => {
  it('counts the approvals used, the checkpoints that only resemble one, the rejected, and names each stale one with the way to drop it', () => {
    const checkpoint = { test: 'site.spec.ts › site › about', checkpoint: 'contact', baseline: 'b', current: 'c' };
    const approval: Approval = {
      decision: 'approved',
      scope: 'change',
      checkpoints: [checkpoint],
      by: 'me',
      at: '2025-01-01',
      reason: null,
      change: '',
    };
    expect(approvalLines({ applied: 3, resembling: 1, rejected: 1, stale: [{ approval, checkpoint }] })).toEqual([
      '  3 checkpoints approved earlier (visual-uat.approvals.json)',
      '  1 checkpoint shows a change approved on other checkpoints only: an approval covers what was seen, so a person must look',
      '  1 checkpoint rejected earlier (visual-uat.approvals.json): a regression until the change is gone',
      '  stale approval ignored: site.spec.ts › site › about › contact no longer shows the approved change; npx visual-uat approve --prune drops it',
    ]);
    expect(approvalLines({ applied: 0, resembling: 0, rejected: 0, stale: [] })).toEqual([]);
  });

  it('names a checkpoint two stale decisions were on once', () => {
    const checkpoint = { test: 'mobile › site.spec.ts › about', checkpoint: 'contact', baseline: 'b', current: 'c' };
    const approval: Approval = {
      decision: 'approved',
      scope: 'change',
      checkpoints: [checkpoint],
      by: 'me',
      at: '2025-01-01',
      reason: null,
      change: '',
    };
    const lines = approvalLines({
      applied: 0,
      resembling: 0,
      rejected: 0,
      stale: [
        { approval, checkpoint },
        { approval: { ...approval, at: '2025-02-01' }, checkpoint },
      ],
    });
    expect(lines).toEqual([
      '  stale approval ignored: mobile › site.spec.ts › about › contact no longer shows the approved change; npx visual-uat approve --prune drops it',
    ]);
  });
});

describe('groups in the table and the step summary', () => {
  const footer = (_page: string, others: string[] = []) =>
    checkpoint(
      'full',
      'needs_review',
      'no evaluator configured — same change as 2 other checkpoints (group g1)',
      2.5,
      others.length ? 'g2' : 'g1',
      others,
    );
  const grouped = runOf([
    test(['site.spec.ts', 'home'], [footer('home')]),
    test(['site.spec.ts', 'about'], [footer('about')]),
    test(['site.spec.ts', 'pricing'], [footer('pricing', ['g1'])]),
    test(['site.spec.ts', 'plans'], [checkpoint('plans', 'new', 'no baseline: the base version does not take this checkpoint')]),
  ]);
  grouped.groups = [
    {
      id: 'g1',
      fingerprint: 'v1 t0.1',
      members: ['site.spec.ts › home › full', 'site.spec.ts › about › full'],
      alsoIn: ['site.spec.ts › pricing › full'],
      status: 'needs_review',
      reason: 'no evaluator configured',
      evaluation: null,
      explanation: null,
    },
    {
      id: 'g2',
      fingerprint: 'v1 t0.1',
      members: ['site.spec.ts › pricing › full'],
      alsoIn: [],
      status: 'needs_review',
      reason: 'no evaluator configured',
      evaluation: null,
      explanation: null,
    },
  ];

  it('prints one line per group with its checkpoint count, then the single checkpoints', () => {
    expect(titles(formatTable(grouped, true, 120))).toEqual([
      expect.stringMatching(/^group g1 · 3 checkpoints/),
      expect.stringContaining('site.spec.ts › pricing › full'),
      expect.stringContaining('site.spec.ts › plans › plans'),
    ]);
    expect(formatTable(grouped, true, 120)[1]).toMatch(/^ {2}needs_review group g1 · 3 checkpoints +no evaluator configured$/);
  });

  it("names a group's checkpoints under its row, the first four, its members before those it is also in", () => {
    const lines = formatTable(grouped, true, 120);
    expect(lines[2]).toBe(
      '                 on site.spec.ts › home › full, site.spec.ts › about › full; also on site.spec.ts › pricing › full',
    );
    const many = {
      ...grouped,
      groups: [{ ...grouped.groups[0], members: ['a › 1', 'a › 2', 'a › 3', 'a › 4', 'a › 5'], alsoIn: ['a › 6'] }, grouped.groups[1]],
    };
    expect(formatTable(many, true, 120)[2]).toBe('                 on a › 1, a › 2, a › 3, a › 4, and 1 more; also on a › 6');
    // A group whose every checkpoint's own change is another row's: named plainly, no empty list.
    const onlyAlso = { ...grouped, groups: [{ ...grouped.groups[0], members: [], alsoIn: ['a › 1', 'a › 2'] }, grouped.groups[1]] };
    expect(formatTable(onlyAlso, true, 120)[2]).toBe('                 on a › 1, a › 2');
  });

  it('does the same in the GitHub step summary, naming the members', () => {
    const summary = stepSummary(grouped);
    expect(summary).toContain(
      '| needs_review | group g1 · 3 checkpoints: site.spec.ts › home › full, site.spec.ts › about › full, site.spec.ts › pricing › full | | no evaluator configured |',
    );
    expect(summary).toContain('| needs_review | site.spec.ts › pricing › full | 2.50% |');
    expect(summary).not.toContain('| needs_review | site.spec.ts › home › full |');
  });
});

describe('a group seen in several Playwright projects', () => {
  const header = checkpoint(
    'page',
    'needs_review',
    'no evaluator configured — same change as 1 other checkpoint (group g1, in [desktop, mobile])',
    3.2,
    'g1',
  );
  const across = runOf([
    test(['site.spec.ts', 'home'], [header], { project: 'desktop' }),
    test(['site.spec.ts', 'home'], [header], { project: 'mobile' }),
  ]);
  across.groups = [
    {
      id: 'g1',
      fingerprint: 'v1 t0.1',
      projects: { desktop: 'v1 t0.1', mobile: 'v1 t0.1' },
      members: ['desktop › site.spec.ts › home › page', 'mobile › site.spec.ts › home › page'],
      alsoIn: [],
      status: 'needs_review',
      reason: 'no evaluator configured',
      evaluation: null,
      explanation: null,
    },
  ];

  it('is one row naming its projects, its checkpoint named once with them', () => {
    const lines = formatTable(across, true, 120);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}needs_review group g1 · 2 checkpoints in \[desktop, mobile\] +no evaluator configured$/),
      '                 on [desktop, mobile] › site.spec.ts › home › page',
    ]);
    expect(stepSummary(across)).toContain(
      '| needs_review | group g1 · 2 checkpoints in [desktop, mobile]: [desktop, mobile] › site.spec.ts › home › page | |',
    );
  });

  it('wraps a group title too long for its column between words, never cutting a project name', () => {
    const named = {
      ...across,
      groups: [{ ...across.groups[0], projects: { 'Mobile Chrome': 'v1 t0.1', chromium: 'v1 t0.1', 'Desktop Safari': 'v1 t0.1' } }],
    };
    const lines = formatTable(named, true, 60);
    expect(lines.join('\n')).not.toContain('…');
    expect(lines.slice(0, 6)).toEqual([
      '  status       test › checkpoint  changed reason',
      '  needs_review group g1 · 2               no evaluator',
      '               checkpoints in             configured',
      '               [Mobile Chrome,',
      '               chromium, Desktop',
      '               Safari]',
    ]);
    expect(lines.every((line) => line.length <= 60)).toBe(true);
  });

  it('shows a member of a group once, under its group, though it also shows another group', () => {
    const about = checkpoint('page', 'needs_review', 'no evaluator configured', 1.1, 'g2');
    const withOther = runOf([
      test(['site.spec.ts', 'home'], [{ ...header, otherGroups: ['g2'] }], { project: 'desktop' }),
      test(['site.spec.ts', 'home'], [header], { project: 'mobile' }),
      test(['site.spec.ts', 'about'], [about], { project: 'desktop' }),
    ]);
    withOther.groups = [
      ...across.groups,
      {
        ...across.groups[0],
        id: 'g2',
        projects: undefined,
        members: ['desktop › site.spec.ts › about › page'],
        alsoIn: ['desktop › site.spec.ts › home › page'],
      },
    ];
    const lines = formatTable(withOther, true, 120);
    expect(lines.filter((line) => line.includes('site.spec.ts › home › page'))).toEqual([
      '                 on [desktop, mobile] › site.spec.ts › home › page',
      '                 on desktop › site.spec.ts › about › page; also on desktop › site.spec.ts › home › page',
    ]);
    expect(titles(lines)).toEqual([expect.stringMatching(/^group g1/), expect.stringMatching(/^group g2/)]);
    // Its group approved, the checkpoint only resembling that approval: its own status, its own row.
    const approvedGroup = { ...withOther, groups: [{ ...withOther.groups[0], status: 'changed' as const }, withOther.groups[1]] };
    expect(titles(formatTable(approvedGroup, true, 120))).toEqual([
      expect.stringMatching(/^group g2/),
      expect.stringMatching(/^group g1/),
      '[desktop] › site.spec.ts › home › page',
      '[mobile] › site.spec.ts › home › page',
    ]);
  });

  it("says in a checkpoint's own row only what its other group's row does not say already (one edit, one group)", () => {
    // As on a Nuxt app: the brand's text edit is group g1 on both projects; desktop's capture also
    // holds the dev tools' overlay, its own change (g2), so it keeps a row of its own.
    const cause = { file: 'layouts/default.vue', commit: '4953e3a Brand', line: '<NuxtLink class="brand">' };
    const brand = (width: number): ElementChange => ({
      kind: 'changed',
      element: '.brand',
      path: 'html>body>div>header>a.brand',
      box: { x: 16, y: 12, width, height: 20 },
      properties: [],
      cause,
      words: `.brand: text 'Nuxt Site' → 'Pigs'; width 84 → ${width} px — layouts/default.vue (commit 4953e3a Brand)`,
      regions: [0],
    });
    const overlay: ElementChange = { ...brand(1280), kind: 'added', element: 'body div', path: 'html>body>div', cause: null };
    overlay.words = 'body div added (1280×720) in body — no changed file mentions this element';
    const explained = (changes: ElementChange[]) => ({
      changes,
      summary: changes.map((c) => c.words).join(' · '),
      note: null,
      unexplained: [],
      regionCount: 2,
    });
    const desktop = { ...header, group: 'g2', otherGroups: ['g1'], explanation: explained([overlay, brand(30)]) };
    const both = runOf([
      test(['site.spec.ts', 'about'], [desktop], { project: 'desktop' }),
      test(['site.spec.ts', 'about'], [{ ...header, explanation: explained([brand(29)]) }], { project: 'mobile' }),
    ]);
    both.groups = [
      { ...across.groups[0], members: ['mobile › site.spec.ts › about › page'], alsoIn: ['desktop › site.spec.ts › about › page'] },
      { ...across.groups[0], id: 'g2', projects: undefined, members: ['desktop › site.spec.ts › about › page'] },
    ];
    both.groups[0].explanation = explained([brand(29)]);
    const text = formatTable(both, true, 200).join('\n');
    expect(text.match(/\.brand: text/g)).toHaveLength(1);
    expect(text).toContain('↳ body div added (1280×720) in body');
    expect(stepSummary(both).match(/\.brand: text/g)).toHaveLength(1);
    // Its every element the group's (its pixels not the group's picture): the row says so, and names no element again.
    both.tests[0].checkpoints[0].explanation = explained([brand(30)]);
    const alike = formatTable(both, true, 200).join('\n');
    expect(alike.match(/\.brand: text/g)).toHaveLength(1);
    expect(alike).toContain('↳ the elements of group g1, in pixels of its own');
  });

  it('names apart the checkpoints only some projects show', () => {
    expect(byProject(['desktop › a › 1', 'mobile › a › 1', 'mobile › a › 2', 'desk › a › 1'], ['desk', 'desktop', 'mobile'])).toEqual([
      '[desktop, mobile, desk] › a › 1',
      '[mobile] › a › 2',
    ]);
    expect(byProject(['a › 1', 'a › 2'], [])).toEqual(['a › 1', 'a › 2']);
  });
});

describe('the explanation in the table', () => {
  it('goes on lines of its own under its row, wrapped to the width and never cut; its note when nothing could be said', () => {
    const words =
      'footer: flex-direction row → column, padding 16px 48px → 8px 48px; height 52 → 60 px — public/site.css (commit abc1234 Footer)';
    const explained = checkpointResult({
      name: 'footer',
      reason: 'no evaluator configured',
      explanation: { changes: [], summary: words, note: null, unexplained: [], regionCount: 1 },
    });
    const unexplained = checkpointResult({
      name: 'header',
      reason: 'no evaluator configured',
      explanation: { changes: [], summary: '', note: 'no layout record on the base side', unexplained: [], regionCount: 1 },
    });
    const lines = formatTable(runOf([test(['site.spec.ts', 'about'], [explained, unexplained])]), true, 100);
    const wrapped = lines.slice(
      2,
      lines.findIndex((line) => line.includes('header')),
    );
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped[0].startsWith('               ↳ footer: flex-direction')).toBe(true);
    for (const line of wrapped.slice(1)) expect(line).toMatch(/^ {17}\S/);
    for (const line of wrapped) expect(line.length).toBeLessThanOrEqual(100);
    expect(wrapped.map((line) => line.trim()).join(' ')).toBe(`↳ ${words}`);
    expect(lines[lines.length - 1]).toBe('               ↳ (no layout record on the base side)');
    expect(stepSummary(runOf([test(['site.spec.ts', 'about'], [explained])]))).toContain(`no evaluator configured — ${words}`);
  });

  it('names the changed regions the words do not explain on a line of their own, and in the job summary', () => {
    const words = '.tags-container removed (1200×40) — no changed file mentions this element';
    const unexplained = [
      { x: 0, y: 140, width: 400, height: 200 },
      { x: 1100, y: 692, width: 120, height: 18 },
    ];
    const home = checkpointResult({
      name: 'home',
      reason: 'no evaluator configured',
      explanation: { changes: [], summary: words, note: null, unexplained, regionCount: 3 },
    });
    const run = runOf([test(['site.spec.ts', 'home'], [home])]);
    const regions = '2 of 3 changed regions not explained: at (0, 140) 400×200, (1100, 692) 120×18';
    expect(formatTable(run, true, 160).slice(-2)).toEqual([`               ↳ ${words}`, `               ↳ ${regions}`]);
    expect(stepSummary(run)).toContain(`no evaluator configured — ${words} — ${regions} |`);
  });
});

describe('a run on the base itself', () => {
  const taken = runOf([
    test(
      ['site.spec.ts', 'home'],
      [checkpointResult({ name: 'landing', status: 'unchanged', reason: 'base and current are the same commit with a clean tree' })],
    ),
  ]);
  const paths = {
    results: '.visual-uat/results/latest.json',
    report: null,
    approvals: { applied: 0, resembling: 0, rejected: 0, stale: [] },
  };

  it('says its checkpoints were taken, not that they are unchanged', () => {
    expect(summaryLines(taken, { ...paths, onBase: 'main @ 1a2b3c4d' })[0]).toBe(
      'visual-uat: 1 checkpoint taken on the base itself (main @ 1a2b3c4d, clean tree): nothing compared',
    );
    expect(stepSummary(taken, 'main @ 1a2b3c4d')).toContain(
      '**1 checkpoint taken on the base itself (main @ 1a2b3c4d, clean tree): nothing compared**\n',
    );
    expect(summaryLines(taken, paths)[0]).toBe('visual-uat: 1 checkpoint: 1 unchanged');
  });

  it('says how many unchanged checkpoints changed within their pixel allowance, and by how much at most', () => {
    const allowed = runOf([
      test(['about.spec.ts', 'about'], [checkpoint('about', 'unchanged', 'within tolerance', 0.07)]),
      test(['now.spec.ts', 'now'], [checkpoint('now', 'unchanged', 'within tolerance', 0.15)]),
      test(['ld.spec.ts', 'ld'], [checkpoint('ld', 'unchanged', 'identical')]),
      test(['index.spec.ts', 'homepage'], [checkpoint('homepage', 'needs_review', 'no evaluator configured', 3.52)]),
    ]);
    expect(summaryLines(allowed, paths)[0]).toBe(
      'visual-uat: 4 checkpoints: 1 needs_review, 3 unchanged (2 of them changed within maxDiffPixels or maxDiffPixelRatio, up to 0.15 % of their pixels)',
    );
  });

  it('says a run in which no test took a checkpoint compared nothing', () => {
    expect(summaryLines(runOf([]), paths)[0]).toBe('visual-uat: no test took a checkpoint: nothing compared');
    expect(stepSummary(runOf([]))).toContain('**no test took a checkpoint: nothing compared**');
  });
});
