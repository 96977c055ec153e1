import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, visualUatCli } from '../../scripts/fixture-repo';
import { reply, startFakeOpenAI, userTextOf, type FakeOpenAI } from '../support/fake-openai';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * One decision per change: the groups-app's footer changes on three pages of different lengths
 * (so at three heights); its second commit changes the contact form's button and the news
 * headline. The same change is judged once and approved once; an approval covers the checkpoints
 * it was taken on, and a checkpoint that shows the same change later needs a person, told which
 * approval it resembles.
 */

const API_KEY = 'sk-e2e-groups-3c1f0b';
const PAGES = ['home › page', 'about › page', 'pricing › page'];
const KEYS = ['site.spec.ts › home › page', 'site.spec.ts › about › page', 'site.spec.ts › pricing › page'];

function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

/** A test of the contact page as a whole: the footer change shows on it too (and, with the second commit, the button change). */
function addContactPageTest(repo: string): void {
  fs.writeFileSync(
    path.join(repo, 'tests', 'contact-page.spec.ts'),
    "import { test } from 'visual-uat';\n\ntest('contact page', async ({ page, screenshotCheckpoint }) => {\n  await page.goto('/contact');\n  await screenshotCheckpoint('page');\n});\n",
  );
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'Test the whole contact page']);
}

function approvalsOf(
  repo: string,
): { verdict: string; scope: string; checkpoints: { test: string; checkpoint: string }[]; reason: string | null }[] {
  return JSON.parse(fs.readFileSync(path.join(repo, 'visual-uat.approvals.json'), 'utf8')).approvals;
}

test.describe('a footer change on three pages, with an evaluator', () => {
  test.describe.configure({ mode: 'serial' });
  let server: FakeOpenAI;
  let repo: string;

  test.beforeAll(async () => {
    server = await startFakeOpenAI({
      responder: () => reply.verdict({ pass: true, confidence: 0.93, reason: 'The footer now uses the brand navy, as the commit says.' }),
    });
    repo = createFixtureRepo({ fixture: 'groups-app', commits: 1 });
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('is one group, judged with one call, its verdict on each page', async () => {
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    expect(server.completions()).toHaveLength(1);
    const results = readLatest(repo);
    expect(statuses(results)).toEqual({
      'home › page': 'changed',
      'about › page': 'changed',
      'pricing › page': 'changed',
      'contact › form': 'unchanged',
      'news › headline': 'unchanged',
    });
    expect(results.evaluator).toMatchObject({ calls: 1, cacheHits: 0 });
    expect(results.groups).toEqual([
      expect.objectContaining({
        id: 'g1',
        members: KEYS,
        alsoIn: [],
        status: 'changed',
        reason: 'The footer now uses the brand navy, as the commit says.',
        evaluation: expect.objectContaining({ confidence: 0.93 }),
      }),
    ]);
    for (const title of ['home', 'about', 'pricing']) {
      const { checkpoint: page } = checkpoint(results, title, 'page');
      expect(page).toMatchObject({
        group: 'g1',
        otherGroups: [],
        reason: 'The footer now uses the brand navy, as the commit says. — same change as 2 other checkpoints (group g1)',
      });
      expect(page.fingerprint).toMatch(/^v1 t0\.1 m/);
    }
    // The three footers are at three heights.
    const footers = ['home', 'about', 'pricing'].map(
      (title) => checkpoint(results, title, 'page').checkpoint.diffMetrics.changedRegions.at(-1)!.y,
    );
    expect(new Set(footers).size).toBe(3);
    expect(userTextOf(server.completions()[0])).toContain(
      'The same change appears on 3 checkpoints (group g1); these images show one of them, and your verdict applies to all of them.',
    );
    expect(run.stdout).toContain('visual-uat: evaluating 1 change on 3 checkpoints with gpt-4.1-mini');
  });

  test('the HTML report says which group each page shares', async ({ page }) => {
    await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
    await page.getByRole('link', { name: 'about' }).first().click();
    await expect(page.getByTestId('test-case-annotations')).toContainText(
      'page: The footer now uses the brand navy, as the commit says. — same change as 2 other checkpoints (group g1)',
    );
  });

  test('a run with one more page showing the same change (and a commit) asks again, once for the group', async () => {
    addContactPageTest(repo);
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    // The cached verdict was given on other commits, for three pages: the model has not seen the fourth.
    expect(server.completions()).toHaveLength(2);
    const results = readLatest(repo);
    expect(results.evaluator).toMatchObject({ calls: 1, cacheHits: 0 });
    expect(results.groups.map((g) => [g.id, g.members.length, g.status])).toEqual([['g1', 4, 'changed']]);
    expect(statuses(results)['contact page › page']).toBe('changed');
  });
});

test.describe('one approval per group', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'groups-app' });
  });

  test('the footer is one group of three checkpoints; the button and the headline are single', async () => {
    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toEqual({
      'home › page': 'needs_review',
      'about › page': 'needs_review',
      'pricing › page': 'needs_review',
      'contact › form': 'needs_review',
      'news › headline': 'needs_review',
    });
    expect(results.groups.map((g) => [g.id, g.members.length])).toEqual([
      ['g1', 3],
      ['g2', 1],
      ['g3', 1],
    ]);
    // One line for the group with its checkpoints named under it, then the single checkpoints.
    expect(run.stdout).toMatch(/\n {2}needs_review group g1 · 3 checkpoints +no evaluator configured\n {17}on [^\n]*home › page/);
    expect(run.stdout).toMatch(/\n {2}needs_review site\.spec\.ts › contact › form +[\d.]+% no evaluator configured\n/);
    expect(run.stdout).not.toMatch(/\n {2}needs_review site\.spec\.ts › home › page/);
  });

  test('--dry-run lists the group a filter names and writes nothing', () => {
    const dry = visualUat(repo, ['approve', 'about', '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      [
        'would approve: group g1 · 3 checkpoints (needs_review):',
        ...PAGES.map((p) => `  site.spec.ts › ${p}`),
        'dry run: visual-uat.approvals.json not written',
        '',
      ].join('\n'),
    );
    expect(fs.existsSync(path.join(repo, 'visual-uat.approvals.json'))).toBe(false);
  });

  test('approving one page approves its group with one approval; the next run has the three pages changed', async () => {
    const approved = visualUat(repo, ['approve', 'about', '--reason', 'new footer']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('approved: group g1 · 3 checkpoints (needs_review):');
    const approvals = approvalsOf(repo);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ verdict: 'approved', scope: 'change', reason: 'new footer' });
    expect(approvals[0].checkpoints.map((c) => `${c.test} › ${c.checkpoint}`)).toEqual([...KEYS].sort());

    const run = await runPlaywrightAsync(repo, ['test']);
    const results = readLatest(repo);
    expect(statuses(results)).toMatchObject({
      'home › page': 'changed',
      'about › page': 'changed',
      'pricing › page': 'changed',
      'contact › form': 'needs_review',
    });
    expect(checkpoint(results, 'home', 'page').checkpoint.reason).toMatch(
      /^approved by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d: new footer — same change as 2 other checkpoints \(group g1\)$/,
    );
    expect(run.stdout).toContain('3 checkpoints approved earlier (visual-uat.approvals.json)');
  });

  test('--only approves one checkpoint, and that approval does not follow its change elsewhere', async () => {
    const only = visualUat(repo, ['approve', 'contact › form', '--only']);
    expect(only.status, only.stderr).toBe(0);
    expect(only.stdout).toContain('approved: site.spec.ts › contact › form (needs_review), this checkpoint only');
    expect(approvalsOf(repo).find((a) => a.checkpoints[0].checkpoint === 'form')).toMatchObject({ scope: 'checkpoints' });

    // The whole contact page shows the footer (approved for its group) and the button (approved on the form only).
    addContactPageTest(repo);
    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toMatchObject({ 'contact › form': 'changed', 'contact page › page': 'needs_review' });
    const { checkpoint: contactPage } = checkpoint(results, 'contact page', 'page');
    expect(contactPage.group).toBe('g1');
    expect(contactPage.otherGroups).toHaveLength(1);
    // The footer approved on three pages is not approved on a fourth nobody looked at: it names the approval it resembles.
    expect(contactPage.reason).toMatch(
      /^same as the change approved in site\.spec\.ts › about › page \(and 2 other checkpoints\) \(approved by .* new footer\); not approved here: nobody saw it on this checkpoint — same change as 3 other checkpoints \(group g1\); also group g\d \(needs_review: no evaluator configured\)$/,
    );
  });

  test('approving the button group takes the whole contact page; the footer it also shows still needs a look there, and approving the page settles it', async () => {
    const group = readLatest(repo).groups.find((g) => g.members.includes('site.spec.ts › contact › form'))!;
    expect(group.alsoIn).toEqual(['contact-page.spec.ts › contact page › page']);
    const approved = visualUat(repo, ['approve', group.id]);
    expect(approved.status, approved.stderr).toBe(0);
    let run = await runPlaywrightAsync(repo, ['test']);
    let results = readLatest(repo);
    expect(statuses(results)).toMatchObject({
      'contact › form': 'changed',
      'contact page › page': 'needs_review',
      'news › headline': 'needs_review',
    });
    expect(checkpoint(results, 'contact page', 'page').checkpoint.reason).toMatch(
      /^same as the change approved in site\.spec\.ts › about › page/,
    );
    expect(run.stdout).toContain('1 checkpoint shows a change approved on other checkpoints only');

    expect(visualUat(repo, ['approve', 'contact page']).status).toBe(0);
    run = await runPlaywrightAsync(repo, ['test']);
    results = readLatest(repo);
    expect(Object.values(statuses(results)).filter((s) => s !== 'changed')).toEqual(['needs_review']);
    expect(statuses(results)).toMatchObject({ 'contact page › page': 'changed', 'news › headline': 'needs_review' });
    expect(run.stdout).toContain('5 checkpoints approved earlier (visual-uat.approvals.json)');
  });
});
