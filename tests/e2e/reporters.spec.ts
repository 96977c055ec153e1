import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { outputPath } from '../../src/config/paths';
import { DEMO_STATUSES, readLatest, statuses } from '../support/results';

/**
 * Every reporter tells the gate's story: on the demo app's feature branch the gate holds two
 * unreviewed changes (the tests "plans" and "about"), and Playwright's closing summary, the JSON
 * and JUnit reports and the exit code all count those two tests as failed, whatever reporters the
 * config or the command line names. One repository serves every run: after the first, the
 * baselines come from the store.
 */

test.describe.configure({ mode: 'serial' });

const GATED = ['site › pricing › plans', 'site › about'];
const VISUAL_UAT_SUMMARY = 'visual-uat: 5 checkpoints: 2 needs_review, 3 unchanged';

let repo: string;

test.beforeAll(() => {
  repo = createFixtureRepo({
    fixture: 'demo-app',
    // The reporters come from the run's environment, so the config (part of the store's key) stays the same across runs.
    prepare: (dir) => {
      const config = path.join(dir, 'playwright.config.ts');
      const text = fs.readFileSync(config, 'utf8');
      const reporters = 'reporter: JSON.parse(process.env.FIXTURE_REPORTERS ?? \'[["list"]]\'),';
      fs.writeFileSync(config, text.replace(/reporter: .*,\n/, `${reporters}\n`));
      fs.appendFileSync(path.join(dir, '.gitignore'), 'test-reports/\n');
    },
  });
});

function runWith(reporters: unknown[], args: string[] = []): SpawnSyncReturns<string> {
  return runPlaywright(repo, ['test', ...args], { FIXTURE_REPORTERS: JSON.stringify(reporters) });
}

/**
 * Playwright's closing summaries, one per terminal reporter, each from the line that counts the
 * failed tests to the one that counts the passed: all printed after visual-uat's own summary, so
 * after the gate failed its tests. Each counts the two held tests as failed, and names them.
 */
function expectGatedSummaries(run: SpawnSyncReturns<string>, reporters = 1): void {
  expect(run.status, run.stdout + run.stderr).toBe(1);
  const stdout = stripVTControlCharacters(run.stdout);
  const gate = stdout.indexOf(VISUAL_UAT_SUMMARY);
  expect(gate, stdout).toBeGreaterThan(-1);
  const summaries = [...stdout.matchAll(/^ {2}\d+ failed\n(?: {4}.*\n)*?^ {2}\d+ passed.*$/gm)];
  expect(summaries, stdout).toHaveLength(reporters);
  for (const summary of summaries) {
    expect(summary.index).toBeGreaterThan(gate);
    expect(summary[0]).toMatch(/^ {2}2 failed\n/);
    expect(summary[0]).toMatch(/^ {2}2 passed/m);
    for (const title of GATED) expect(summary[0]).toContain(title);
  }
}

test('an html-only config: the terminal reporter Playwright adds sums up after the gate, and counts its failures', () => {
  const run = runWith([['html', { open: 'never' }]]);
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  expectGatedSummaries(run);
});

test("a config that names list, line and dot, JSON and JUnit: every summary, the JSON stats and JUnit count the gate's failures, with its reason", () => {
  const reports = path.join(repo, 'test-reports');
  const run = runWith([
    ['html', { open: 'never' }],
    ['list'],
    ['line'],
    ['dot'],
    ['json', { outputFile: 'test-reports/results.json' }],
    ['junit', { outputFile: 'test-reports/junit.xml' }],
  ]);
  expectGatedSummaries(run, 3);

  const json = JSON.parse(fs.readFileSync(path.join(reports, 'results.json'), 'utf8'));
  expect(json.stats).toMatchObject({ expected: 2, unexpected: 2, flaky: 0 });
  const plans = json.suites
    .flatMap(function specs(suite: { specs: unknown[]; suites?: unknown[] }): unknown[] {
      return [...suite.specs, ...(suite.suites ?? []).flatMap((inner) => specs(inner as typeof suite))];
    })
    .find((spec: { title: string }) => spec.title === 'plans');
  const [result] = plans.tests[0].results;
  expect(result.status).toBe('failed');
  expect(result.error.message).toContain(
    'visual-uat: checkpoint "plans" is needs_review (in failOn): no evaluator configured. If the change is intended: npx visual-uat approve',
  );

  const junit = fs.readFileSync(path.join(reports, 'junit.xml'), 'utf8');
  expect(junit).toMatch(/<testsuites [^>]*tests="4" failures="0" skipped="0" errors="2"/);
  const aboutAt = junit.indexOf('<testcase name="site › about"');
  expect(junit.slice(aboutAt, junit.indexOf('</testcase>', aboutAt))).toContain(
    '<error message="visual-uat: checkpoint &quot;contact&quot; is needs_review (in failOn): no evaluator configured. If the change is intended: npx visual-uat approve',
  );
});

test('--reporter=line on the command line stops the run before any test, in one line that names the fix; npx visual-uat test --reporter=line gates the run', () => {
  const replaced = runWith([['html', { open: 'never' }]], ['--reporter=line']);
  expect(replaced.status, replaced.stdout + replaced.stderr).toBe(1);
  const output = replaced.stdout + replaced.stderr;
  expect(output).toContain(
    "visual-uat: this run's reporters (line) leave out visual-uat's, so nothing would compare its checkpoints: run npx visual-uat test --reporter=line, or npx playwright test --reporter=visual-uat/reporter,line (only --reporter=blob runs without it: merge-reports compares)",
  );
  expect(output).not.toMatch(/\d+ passed|Running \d+ tests?/);
  expect(fs.existsSync(outputPath(path.join(repo, '.visual-uat'), 'lock')), 'the run lock is not left behind').toBe(false);

  // The command runs playwright test --reporter=visual-uat/reporter,line (tests/unit/config/reporters.test.ts).
  const throughCli = spawnSync(process.execPath, [visualUatCli(repo), 'test', '--reporter=line'], {
    cwd: repo,
    env: fixtureEnv({ FIXTURE_REPORTERS: '[["html"]]' }),
    encoding: 'utf8',
    timeout: 300_000,
  });
  expectGatedSummaries(throughCli);
});
