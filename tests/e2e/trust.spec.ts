import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git } from '../../scripts/fixture-repo';
import { readLabels } from '../../src/approve';
import type { EvalRecord } from '../../src/trust';
import { reply, startFakeOpenAI, userTextOf, type FakeOpenAI } from '../support/fake-openai';
import { runPlaywrightAsync, runVisualUatAsync } from '../support/playwright-run';
import { checkpoint, readLatest, statuses } from '../support/results';

/**
 * The loop from a person's decision to the model's trust, on the groups-app (a footer change on
 * three pages, a contact button, a news headline) with `evaluator.autoApprove` on: Approve and
 * Reject leave labelled cases, `visual-uat eval` measures the model on them, and only then does a
 * pass of the model become `changed` without a person.
 */

const API_KEY = 'sk-e2e-trust-7b20e4';
const INTENDED = 'The change matches the commit.';

test.describe.configure({ mode: 'serial' });

let server: FakeOpenAI;
let repo: string;
let env: NodeJS.ProcessEnv;

test.beforeAll(async () => {
  // The model calls the contact form's new button a regression, and passes everything else at 0.95.
  server = await startFakeOpenAI({
    responder: (request) =>
      userTextOf(request).includes('\nCheckpoint: form')
        ? reply.verdict({ pass: false, confidence: 0.9, reason: 'The send button lost its contrast.' })
        : reply.verdict({ pass: true, confidence: 0.95, reason: INTENDED }),
  });
  repo = createFixtureRepo({ fixture: 'groups-app' });
  const config = path.join(repo, 'playwright.config.ts');
  fs.writeFileSync(
    config,
    fs.readFileSync(config, 'utf8').replace("{ baseBranch: 'main' }", "{ baseBranch: 'main', evaluator: { autoApprove: {} } }"),
  );
  git(repo, ['commit', '-q', '-am', 'Let the model approve what it has been measured on']);
  env = { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.baseURL };
});

test.afterAll(async () => {
  await server.close();
});

function groupOf(testTitle: string): string {
  return checkpoint(readLatest(repo), testTitle, testTitle === 'contact' ? 'form' : testTitle === 'news' ? 'headline' : 'page').checkpoint
    .group!;
}

test('without an eval of the model, its passes are left for review and the run says why', async () => {
  const run = await runPlaywrightAsync(repo, ['test'], env);
  expect(run.status, `the model called the button a regression:\n${run.stdout}${run.stderr}`).toBe(1);
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'home › page': 'needs_review',
    'about › page': 'needs_review',
    'pricing › page': 'needs_review',
    'contact › form': 'regression',
    'news › headline': 'needs_review',
  });
  expect(checkpoint(results, 'news', 'headline').checkpoint.reason).toBe(
    `${INTENDED} Not approved automatically: no eval of gpt-4.1-mini on this project yet: run npx visual-uat eval to measure it.`,
  );
  // What the evaluator was told is in the results, for the labels a decision leaves.
  expect(checkpoint(results, 'news', 'headline').test.intent).toBeNull();
  expect(results.commits.map((line) => line.replace(/^\w+ /, ''))).toEqual([
    'Let the model approve what it has been measured on',
    'Contact: a green send button; news: the version 3 headline',
    "Footer in the brand's navy, with this year's copyright",
  ]);
  expect(results.changedFiles).toContain('M playwright.config.ts');
});

test('approve and reject leave one labelled case per decision, with the images and what the model was told', async () => {
  const footer = groupOf('home');
  const approved = await runVisualUatAsync(repo, ['approve', footer, '--reason', 'the new footer'], env);
  expect(approved.status, approved.stderr).toBe(0);
  expect(approved.stdout).toContain('labelled: 1 case in .visual-uat/labels (npx visual-uat eval measures the evaluator on them)');
  const rejected = await runVisualUatAsync(repo, ['reject', groupOf('contact')], env);
  expect(rejected.status, rejected.stderr).toBe(0);

  const store = readLabels(path.join(repo, '.visual-uat', 'labels'));
  expect(store.problems).toEqual([]);
  const cases = store.cases.map((loaded) => loaded.case);
  expect(cases.map((c) => [c.label, c.source, c.checkpoint, c.note]).sort()).toEqual([
    ['intended', 'approve', 'page', 'the new footer'],
    ['regression', 'reject', 'form', null],
  ]);
  const footerCase = cases.find((c) => c.label === 'intended')!;
  expect(footerCase.test).toMatchObject({ project: '', file: 'tests/site.spec.ts' });
  expect(footerCase.by).toBe('Visual UAT Fixture <fixture@visual-uat.test>');
  expect(footerCase.change).toMatchObject({ baseBranch: 'main', dirty: false });
  expect(footerCase.change!.commits).toHaveLength(3);
  expect(footerCase.diffMetrics.pixelDiffPercent).toBeGreaterThan(0);
  // The images are copies of the run's, so the label outlives the run.
  const results = readLatest(repo);
  const shown = checkpoint(results, footerCase.test.titlePath.at(-1)!, 'page').checkpoint;
  const loaded = store.cases.find((c) => c.case.id === footerCase.id)!;
  expect(
    fs.readFileSync(loaded.images.current).equals(fs.readFileSync(path.join(repo, '.visual-uat', 'results', shown.currentImage!))),
  ).toBe(true);
});

test('after an eval that caught the labelled regression, a pass above its confidence is approved without a person', async () => {
  const evaluated = await runVisualUatAsync(repo, ['eval', '--json'], env);
  expect(evaluated.status, evaluated.stderr).toBe(0);
  const record = JSON.parse(evaluated.stdout) as EvalRecord;
  expect(record.figures).toMatchObject({
    cases: 2,
    intended: 1,
    regressions: 1,
    agreed: 2,
    regressionsRejected: 1,
    regressionsApproved: [],
  });

  const run = await runPlaywrightAsync(repo, ['test'], env);
  expect(run.status, 'the rejected button is still a regression').toBe(1);
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'home › page': 'changed',
    'about › page': 'changed',
    'pricing › page': 'changed',
    'contact › form': 'regression',
    'news › headline': 'changed',
  });
  // The headline's verdict came from the cache: the policy applies to cached verdicts too.
  expect(checkpoint(results, 'news', 'headline').checkpoint.reason).toBe(INTENDED);
  expect(results.evaluator).toMatchObject({ calls: 0, cacheHits: 1 });
});

test('clean removes what the runs left and keeps the labelled cases and the evals, saying so', async () => {
  const cleaned = await runVisualUatAsync(repo, ['clean'], env);
  expect(cleaned.status, cleaned.stderr).toBe(0);
  expect(cleaned.stdout).toContain(
    'visual-uat clean: kept .visual-uat/labels (labelled cases and evals are decisions, not run output: delete the folder yourself to drop them)',
  );
  expect(cleaned.stdout).toContain('visual-uat clean: kept .visual-uat/eval (');
  expect(cleaned.stdout).toMatch(/^visual-uat clean: removed \.visual-uat\/\S+(, \.visual-uat\/\S+)*$/m);
  expect(cleaned.stdout).toContain('.visual-uat/results');
  expect(fs.readdirSync(path.join(repo, '.visual-uat')).sort()).toEqual(['eval', 'labels']);
  expect(readLabels(path.join(repo, '.visual-uat', 'labels')).cases).toHaveLength(2);
  expect(git(repo, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
});
