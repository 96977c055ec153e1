import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { gateExit, readLatest, statuses } from '../support/results';

/**
 * A config as teams write it (fixtures/signed-in-app): a `setup` project signs in and saves
 * storageState, `chromium` depends on it, and the config has its own globalSetup/globalTeardown.
 * The app keeps its sessions in memory, so a session the base server gave is refused by the
 * current one: the base side must sign in on its own server, and never hand its state to the
 * current tests.
 */

test('a setup project signs in on each side in turn: the gate holds the dependents, and an edited spec keeps the pass before the tests', async () => {
  const repo = createFixtureRepo({ fixture: 'signed-in-app' });
  const events = path.join(repo, 'events.log');
  const cold = runPlaywright(repo, ['test']);
  expect(cold.status, cold.stdout + cold.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual({ 'dashboard › dashboard': 'needs_review', 'orders › orders-table': 'unchanged' });
  // Playwright's own order, once per pass: the base pass (its own server, its own sign-in), then the current run.
  const [base, current] = fs.readFileSync(events, 'utf8').trim().split('global teardown\n');
  const baseOrigin = /global setup for (http:\S+)\nsign in on \1\n$/.exec(base)?.[1];
  expect(baseOrigin, base).toBeDefined();
  expect(current).toMatch(/^global setup for (http:\S+)\nsign in on \1\nglobal teardown$/);
  expect(current).not.toContain(baseOrigin);

  // One spec edited: the store gives the dashboard, the base renders the orders test (and signs in
  // again); beside the current tests, its sign-in would overwrite the state they read.
  const spec = path.join(repo, 'e2e', 'orders.spec.ts');
  fs.writeFileSync(
    spec,
    fs.readFileSync(spec, 'utf8').replace("await page.goto('/orders');", "await page.goto('/orders');\n  await page.mouse.move(0, 0);"),
  );
  fs.rmSync(events);
  const edited = runPlaywright(repo, ['test']);
  expect(edited.stdout).toContain(
    'the baseline pass runs before the current tests (1 test; setup project "setup" runs on each side in turn)',
  );
  expect(statuses(readLatest(repo))).toEqual({ 'dashboard › dashboard': 'needs_review', 'orders › orders-table': 'unchanged' });
  expect(edited.status, edited.stdout + edited.stderr).toBe(1);
  expect(fs.readFileSync(events, 'utf8').match(/sign in on/g)).toHaveLength(2);
});
