import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, git, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

/** The checkpoints the approvals file's decisions were taken on. */
function checkpointsOf(file: string): string[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')).approvals.flatMap((a: { checkpoints: { checkpoint: string }[] }) =>
    a.checkpoints.map((c) => c.checkpoint),
  );
}

test.describe.configure({ mode: 'serial' });

let repo: string;
let approvals: string;

test.beforeAll(() => {
  repo = createFixtureRepo({ fixture: 'demo-app' });
  approvals = path.join(repo, 'visual-uat.approvals.json');
});

test('report says there is no run yet, with what to do', () => {
  const none = visualUat(repo, ['report']);
  expect(none.status).toBe(1);
  expect(none.stderr.trim()).toBe(
    'visual-uat: no run yet (.visual-uat/results/latest.json does not exist): run npx visual-uat test (or npx playwright test) first',
  );
});

test('a run in GitHub Actions writes a step summary and warning annotations', () => {
  const summaryFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-summary-')), 'summary.md');
  const run = runPlaywright(repo, ['test'], { GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTIONS: 'true' });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const summary = fs.readFileSync(summaryFile, 'utf8');
  expect(summary).toContain('**5 checkpoints: 2 needs_review, 3 unchanged** · base `main` @ `');
  expect(summary).toContain('| status | test › checkpoint | changed | reason |');
  // The reason, then the change in words with the file and commit behind it (#30).
  expect(summary).toMatch(
    /\| needs_review \| site\.spec\.ts › site › pricing › plans › plans \| \d+\.\d\d% \| no evaluator configured — \.badge added \(\d+×\d+\) above [^|]+ — public\/pricing\.html \(commit [0-9a-f]{7} Highlight the Pro plan on the pricing page\)[^|]* \|/,
  );
  expect(summary).not.toContain('landing');
  expect(run.stdout).toContain(
    '::warning file=tests/site.spec.ts,title=visual-uat needs_review::site.spec.ts › site › about › contact: no evaluator configured',
  );
  // visual-uat's table lines, not the list reporter's test lines (whose location can be a long path: defineOxTests).
  // Its summary only: Playwright's own report of the tests the gate failed follows it.
  const summaryBlock = run.stdout.slice(run.stdout.indexOf('visual-uat: 5 checkpoints'), run.stdout.indexOf('visual-uat: results in'));
  const tableLines = summaryBlock.split('\n').filter((l) => l.startsWith('  ') && !/\.[jt]s:\d+:\d+ › /.test(l));
  expect(tableLines.length).toBeGreaterThan(3);
  for (const line of tableLines) expect(line.length, line).toBeLessThanOrEqual(100);
  expect(run.stdout).toContain('approve:     npx visual-uat approve --all');
  expect(run.stdout).toContain('review:      npx visual-uat review   (a page with Approve and Reject per change)');
  expect(run.stdout).toMatch(/HTML report: .*playwright-report/);
});

test('report prints the latest run as a table and as JSON', () => {
  const table = visualUat(repo, ['report']);
  expect(table.status).toBe(0);
  expect(table.stdout).toMatch(
    /^visual-uat run of .* UTC: main @ [0-9a-f]{8} → feature\/pricing @ [0-9a-f]{8}\n5 checkpoints: 2 needs_review, 3 unchanged\n/,
  );
  expect(table.stdout).toMatch(/needs_review +…?.*pricing › plans › plans +\d+\.\d\d% no evaluator configured/);
  const json = visualUat(repo, ['report', '--json']);
  expect(JSON.parse(json.stdout)).toEqual(readLatest(repo));
});

test('--dry-run lists what would be approved and writes nothing', () => {
  const dry = visualUat(repo, ['approve', 'pricing › plans › plans', '--dry-run']);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toContain('would approve: site.spec.ts › site › pricing › plans › plans (needs_review)');
  expect(fs.existsSync(approvals)).toBe(false);
});

test('approving one checkpoint changes only its status on the next run', () => {
  const approved = visualUat(repo, ['approve', 'pricing › plans › plans', '--reason', 'the Pro highlight is intended']);
  expect(approved.status, approved.stderr).toBe(0);
  const file = fs.readFileSync(approvals, 'utf8');
  const entries = JSON.parse(file).approvals;
  expect(entries).toHaveLength(1);
  expect(Object.keys(entries[0])).toEqual(['verdict', 'scope', 'checkpoints', 'by', 'at', 'reason', 'change']);
  expect(entries[0]).toMatchObject({
    verdict: 'approved',
    scope: 'change',
    checkpoints: [{ test: 'site.spec.ts › site › pricing › plans', checkpoint: 'plans' }],
    by: 'Visual UAT Fixture <fixture@visual-uat.test>',
    reason: 'the Pro highlight is intended',
  });
  expect(entries[0].change).toMatch(/^v1 t0\.1 m\d+x\d+c\d+:/);
  expect(file.split('\n').filter((line) => line.includes('"checkpoint"'))).toHaveLength(1);

  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'home › landing': 'unchanged',
    'plans › plans': 'changed',
    'plans › header': 'unchanged',
    'about › contact': 'needs_review',
    'pricing › pricing-header': 'unchanged',
  });
  const plans = results.tests.find((t) => t.title === 'plans')!.checkpoints.find((c) => c.name === 'plans')!;
  expect(plans.reason).toMatch(
    /^approved by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d: the Pro highlight is intended$/,
  );
  expect(run.stdout).toContain('1 checkpoint approved earlier (visual-uat.approvals.json)');
});

test('--all approves every needs_review checkpoint', () => {
  const all = visualUat(repo, ['approve', '--all']);
  expect(all.status, all.stderr).toBe(0);
  expect(checkpointsOf(approvals).sort()).toEqual(['contact', 'plans']);
  const run = runPlaywright(repo, ['test']);
  expect(statuses(readLatest(repo))).toEqual({
    'home › landing': 'unchanged',
    'plans › plans': 'changed',
    'plans › header': 'unchanged',
    'about › contact': 'changed',
    'pricing › pricing-header': 'unchanged',
  });
  expect(run.stdout).not.toContain('approve:     npx visual-uat approve');
});

test('a text edited inside the approved highlight makes the approval stale: the checkpoint needs review', () => {
  const pricing = path.join(repo, 'public', 'pricing.html');
  const original = fs.readFileSync(pricing, 'utf8');
  fs.writeFileSync(pricing, original.replace('For growing teams.', 'For growing teams of any size.'));
  const run = runPlaywright(repo, ['test']);
  const plans = checkpoint(readLatest(repo), 'plans', 'plans').checkpoint;
  // The edit is inside the approved region: what was approved is not what the page shows (10 px cells see it).
  expect(plans.status).toBe('needs_review');
  expect(plans.reason).toBe('no evaluator configured');
  expect(run.stdout).toContain('stale approval ignored: site.spec.ts › site › pricing › plans › plans');
  fs.writeFileSync(pricing, original);
});

test('an approval whose change moved is ignored, reported, and pruned', () => {
  const styles = path.join(repo, 'public', 'styles.css');
  fs.writeFileSync(
    styles,
    fs
      .readFileSync(styles, 'utf8')
      .replace('.plan-recommended { border: 2px solid #2a6df4', '.plan-recommended { border: 2px solid #e0352b')
      .replace('background: #2a6df4; color: #fff; border-radius: 10px', 'background: #e0352b; color: #fff; border-radius: 10px'),
  );
  const run = runPlaywright(repo, ['test']);
  expect(statuses(readLatest(repo))['plans › plans']).toBe('needs_review');
  expect(run.stdout).toContain(
    'stale approval ignored: site.spec.ts › site › pricing › plans › plans no longer shows the approved change; npx visual-uat approve --prune drops it',
  );
  const pruned = visualUat(repo, ['approve', '--prune']);
  expect(pruned.stdout).toContain('dropped stale approval: site.spec.ts › site › pricing › plans › plans');
  expect(checkpointsOf(approvals)).toEqual(['contact']);
});

test('an approval whose baseline moved while the current image stayed is stale for the run and for --prune alike', () => {
  // The base branch moves to the current commit: contact's baseline becomes the refactored page, its current image is unchanged.
  git(repo, ['branch', 'moved', 'HEAD']);
  const run = runPlaywright(repo, ['test'], { VISUAL_UAT_BASE: 'moved' });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))['about › contact']).toBe('unchanged');
  expect(run.stdout).toContain(
    'stale approval ignored: site.spec.ts › site › about › contact no longer shows the approved change; npx visual-uat approve --prune drops it',
  );
  const pruned = visualUat(repo, ['approve', '--prune']);
  expect(pruned.status, pruned.stderr).toBe(0);
  expect(pruned.stdout).toContain('dropped stale approval: site.spec.ts › site › about › contact');
  expect(JSON.parse(fs.readFileSync(approvals, 'utf8')).approvals).toEqual([]);
});

test('the CLI finds the output folder the config gives withVisualUat, as the run does', () => {
  const own = createFixtureRepo({ fixture: 'demo-app' });
  const config = path.join(own, 'playwright.config.ts');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("{ baseBranch: 'main' }", "{ baseBranch: 'main', outputDir: 'out' }"));
  const run = runPlaywright(own, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(own, 'out')));
  expect(run.stdout).toContain('visual-uat: results in out/results/latest.json');
  expect(statuses(readLatest(own, 'out'))['plans › plans']).toBe('needs_review');

  const table = visualUat(own, ['report']);
  expect(table.status, table.stderr).toBe(0);
  expect(table.stdout).toContain('5 checkpoints: 2 needs_review, 3 unchanged');
  const dry = visualUat(own, ['approve', '--all', '--dry-run']);
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toContain('would approve: site.spec.ts › site › pricing › plans › plans (needs_review)');
  const cleaned = visualUat(own, ['clean']);
  expect(cleaned.status, cleaned.stderr).toBe(0);
  expect(fs.existsSync(path.join(own, 'out'))).toBe(false);
  expect(fs.existsSync(path.join(own, '.visual-uat'))).toBe(false);
  expect(git(own, ['worktree', 'list']).split('\n')).toHaveLength(1);
});
