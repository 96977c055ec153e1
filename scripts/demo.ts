import fs from 'node:fs';
import path from 'node:path';
import { chromiumAvailable, NO_CHROMIUM } from '../src/config/browser';
import { ENV } from '../src/config/environment';
import { DEFAULT_FAIL_ON } from '../src/config/settings';
import type { RunResult } from '../src/report';
import { failingCheckpoints } from '../src/report/decide';
import { plural } from '../src/util/text';
import { createFixtureRepo, PACKAGE_ROOT, runPlaywright } from './fixture-repo';

/**
 * The main job: a real app at two commits, a real Playwright run with the plugin, and an HTML
 * report with the verdicts. `site` (fixtures/demo-app) is a web site's pages; `components`
 * (fixtures/gallery-app) is a React component library tested through Playwright's built-in
 * mount() and a story gallery. The repository is rebuilt under .demo/ each time.
 */

interface Demo {
  fixture: string;
  folder: string;
  branch: string;
  commits: string;
}

const DEMOS: Record<string, Demo> = {
  site: {
    fixture: 'demo-app',
    folder: 'acme-site',
    branch: 'feature/pricing',
    commits: '"Highlight the Pro plan" (intended) and "Refactor page templates" (not meant to change anything)',
  },
  components: {
    fixture: 'gallery-app',
    folder: 'acme-ui',
    branch: 'feature/brand-button',
    commits: '"Brand-blue primary button" (intended; Badge and Avatar untouched) and "Tag component" (a new story and its test)',
  },
};

function main(name = 'site'): void {
  const demo = DEMOS[name];
  if (!demo) throw new Error(`no demo named "${name}": use one of ${Object.keys(DEMOS).join(', ')}`);
  // A newcomer's first command: one line on what to install, not a launch error per test.
  if (!chromiumAvailable()) {
    process.stderr.write(`${NO_CHROMIUM}\n`);
    process.exitCode = 1;
    return;
  }
  const dir = path.join(PACKAGE_ROOT, '.demo', demo.folder);
  fs.rmSync(dir, { recursive: true, force: true });
  createFixtureRepo({ fixture: demo.fixture, dir, branch: demo.branch });
  process.stdout.write(
    `demo repository: ${dir}\n  main: ${' '.repeat(demo.branch.length - 4)}the ${name === 'site' ? 'site' : 'library'} as it was\n  ${demo.branch}: ${demo.commits}\n\n`,
  );
  // cleanEnv keeps this shell's variables out of the run but for the evaluator's.
  const evaluatorEnv = Object.fromEntries(
    [ENV.openaiApiKey, ENV.openaiBaseUrl, ENV.model].map((variable) => [variable.name, variable.read()]),
  );
  const run = runPlaywright(dir, ['test'], evaluatorEnv);
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const report = path.join(dir, 'playwright-report', 'index.html');
  const results = path.join(dir, '.visual-uat', 'results', 'latest.json');
  process.stdout.write(
    `\nHTML report:  ${report}\n  open it with: npx playwright show-report ${path.relative(process.cwd(), path.dirname(report))}\nresults file: ${results}\n`,
  );
  if (!fs.existsSync(report) || !fs.existsSync(results)) {
    process.exitCode = 1;
    return;
  }
  // The demo's changes await a person: the gate holds them (exit 1), which is what it shows.
  const outcome = JSON.parse(fs.readFileSync(results, 'utf8')) as RunResult;
  const held = failingCheckpoints(
    outcome.tests.flatMap((test) => test.checkpoints),
    DEFAULT_FAIL_ON,
  ).length;
  if (held && run.status === 1)
    process.stdout.write(
      `the run exited 1: the gate holds ${plural(held, 'checkpoint')} with an unreviewed change until a person approves it (in ${dir}: npx visual-uat review)\n`,
    );
  process.exitCode = run.status === (held ? 1 : 0) ? 0 : 1;
}

main(process.argv[2]);
