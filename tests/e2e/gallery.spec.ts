import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { repoState, type RepoState, extraWorktrees } from '../support/repo-state';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';
import type { RunResult } from '../../src/report';

/**
 * Component tests on Playwright's built-in mount(storyId, props) (fixtures/gallery-app: a React
 * library whose Vite dev server serves gallery.html, stories found with import.meta.glob). The
 * branch makes the Button brand-blue on purpose, leaves Badge and Avatar alone and adds a Tag
 * story with its test, which names the gallery in the spec file (test.use baseURL).
 */

const EXPECTED = {
  'button › primary': 'needs_review',
  'button › gallery': 'needs_review',
  'badge › few': 'unchanged',
  'badge › many': 'unchanged',
  'profile › profile': 'unchanged',
  'docs › docs': 'unchanged',
  'tag › tag': 'new',
};

function pngSize(file: string): { width: number; height: number } {
  const png = fs.readFileSync(file);
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function imageSize(
  repo: string,
  results: RunResult,
  testTitle: string,
  name: string,
  which: 'currentImage' | 'baselineImage' = 'currentImage',
) {
  const image = checkpoint(results, testTitle, name).checkpoint[which];
  expect(image, `${testTitle} › ${name} has a ${which}`).toBeTruthy();
  return pngSize(path.resolve(repo, '.visual-uat', 'results', image!));
}

test.describe('a story gallery', () => {
  test.describe.configure({ mode: 'serial' });
  let repo: string;
  let before: RepoState;
  let run: ReturnType<typeof runPlaywright>;

  test.beforeAll(() => {
    repo = createFixtureRepo({ fixture: 'gallery-app', branch: 'feature/brand-button' });
    before = repoState(repo);
    // Colour on, as in CI logs: the gallery's error must still reach the results as plain text.
    run = runPlaywright(repo, ['test'], { FORCE_COLOR: '1' });
  });

  test('the base pass renders the base stories: changed needs review, untouched unchanged, added new', () => {
    expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
    const results = readLatest(repo);
    expect(statuses(results)).toEqual(EXPECTED);
    expect(checkpoint(results, 'button', 'primary').checkpoint.diffMetrics!.pixelDiffPercent).toBeGreaterThan(50);
    const tag = checkpoint(results, 'tag', 'tag');
    expect(tag.test.baselineAvailable).toBe(false);
    // The base gallery's own words, reached through the spec file's baseURL (another host name than the config's).
    expect(tag.checkpoint.reason).toBe(
      'no baseline: the base test failed before it took this checkpoint (Error: page.evaluate: Error: Unknown story "components/Tag/Beta": this gallery has no src/components/Tag.story.tsx)',
    );
    expect(tag.test).toMatchObject({ error: null, baseError: expect.stringContaining('Unknown story "components/Tag/Beta"') });
    expect(tag.checkpoint.reason).not.toMatch(/\u001b/);
  });

  test('a checkpoint after mount() is the story; fullPage, and a React app in #root without a gallery, are the page', () => {
    const results = readLatest(repo);
    const primary = imageSize(repo, results, 'button', 'primary');
    expect(primary.width).toBeLessThan(120);
    expect(primary.height).toBeLessThan(50);
    expect(imageSize(repo, results, 'button', 'primary', 'baselineImage')).toEqual(primary);
    expect(imageSize(repo, results, 'button', 'gallery')).toEqual({ width: 1280, height: 720 });
    expect(imageSize(repo, results, 'docs', 'docs')).toEqual({ width: 1280, height: 720 });
    // Fetched after the first render, photo loaded after that: captured in its final state in both passes.
    const profile = imageSize(repo, results, 'profile', 'profile');
    expect(profile.height).toBeGreaterThanOrEqual(56);
    expect(profile.width).toBeLessThan(300);
  });

  test('update() re-renders the mounted story: the checkpoint after it shows the new props in both passes', () => {
    const results = readLatest(repo);
    for (const which of ['currentImage', 'baselineImage'] as const) {
      const few = imageSize(repo, results, 'badge', 'few', which);
      const many = imageSize(repo, results, 'badge', 'many', which);
      expect(many.height).toBe(few.height);
      expect(many.width).toBeGreaterThan(few.width + 10);
    }
  });

  test('the user repository is untouched and no worktree is left', () => {
    expect(repoState(repo)).toEqual(before);
    expect(extraWorktrees(repo)).toEqual([]);
  });
});

test('a gallery suite in two shards merged by merge-reports gives the unsharded verdicts', () => {
  const repo = createFixtureRepo({ fixture: 'gallery-app', branch: 'feature/brand-button' });
  const blobs = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-gallery-blobs-'));
  for (const shard of ['1/2', '2/2']) {
    const out = path.join(blobs, `shard-${shard[0]}`);
    const result = runPlaywright(repo, ['test', `--shard=${shard}`, '--fully-parallel', '--reporter=blob'], {
      PLAYWRIGHT_BLOB_OUTPUT_DIR: out,
    });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    for (const file of fs.readdirSync(out)) fs.copyFileSync(path.join(out, file), path.join(blobs, file));
  }
  // The merge job's machine: a checkout with no output folder of any shard.
  fs.rmSync(path.join(repo, '.visual-uat'), { recursive: true });
  const merged = runPlaywright(repo, ['merge-reports', '--reporter=visual-uat/reporter,html', blobs]);
  expect(merged.status, merged.stdout + merged.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual(EXPECTED);
  expect(imageSize(repo, results, 'button', 'primary').width).toBeLessThan(120);
});
