import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { runVisualUatAsync } from '../support/playwright-run';
import { repoState } from '../support/repo-state';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * An approvals file that does not read is never taken as no decisions: a run stops before any test
 * with one line naming it, what is wrong and the fix, and approve and reject refuse to write over
 * it. (Read as empty, a misspelt key turned a rejected change from a regression into a pass, and
 * the next approve rewrote the file with its one entry, the others gone.)
 */

const BROKEN: { name: string; content: string; problem: string }[] = [
  { name: 'a misspelt key', content: '{\n  "version": 2,\n  "aprovals": []\n}\n', problem: '"approvals" is missing (found "aprovals")' },
  { name: 'a bare array', content: '[]\n', problem: 'the top level is an array, not an object' },
  { name: 'an object under "approvals"', content: '{"version":2,"approvals":{}}', problem: 'approvals is an object, not an array' },
  { name: 'null', content: 'null\n', problem: 'the top level is null, not an object' },
  {
    name: 'an unknown field',
    content: '{"version": 2, "approvals": [], "reviewers": ["Ann"]}\n',
    problem: 'the top level has an unknown field "reviewers"',
  },
  { name: 'version 4', content: '{"version": 4, "approvals": []}\n', problem: 'version 4 is not one this visual-uat reads (2 or 3)' },
];

test.describe.configure({ mode: 'serial' });

let repo: string;
let file: string;
let latest: string;

test.beforeAll(() => {
  repo = createFixtureRepo({ fixture: 'demo-app' });
  file = path.join(repo, 'visual-uat.approvals.json');
  latest = path.join(repo, '.visual-uat', 'results', 'latest.json');
});

test('a run without an approvals file judges its changes: the results the refusals must leave alone', () => {
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))['plans › plans']).toBe('needs_review');
});

for (const { name, content, problem } of BROKEN)
  test(`an approvals file with ${name} stops the run before any test, and approve and reject leave it byte for byte`, async () => {
    fs.writeFileSync(file, content);
    const results = fs.readFileSync(latest);
    const before = repoState(repo);

    const run = runPlaywright(repo, ['test']);
    expect(run.status).toBe(1);
    const output = run.stdout + run.stderr;
    const refusal = `visual-uat: ${file}: ${problem}: `;
    // visual-uat says one thing, the refusal: no baseline pass, no result, no summary.
    expect(
      output.split('\n').filter((line) => line.includes('visual-uat')),
      output,
    ).toEqual([expect.stringContaining(refusal)]);
    expect(run.stdout).not.toMatch(/✓|passed/);
    expect(fs.readFileSync(latest)).toEqual(results);
    expect(repoState(repo)).toEqual(before);

    for (const args of [
      ['approve', '--all'],
      ['reject', 'pricing › plans › plans'],
    ]) {
      const decided = await runVisualUatAsync(repo, args);
      expect(decided.status, `${args.join(' ')}: ${decided.stdout}`).toBe(1);
      expect(decided.stderr.split('\n'), decided.stderr).toEqual([expect.stringContaining(refusal), '']);
      expect(decided.stdout).toBe('');
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
  });
