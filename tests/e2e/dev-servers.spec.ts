import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * Dev servers installed from npm, as projects run them (fixtures/vite-app, its own dependencies
 * from the registry): Vite with its port as a flag (`vite --port 5173 --strictPort`, which never
 * reads PORT), and http-server, which reads PORT. The branch restyles the metric cards and leaves
 * the header alone.
 */

const EXPECTED = { 'overview › metrics': 'needs_review', 'overview › header': 'unchanged' };

test.describe.configure({ mode: 'parallel' });

test('a Vite dev server with its port as a flag: the base runs on its own port, from the base sources', async () => {
  const repo = createFixtureRepo({ fixture: 'vite-app', branch: 'feature/cards' });
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual(EXPECTED);
  // A symlinked node_modules resolves outside the worktree, where Vite refuses to serve the web font.
  expect(run.stdout).toMatch(
    /visual-uat: base dependencies: lockfile unchanged: node_modules hard-linked into the base worktree in \d+\.\d s/,
  );
  expect(fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8')).not.toContain(
    'outside of Vite serving allow list',
  );
});

test('http-server reading PORT', async () => {
  const repo = createFixtureRepo({ fixture: 'vite-app', branch: 'feature/cards' });
  const run = runPlaywright(repo, ['test', '-c', 'http-server.config.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo, '.visual-uat-static')));
  expect(statuses(readLatest(repo, '.visual-uat-static'))).toEqual(EXPECTED);
});
