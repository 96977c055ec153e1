import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, fixtureEnv, runPlaywright, visualUatCli } from '../../scripts/fixture-repo';
import { sha256File } from '../../src/util/hash';
import { checkpoint, readLatest, gateExit } from '../support/results';

/**
 * Approvals that stick on a page with rendering noise (issue 20): the noise-app draws its release
 * flow on a canvas whose anti-aliased pixels move by a few colour levels on every page load, below
 * the threshold. Its feature branch turns the Ship step amber. An approval of that change must hold
 * on every run, whatever bytes the noise gives the images; a real change of the approved change (its
 * colour moved again, its label changed) must make it stale.
 */

const RUNS = 4;

function visualUat(dir: string, args: string[]) {
  return spawnSync(process.execPath, [visualUatCli(dir), ...args], { cwd: dir, env: fixtureEnv(), encoding: 'utf8' });
}

test.describe.configure({ mode: 'serial' });

let repo: string;
let diagram: string;

test.beforeAll(() => {
  repo = createFixtureRepo({ fixture: 'noise-app' });
  diagram = path.join(repo, 'public', 'diagram.js');
});

function diagramCheckpoint() {
  const results = readLatest(repo);
  const found = checkpoint(results, 'release flow', 'diagram').checkpoint;
  const hash = (image: string | null) => sha256File(path.join(repo, '.visual-uat', 'results', image!));
  return { ...found, image: hash(found.currentImage), baseline: hash(found.baselineImage) };
}

test('the amber step needs review; approving it writes its change', () => {
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(diagramCheckpoint()).toMatchObject({ status: 'needs_review', group: 'g1' });
  const approved = visualUat(repo, ['approve', 'diagram', '--reason', 'Ship in amber']);
  expect(approved.status, approved.stderr).toBe(0);
  expect(approved.stdout).toContain('approved: flow.spec.ts › release flow › diagram (needs_review)');
});

test(`the approval holds on ${RUNS} runs in a row, each with other bytes, the last with the baselines captured again`, () => {
  const images = new Set<string>();
  const baselines = new Set<string>();
  for (let i = 0; i < RUNS; i++) {
    const run = runPlaywright(repo, ['test'], i === RUNS - 1 ? { VISUAL_UAT_UPDATE_BASELINES: '1' } : {});
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const seen = diagramCheckpoint();
    expect(seen.status, `run ${i + 1}: ${seen.reason}`).toBe('changed');
    expect(seen.reason).toMatch(/^approved by Visual UAT Fixture <fixture@visual-uat\.test> on \d{4}-\d\d-\d\d: Ship in amber$/);
    expect(run.stdout).not.toContain('stale approval');
    expect(run.stdout).toContain('1 checkpoint approved earlier (visual-uat.approvals.json)');
    images.add(seen.image);
    baselines.add(seen.baseline);
  }
  // The noise is real: the approved pair's bytes never came back, on either side.
  expect(images.size).toBe(RUNS);
  expect(baselines.size).toBe(2);
  console.log(`noise-app: the approval held on ${RUNS} of ${RUNS} runs, with ${images.size} different current images`);
});

/** Edits the approved diagram, runs, and expects the approval to be stale there; then puts the diagram back. */
function expectStaleAfter(from: string, to: string): void {
  const amber = fs.readFileSync(diagram, 'utf8');
  fs.writeFileSync(diagram, amber.replace(from, to));
  const run = runPlaywright(repo, ['test']);
  expect(diagramCheckpoint().status).toBe('needs_review');
  expect(run.stdout).toContain(
    'stale approval ignored: flow.spec.ts › release flow › diagram no longer shows the approved change; npx visual-uat approve --prune drops it',
  );
  fs.writeFileSync(diagram, amber);
}

test('a colour that moved makes the approval stale', () => {
  expectStaleAfter("fill: '#ffc940'", "fill: '#ff6a3d'");
});

test('a text that changed makes the approval stale; back to the approved change, it holds again', () => {
  expectStaleAfter("label: 'Ship'", "label: 'Deploy'");
  const again = runPlaywright(repo, ['test']);
  expect(again.status, again.stdout + again.stderr).toBe(gateExit(readLatest(repo)));
  expect(diagramCheckpoint().status).toBe('changed');
});
