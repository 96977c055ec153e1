import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, visualUatCli } from '../../scripts/fixture-repo';
import { reply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { runPlaywrightAsync } from '../support/playwright-run';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * Groups and approvals that match what a person saw. The promo-app's feature branch puts a promo
 * banner on the home page, highlights the Pro plan, and restyles the footer (`flex-direction:
 * column; gap: 2px; padding: 8px 48px`: an added strip and two moved text boxes); the home page is
 * captured whole, the footer as an element on four pages.
 */

const API_KEY = 'sk-e2e-change-groups-5d20';
const HOME = 'site.spec.ts › home › home';
const FOOTERS = ['about', 'pricing', 'contact', 'blog'].map((page) => `site.spec.ts › ${page} footer › site-footer`);
const FOOTER_STATUSES = (status: string) =>
  Object.fromEntries(['about', 'pricing', 'contact', 'blog'].map((page) => [`${page} footer › site-footer`, status]));

function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

interface Approval {
  verdict: string;
  scope: string;
  checkpoints: { test: string; checkpoint: string }[];
}

function approvalsOf(repo: string): Approval[] {
  return JSON.parse(fs.readFileSync(path.join(repo, 'visual-uat.approvals.json'), 'utf8')).approvals;
}

const decidedOn = (approval: Approval) => approval.checkpoints.map((c) => `${c.test} › ${c.checkpoint}`).sort();

test.describe('a footer change on four pages, a banner and the Pro plan, with a scripted model', () => {
  test.describe.configure({ mode: 'serial' });
  let server: FakeOpenAI;
  let repo: string;

  test.beforeAll(async () => {
    server = await startFakeOpenAI({
      responder: () => reply.verdict({ pass: true, confidence: 0.92, reason: 'As the commits describe.' }),
    });
    repo = createFixtureRepo({ fixture: 'promo-app' });
  });

  test.afterAll(async () => {
    await server.close();
  });

  test('the footer is one group, judged with one call; the run makes one call per change, fewer than changed checkpoints', async () => {
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    const changed = Object.values(statuses(results)).filter((status) => status === 'changed');
    expect(changed).toHaveLength(6);
    const footer = results.groups.find((g) => g.members.includes(FOOTERS[0]))!;
    expect(footer).toMatchObject({ members: FOOTERS, alsoIn: [HOME] });
    // The footer's strip and text boxes are one change: one group, whatever the region finder cut.
    expect(footer.fingerprint.split(' ').filter((part) => /^[mar]\d+x\d+/.test(part)).length).toBeGreaterThan(1);
    expect(results.groups).toHaveLength(3);
    expect(server.completions()).toHaveLength(3);
    expect(results.evaluator).toMatchObject({ calls: 3, cacheHits: 0 });
  });

  test('the same run again reuses each verdict: the same checkpoints, intent and commits', async () => {
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    expect(readLatest(repo).evaluator).toMatchObject({ calls: 0, cacheHits: 3 });
  });

  test('a new commit asks again: a cached verdict holds for the commits it was given on', async () => {
    fs.appendFileSync(path.join(repo, 'README.md'), 'The Acme site.\n');
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'Say what the repository is']);
    const run = await runPlaywrightAsync(repo, ['test'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL });
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    expect(readLatest(repo).evaluator).toMatchObject({ calls: 3, cacheHits: 0 });
  });
});

test.describe('approvals cover what a person saw', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'promo-app' });
  });

  test('approve home settles everything the home page shows: the banner, and the footer on all five checkpoints that show it', async () => {
    const first = await runPlaywrightAsync(repo, ['test']);
    expect(first.status, first.stdout + first.stderr).toBe(gateExit(readLatest(repo)));
    const approved = visualUat(repo, ['approve', 'home', '--reason', 'the spring sale']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).not.toContain('not part of this decision');
    const approvals = approvalsOf(repo);
    expect(approvals.map(decidedOn)).toEqual(expect.arrayContaining([[HOME], [...FOOTERS, HOME].sort()]));
    expect(approvals).toHaveLength(2);

    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    expect(statuses(readLatest(repo))).toEqual({
      'home › home': 'changed',
      'pricing › plans': 'needs_review',
      ...FOOTER_STATUSES('changed'),
    });
  });

  test('the banner leaked onto the about page is needs_review, naming the approval it resembles', async () => {
    const about = path.join(repo, 'public', 'about.html');
    const banner = /\s*<div class="promo">.*<\/div>/.exec(fs.readFileSync(path.join(repo, 'public', 'index.html'), 'utf8'))![0];
    fs.writeFileSync(about, fs.readFileSync(about, 'utf8').replace('</header>', `</header>${banner}`));
    fs.appendFileSync(
      path.join(repo, 'tests', 'site.spec.ts'),
      "\ntest('about', async ({ page, screenshotCheckpoint }) => {\n  await page.goto('/about');\n  await screenshotCheckpoint('about');\n});\n",
    );
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'Test the whole about page']);
    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toMatchObject({ 'home › home': 'changed', 'about › about': 'needs_review' });
    expect(checkpoint(results, 'about', 'about').checkpoint.reason).toMatch(
      /^same as the change approved in site\.spec\.ts › home › home \(approved by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d: the spring sale\); not approved here: nobody saw it on this checkpoint/,
    );
    expect(run.stdout).toContain('1 checkpoint shows a change approved on other checkpoints only');
    // One click approves it: the about page's checkpoint, everything it shows.
    expect(visualUat(repo, ['approve', 'about › about']).status).toBe(0);
    await runPlaywrightAsync(repo, ['test']);
    expect(statuses(readLatest(repo))).toMatchObject({ 'home › home': 'changed', 'about › about': 'changed' });
  });

  test('a footer test that crashes this run is listed, its checkpoint missing; its approval is not stale, and --prune keeps it', async () => {
    // A flake of the current run only: the base pass (the same test on the base app) captures the footer.
    const spec = path.join(repo, 'tests', 'site.spec.ts');
    const crash =
      "\n    if (name === 'blog' && process.env.BLOG_DOWN && (await page.locator('footer').evaluate((f) => getComputedStyle(f).flexDirection)) === 'column') throw new Error('the blog timed out');";
    fs.writeFileSync(
      spec,
      fs.readFileSync(spec, 'utf8').replace('await page.goto(`/${name}`);', `await page.goto(\`/\${name}\`);${crash}`),
    );
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'Let the blog time out']);
    const before = approvalsOf(repo);
    expect(before.some((approval) => decidedOn(approval).includes(FOOTERS[3]))).toBe(true);
    const run = await runPlaywrightAsync(repo, ['test'], { BLOG_DOWN: '1' });
    const results = readLatest(repo);
    const blog = results.tests.find((t) => t.title === 'blog footer');
    expect(blog, run.stdout).toBeDefined();
    expect(blog!.status).toBe('errored');
    expect(checkpoint(results, 'blog footer', 'site-footer').checkpoint).toMatchObject({
      status: 'missing',
      reason: 'in the baseline only: the current test failed before it took this checkpoint (Error: the blog timed out)',
    });
    expect(run.stdout).not.toContain('stale approval');
    const pruned = visualUat(repo, ['approve', '--prune']);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).not.toContain('dropped');
    expect(approvalsOf(repo)).toEqual(before);
  });
});

/** Starts `visual-uat review --no-open` as a user does, and reads the URL it prints once it has started. */
function startReview(repo: string): Promise<{ url: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [visualUatCli(repo), 'review', '--no-open'], { cwd: repo, env: fixtureEnv() });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`visual-uat review printed no URL within 30 s:\n${output}`)), 30_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const url = /visual-uat review: (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop: () => child.kill('SIGINT') });
    });
  });
}

test.describe('the review page shows each group its own change', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let review: { url: string; stop: () => void } | undefined;

  test.beforeAll(async () => {
    repo = createFixtureRepo({ fixture: 'promo-app' });
    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  });

  test.afterAll(() => review?.stop());

  test("the footer group's card opens its first checkpoint, the full home page, on the footer, outlined", async ({ page }) => {
    const footer = readLatest(repo).groups.find((g) => g.members.includes(FOOTERS[0]))!;
    review = await startReview(repo);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(review.url);
    const card = page.getByRole('article', { name: `group ${footer.id} · 5 checkpoints` });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByRole('button', { name: /^site\.spec\.ts › home › home/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(card.getByText(/^Also changed here: group g\d\. The images open on this change/)).toBeVisible();
    const current = card.getByRole('figure').filter({ has: page.getByRole('img', { name: 'current' }) });
    const outlines = current.locator('.region');
    await expect(outlines.first()).toBeAttached();
    // Only the footer's regions are outlined, and the box opens on them, not on the banner at the top.
    await expect(outlines).toHaveCount(footer.fingerprint.split(' ').filter((part) => /^[mar]\d+x\d+/.test(part)).length);
    await expect(outlines.first()).toBeInViewport();
    // Opened on the banner (the top of the page), the box would not have scrolled at all.
    expect(await current.locator('.scroller').evaluate((box) => box.scrollTop)).toBeGreaterThan(100);
  });

  test("approve site-footer: one approval for the four footers (and the home page's footer); the next run has them changed", async () => {
    const approved = visualUat(repo, ['approve', 'site-footer']);
    expect(approved.status, approved.stderr).toBe(0);
    const approvals = approvalsOf(repo);
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({ verdict: 'approved', scope: 'change' });
    expect(decidedOn(approvals[0])).toEqual([...FOOTERS, HOME].sort());

    const run = await runPlaywrightAsync(repo, ['test']);
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toEqual({ 'home › home': 'needs_review', 'pricing › plans': 'needs_review', ...FOOTER_STATUSES('changed') });
    // The home page's footer is approved; its banner is not.
    expect(checkpoint(results, 'home', 'home').checkpoint.reason).toMatch(
      /^no evaluator configured — also group g\d \(changed: approved by /,
    );
  });

  test("the page's Approve on a checkpoint approves everything it shows, as approve <checkpoint> does", async ({ page }) => {
    const results = readLatest(repo);
    const footer = results.groups.find((g) => g.members.includes(FOOTERS[0]))!;
    const banner = results.groups.find((g) => g.members.includes(HOME))!;
    await page.goto(review!.url);
    const card = page.getByRole('article', { name: `group ${footer.id} · 5 checkpoints` });
    await card.getByRole('button', { name: `Approve everything site.spec.ts › home › home shows` }).click();
    await expect(card.getByRole('status')).toHaveText(/^Approved by Visual UAT Fixture/);
    const approvals = approvalsOf(repo);
    expect(approvals.map(decidedOn).sort()).toEqual([[...FOOTERS, HOME].sort(), [HOME]].sort());
    expect(banner.members).toEqual([HOME]);
  });
});
