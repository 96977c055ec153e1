import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  FIXTURES_DIR,
  PACKAGE_ROOT,
  copyTree,
  createFixtureRepo,
  fixtureEnv,
  git,
  runPlaywright,
  visualUatCli,
} from '../../scripts/fixture-repo';
import { systemChromium } from '../../src/config/browser';
import { plainText } from '../../src/util/text';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * A team's existing suite of `toHaveScreenshot` calls (fixtures/snapshot-suite: three spec files,
 * one in a folder of its own, named and unnamed snapshots, masks, a locator snapshot, the config's
 * `expect.toHaveScreenshot` options, committed `-snapshots/` folders at two depths) adopts
 * visual-uat by the README's steps, read from README.md, then a feature branch changes the pricing
 * page and adds a test in both styles.
 */

test.describe.configure({ mode: 'serial' });

const SNAPSHOT_SUITE = path.join(FIXTURES_DIR, 'snapshot-suite');
const SPEC_FILES = ['tests/docs/docs.spec.ts', 'tests/home.spec.ts', 'tests/pricing.spec.ts'];

const ADOPTED_STATUSES = {
  'landing › home-landing-1': 'unchanged',
  'landing › header': 'unchanged',
  'newsletter › form': 'unchanged',
  'newsletter › subscribed': 'unchanged',
  'pricing plans › pricing': 'needs_review',
  'pricing plans › pro-plan': 'needs_review',
  'sidebar › docs-sidebar-1': 'unchanged',
  'sidebar › docs-sidebar-2': 'unchanged',
};

let repo: string;
let recorded: ReturnType<typeof runPlaywright>;
let teamConfig: string;

/**
 * The team's own config, run by plain Playwright: with this machine's Chromium where Playwright's
 * browsers are not installed (withVisualUat finds it by itself; plain Playwright does not).
 */
function runPlain(dir: string, args: string[]): ReturnType<typeof runPlaywright> {
  const chromium = systemChromium();
  const config = chromium
    ? teamConfig.replace('use: {', `use: { launchOptions: { executablePath: ${JSON.stringify(chromium)} },`)
    : teamConfig;
  fs.writeFileSync(path.join(dir, 'plain.config.ts'), config);
  try {
    return runPlaywright(dir, ['test', '--config', 'plain.config.ts', ...args]);
  } finally {
    fs.rmSync(path.join(dir, 'plain.config.ts'));
  }
}

/** The snapshot files on disk, by spec folder (`tests/…-snapshots/` at any depth): what Playwright named each snapshot. */
function snapshotFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, 'tests'), { recursive: true })
    .map(String)
    .filter((file) => /-snapshots[\\/][^\\/]+$/.test(file))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/**
 * The README's adoption steps, as README.md writes them: step 1's command, step 2's import line
 * and what it becomes, and the shell block of step 3.
 */
function adoptionSteps(): { init: string; from: string; to: string; remove: string[] } {
  const readme = fs.readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## ').find((part) => part.startsWith('Adopting an existing `toHaveScreenshot` suite'))!;
  const init = /^1\. `([^`]+)`/m.exec(section)![1];
  const [, from, to] = /`(import [^`]+)` becomes `(import [^`]+)`/.exec(section)!;
  const shell = /^\s*```sh\n([\s\S]*?)^\s*```/m.exec(section)![1];
  return {
    init,
    from,
    to,
    remove: shell
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  };
}

/** A README command, run as a user types it in the repository's root. */
function shell(dir: string, command: string): SpawnSyncReturns<string> {
  return spawnSync('sh', ['-c', command], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

/** The README's steps, read from README.md: init, the import line in each spec file init lists, the snapshot folders gone. */
function adopt(dir: string): void {
  const steps = adoptionSteps();
  expect(steps.init).toBe('npx visual-uat init');
  const init = shell(dir, steps.init);
  expect(init.status, init.stdout + init.stderr).toBe(0);
  expect(init.stdout).toContain(
    `3 spec files call toHaveScreenshot with @playwright/test's expect: import { test, expect } from 'visual-uat' there to make those calls checkpoints, then delete their -snapshots folders (README: "Adopting an existing toHaveScreenshot suite"):\n${SPEC_FILES.map((spec) => `  ${spec}`).join('\n')}\n`,
  );
  const listed = init.stdout
    .split('\n')
    .filter((line) => /^ {2}\S+\.spec\.ts$/.test(line))
    .map((line) => line.trim());
  expect(listed).toEqual(SPEC_FILES);
  for (const spec of listed) {
    const file = path.join(dir, spec);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(steps.from);
    fs.writeFileSync(file, text.replace(steps.from, steps.to));
  }
  for (const command of steps.remove) {
    const removed = shell(dir, command);
    expect(removed.status, `${command}: ${removed.stderr}`).toBe(0);
  }
  expect(
    git(dir, ['ls-files'])
      .split('\n')
      .filter((file) => file.includes('-snapshots/')),
  ).toEqual([]);
  expect(snapshotFiles(dir)).toEqual([]);
}

test.beforeAll(async () => {
  repo = createFixtureRepo({
    fixture: 'snapshot-suite',
    commits: 0,
    // The suite as the team has it: its snapshots recorded by Playwright and committed with it.
    prepare: (dir) => {
      teamConfig = fs.readFileSync(path.join(dir, 'playwright.config.ts'), 'utf8');
      recorded = runPlain(dir, ['--update-snapshots']);
    },
  });
});

test('before: the suite runs as plain Playwright against its committed snapshots', async () => {
  expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
  expect(snapshotFiles(repo)).toEqual([
    'docs/docs.spec.ts-snapshots/docs-sidebar-1-linux.png',
    'docs/docs.spec.ts-snapshots/docs-sidebar-2-linux.png',
    'home.spec.ts-snapshots/header-linux.png',
    'home.spec.ts-snapshots/home-landing-1-linux.png',
    'pricing.spec.ts-snapshots/pricing-linux.png',
    'pricing.spec.ts-snapshots/pro-plan-linux.png',
  ]);
  expect(
    git(repo, ['ls-files', 'tests'])
      .split('\n')
      .filter((file) => file.endsWith('.png')),
  ).toHaveLength(6);
  const plain = runPlain(repo, []);
  expect(plain.status, plain.stdout + plain.stderr).toBe(0);
  expect(plain.stdout).toContain('4 passed');
});

test('adopted by the documented steps, then a feature branch: toHaveScreenshot calls are checkpoints named as Playwright names them', async () => {
  git(repo, ['checkout', '-q', 'main']);
  adopt(repo);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'Adopt visual-uat: checkpoints instead of committed snapshots']);
  git(repo, ['checkout', '-q', '-B', 'feature/pricing']);
  const [change] = JSON.parse(fs.readFileSync(path.join(SNAPSHOT_SUITE, 'commits.json'), 'utf8')) as { overlay: string; message: string }[];
  copyTree(path.join(SNAPSHOT_SUITE, change.overlay), repo);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', change.message]);

  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  // The clock is masked and the promotion hidden by the config's stylePath: the pages that did
  // not change are unchanged, though both differ on every load.
  expect(statuses(readLatest(repo))).toEqual(ADOPTED_STATUSES);
  expect(run.stdout).toContain('visual-uat: 8 checkpoints: 2 needs_review, 6 unchanged');
  // The docs search test takes no screenshot: the base pass leaves it out.
  expect(run.stdout).toContain('visual-uat: the baseline pass runs 4 of 5 tests: the others have no checkpoint call in their sources');
  // No snapshot file was read or written: no snapshot folder came back, none of Playwright's actual/diff images.
  expect(snapshotFiles(repo)).toEqual([]);
  const outputs = fs.readdirSync(path.join(repo, 'test-results'), { recursive: true }).map(String);
  expect(outputs.filter((file) => /-(actual|expected|diff|previous)\.png$/.test(file))).toEqual([]);
});

test("outside a visual-uat run, the converted spec files get Playwright's own toHaveScreenshot, and a screenshotCheckpoint fails its test in one line", async () => {
  // The team's config, not wrapped in withVisualUat: nothing would compare a checkpoint, so the newsletter test fails at it.
  const unwrapped =
    'visual-uat: checkpoint "form" ran without withVisualUat, so nothing compared it: wrap the export of plain.config.ts in withVisualUat (npx visual-uat init does it)';
  try {
    const recording = runPlain(repo, ['--update-snapshots']);
    expect(recording.status, recording.stdout + recording.stderr).toBe(1);
    expect(plainText(recording.stdout)).toContain(unwrapped);
    expect(plainText(recording.stdout)).toContain('1 failed');
    expect(snapshotFiles(repo)).toEqual([
      'docs/docs.spec.ts-snapshots/docs-sidebar-1-linux.png',
      'docs/docs.spec.ts-snapshots/docs-sidebar-2-linux.png',
      'home.spec.ts-snapshots/header-linux.png',
      'home.spec.ts-snapshots/home-landing-1-linux.png',
      'pricing.spec.ts-snapshots/pricing-linux.png',
      'pricing.spec.ts-snapshots/pro-plan-linux.png',
    ]);
    // The base's pricing page against the feature's snapshots: Playwright's comparison fails it.
    fs.writeFileSync(path.join(repo, 'public', 'pricing.html'), git(repo, ['show', 'main:public/pricing.html']));
    const compared = runPlain(repo, []);
    expect(compared.status, compared.stdout + compared.stderr).toBe(1);
    const output = plainText(compared.stdout);
    expect(output).toContain('2 failed');
    expect(output).toContain(unwrapped);
    expect(output).toContain('expect(page).toHaveScreenshot(expected) failed');
    expect(output).toMatch(/\d+ pixels \(ratio [\d.]+ of all image pixels\) are different/);
    expect(output).toContain('Expected: tests/pricing.spec.ts-snapshots/pricing-linux.png');
  } finally {
    git(repo, ['checkout', '-q', '--', 'public/pricing.html']);
    git(repo, ['clean', '-fdq', 'tests']);
  }
});

test('adopted, an unreviewed change fails the build as the failing toHaveScreenshot did, with the approve command; approved and the approvals file committed, the build passes', async ({
  page,
}) => {
  const held = runPlaywright(repo, ['test']);
  expect(held.status, held.stdout + held.stderr).toBe(1);
  expect(statuses(readLatest(repo))).toEqual(ADOPTED_STATUSES);
  expect(held.stderr).toContain(
    'approve the intended changes with npx visual-uat review (or npx visual-uat approve --all), commit visual-uat.approvals.json, and run again',
  );
  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}#?q=s:failed`);
  await expect(page.getByRole('link', { name: /pricing/ }).first()).toBeVisible();
  await page
    .getByRole('link', { name: /pricing/ })
    .first()
    .click();
  await expect(page.getByText(/is needs_review \(in failOn\): .*npx visual-uat approve "pricing\.spec\.ts › /).first()).toBeVisible();

  const approved = spawnSync(process.execPath, [visualUatCli(repo), 'approve', '--all'], {
    cwd: repo,
    env: fixtureEnv(),
    encoding: 'utf8',
  });
  expect(approved.status, approved.stdout + approved.stderr).toBe(0);
  git(repo, ['add', 'visual-uat.approvals.json']);
  git(repo, ['commit', '-q', '-m', 'Approve the new pricing page']);
  const passed = runPlaywright(repo, ['test']);
  expect(passed.status, passed.stdout + passed.stderr).toBe(gateExit(readLatest(repo)));
  expect(Object.values(statuses(readLatest(repo)))).not.toContain('needs_review');
});
