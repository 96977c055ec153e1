import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, visualUatCli } from '../../scripts/fixture-repo';
import { reply, startFakeOpenAI, userTextOf, type FakeOpenAI } from '../support/fake-openai';
import { runPlaywrightAsync } from '../support/playwright-run';
import { gateExit, readLatest } from '../support/results';

/**
 * One change across projects is one decision: the viewports-app runs its one test in a desktop
 * (1280×720) and a mobile (390×844) project, and its branch changes the header's colour. The two
 * captures differ in pixels (the header is 1280 px wide on one, 390 px on the other) and have the
 * same words: one group covering both projects, judged with one call, settled by one approval.
 */

const API_KEY = 'sk-e2e-viewports-5d2e91';
const MEMBERS = ['desktop › site.spec.ts › home › page', 'mobile › site.spec.ts › home › page'];

function approvalsOf(repo: string): {
  version: number;
  approvals: {
    checkpoints: { test: string; baseline: string | null; change?: string }[];
    change: string;
    projects?: Record<string, string>;
  }[];
} {
  return JSON.parse(fs.readFileSync(path.join(repo, 'visual-uat.approvals.json'), 'utf8'));
}

test.describe('the same header change in a desktop and a mobile project', () => {
  test.describe.configure({ mode: 'serial' });
  let server: FakeOpenAI;
  let repo: string;

  test.beforeAll(async () => {
    server = await startFakeOpenAI({
      responder: () =>
        reply.verdict({
          pass: true,
          confidence: 0.9,
          needsReview: true,
          reason: 'The header is green now; a person should confirm the brand colour.',
        }),
    });
    repo = createFixtureRepo({ fixture: 'viewports-app' });
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('is one group covering both projects, judged with one call, its verdict on both', async () => {
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    const results = readLatest(repo);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(results));
    expect(server.completions()).toHaveLength(1);
    expect(results.evaluator).toMatchObject({ calls: 1 });

    const [desktop, mobile] = ['desktop', 'mobile'].map((project) => results.tests.find((t) => t.project === project)!.checkpoints[0]);
    // Other pixels: the two fingerprints differ; the same words.
    expect(desktop.fingerprint).not.toBe(mobile.fingerprint);
    expect(desktop.explanation!.summary).toBe(mobile.explanation!.summary);
    expect(results.commits[0]).toMatch(/ Header in the brand's green$/);
    expect(desktop.explanation!.summary).toBe(
      `header: background-color #14213d → #0b6e4f — public/styles.css (commit ${results.commits[0]})`,
    );
    expect(results.groups).toHaveLength(1);
    expect(results.groups[0]).toMatchObject({
      id: 'g1',
      members: MEMBERS,
      alsoIn: [],
      status: 'needs_review',
      projects: { desktop: desktop.fingerprint, mobile: mobile.fingerprint },
    });
    for (const checkpoint of [desktop, mobile]) {
      expect(checkpoint).toMatchObject({ status: 'needs_review', group: 'g1', otherGroups: [] });
      expect(checkpoint.reason).toBe(
        'The header is green now; a person should confirm the brand colour. — same change as 1 other checkpoint (group g1, in [desktop, mobile])',
      );
    }
    expect(userTextOf(server.completions()[0])).toContain(
      'Those checkpoints are in the Playwright projects desktop, mobile (other viewports): the same elements changed the same way in each; these images are from desktop.',
    );
    // One row for the group, its one checkpoint named once with both projects.
    expect(run.stdout).toMatch(/\n {2}needs_review group g1 · 2 checkpoints in \[desktop, mobile\] +The header is green now/);
    expect(run.stdout).toMatch(/\n {17}on \[desktop, mobile\] › site\.spec\.ts › home › page\n/);
    expect(run.stdout).not.toMatch(/\n {2}needs_review \[(desktop|mobile)\] › /);
  });

  test("the HTML report names the group and its projects on each project's test", async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'home' }).first().click();
    await expect(page.getByTestId('test-case-annotations')).toContainText(
      'same change as 1 other checkpoint (group g1, in [desktop, mobile])',
    );
  });

  test('one approval of the group settles it in both projects, each on what it showed; the next run is green without a call', async () => {
    const approved = spawnSync(process.execPath, [visualUatCli(repo), 'approve', 'g1', '--reason', 'brand green'], {
      cwd: repo,
      env: fixtureEnv(),
      encoding: 'utf8',
    });
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(
      [
        'approved: group g1 · 2 checkpoints in [desktop, mobile] (needs_review):',
        '  [desktop] › site.spec.ts › home › page',
        '  [mobile] › site.spec.ts › home › page',
      ].join('\n'),
    );
    const file = approvalsOf(repo);
    expect(file.version).toBe(3);
    expect(file.approvals).toHaveLength(1);
    const [approval] = file.approvals;
    const results = readLatest(repo);
    expect(approval.projects).toEqual(results.groups[0].projects);
    // Each checkpoint approved whole, on its own images: no part of another project's print.
    expect(approval.checkpoints.map((c) => [c.test, c.baseline !== null, c.change])).toEqual([
      ['desktop › site.spec.ts › home', true, undefined],
      ['mobile › site.spec.ts › home', true, undefined],
    ]);

    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const again = readLatest(repo);
    expect(again.tests.map((t) => [t.project, t.status, t.checkpoints[0].status])).toEqual([
      ['desktop', 'passed', 'changed'],
      ['mobile', 'passed', 'changed'],
    ]);
    expect(again.tests[1].checkpoints[0].reason).toMatch(
      /^approved by .* on \d{4}-\d\d-\d\d: brand green — same change as 1 other checkpoint \(group g1, in \[desktop, mobile\]\)$/,
    );
    expect(server.completions()).toHaveLength(1);
    expect(run.stdout).toContain('2 checkpoints approved earlier (visual-uat.approvals.json)');
  });
});

/**
 * One edit, one group, though a checkpoint also shows what no words explain: the mobile layout
 * shows a badge picture the desktop one hides, and a later commit replaced that picture under the
 * same path (its element is unchanged, so its region is explained by no element). The header's
 * edit is still one group across both projects.
 */
test.describe('the header change in two projects, and a picture replaced on mobile only', () => {
  const badge = (fill: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48"><circle cx="24" cy="24" r="22" fill="${fill}"/></svg>\n`;

  test('the header edit is one group over both projects; the picture is a region no element explains', async () => {
    const repo = createFixtureRepo({
      fixture: 'viewports-app',
      prepare: (dir) => {
        fs.writeFileSync(path.join(dir, 'public', 'badge.svg'), badge('#e4572e'));
        const index = path.join(dir, 'public', 'index.html');
        fs.writeFileSync(
          index,
          fs
            .readFileSync(index, 'utf8')
            .replace('</head>', '<style>.badge { display: none; } @media (max-width: 600px) { .badge { display: block; } }</style></head>')
            .replace('</main>', '  <img class="badge" src="/badge.svg" alt="" width="48" height="48">\n  </main>'),
        );
      },
    });
    fs.writeFileSync(path.join(repo, 'public', 'badge.svg'), badge('#2e86ab'));
    git(repo, ['commit', '-qam', 'Badge in blue']);
    const run = await runPlaywrightAsync(repo, ['test']);
    const results = readLatest(repo);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(results));
    const [desktop, mobile] = ['desktop', 'mobile'].map((project) => results.tests.find((t) => t.project === project)!.checkpoints[0]);
    expect(desktop.explanation!.unexplained).toEqual([]);
    expect(mobile.explanation!.unexplained).toHaveLength(1);
    for (const checkpoint of [desktop, mobile])
      expect(checkpoint.explanation!.summary).toMatch(
        /^header: background-color #14213d → #0b6e4f — public\/styles\.css \(commit \w+ Header in the brand's green\)/,
      );
    expect(results.groups.map((group) => [group.id, group.members, group.alsoIn])).toEqual([['g1', MEMBERS, []]]);
  });
});
