import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { worktreeHomes } from '../../src/config/paths';
import { repoState, type RepoState, extraWorktrees } from '../support/repo-state';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * A React component-test suite (fixtures/ct-app, its own @playwright/experimental-ct-react from the
 * registry): the base pass must mount the base's components, from a build of its own.
 */

test.describe.configure({ mode: 'serial' });

let repo: string;
let before: RepoState;
let run: ReturnType<typeof runPlaywright>;

test.beforeAll(async () => {
  repo = createFixtureRepo({ fixture: 'ct-app', branch: 'feature/primary-button' });
  // Work in progress: a component that is not in the base yet, with its test.
  fs.writeFileSync(path.join(repo, 'src', 'Tag.tsx'), "export const Tag = () => <em style={{ color: '#c00' }}>beta</em>;\n");
  fs.writeFileSync(
    path.join(repo, 'tests', 'tag.spec.tsx'),
    `import { test as ctTest } from '@playwright/experimental-ct-react';
import { mergeTests, test as visualUatTest } from 'visual-uat';
import { Tag } from '../src/Tag';
const test = mergeTests(ctTest, visualUatTest);
test('tag', async ({ mount, screenshotCheckpoint }) => {
  await mount(<Tag />);
  await screenshotCheckpoint('tag');
});
`,
  );
  before = repoState(repo);
  const started = Date.now();
  run = runPlaywright(repo, ['test', '-c', 'playwright-ct.config.ts']);
  console.log(`ct run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

test('the base pass mounts the base components: untouched unchanged, changed needs review', async () => {
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual({
    'badge › badge': 'unchanged',
    'button › button': 'needs_review',
    'button › page': 'needs_review',
    'tag › tag': 'new',
  });
  const button = checkpoint(results, 'button', 'button');
  // The element and the full page show one edit of Button.tsx: one group (one edit, one group).
  expect(button.checkpoint.reason).toBe('no evaluator configured — same change as 1 other checkpoint (group g1)');
  expect(checkpoint(results, 'button', 'page').checkpoint.reason).toBe(button.checkpoint.reason);
  expect(button.checkpoint.diffMetrics!.pixelDiffPercent).toBeGreaterThan(50);
  const tag = checkpoint(results, 'tag', 'tag');
  expect(tag.test.baselineAvailable).toBe(false);
  // The base's failure is the base's: the test passed here.
  expect(tag.test.error).toBeNull();
  expect(tag.test.baseError).toContain('src/Tag.tsx is not in the base commit');
});

test('a checkpoint without a target captures the mounted component, fullPage the page', async () => {
  const results = readLatest(repo);
  const size = (image: string) => {
    const png = fs.readFileSync(path.resolve(repo, '.visual-uat', 'results', image));
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  };
  const badge = size(checkpoint(results, 'badge', 'badge').checkpoint.currentImage!);
  expect(badge.width).toBeLessThan(100);
  expect(badge.height).toBeLessThan(40);
  expect(size(checkpoint(results, 'button', 'page').checkpoint.currentImage!)).toEqual({ width: 640, height: 360 });
});

test('the two builds keep separate caches: the current one from the checkout, the base one from the worktree', async () => {
  const sources = (cacheDir: string) =>
    Object.keys(JSON.parse(fs.readFileSync(path.join(repo, cacheDir, 'metainfo.json'), 'utf8')).sources);
  const button = path.join('src', 'Button.tsx');
  expect(sources('playwright/.cache')).toContain(path.join(fs.realpathSync(repo), button));
  const base = sources('.visual-uat/baseline-run/ct-cache').filter((file) => file.endsWith(button));
  expect(base).toHaveLength(1);
  expect(base[0].startsWith(`${worktreeHomes(path.join(fs.realpathSync(repo), '.visual-uat')).outside}${path.sep}`)).toBe(true);
});

test('the user repository is untouched and no worktree is left', async () => {
  expect(repoState(repo)).toEqual(before);
  expect(extraWorktrees(repo)).toEqual([]);
});
