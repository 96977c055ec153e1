import type { FullConfig, TestCase } from '@playwright/test/reporter';
import { captureOptions, versions } from '../sources/capture-inputs';
import { SourceGraph } from '../sources/source-graph';
import { projectCaptures, testDirData, testSource } from '../store/key';
import { storeTest } from '../store/entry';
import { pruneStore, sizeText, storeSize } from '../store/prune';
import { STORE_OPTION } from '../store/home';
import { errorCode } from '../util/fs';
import { testsIsolated } from '../config/isolation';
import { identityOfTestCase } from '../config/test-identity';
import { optionsFromEnv } from '../config/settings';
import type { RunContext } from '../types';
import { plural } from '../util/text';
import type { CollectedTest } from './collect';

/**
 * A run on the base itself (see RunContext.record) stores each test's current checkpoints as the
 * baselines of its commit, keyed as a pull request's run looks them up (see store/entry):
 * only tests that passed with every checkpoint's image, since a failure may not last. A test that
 * passed and took no checkpoint is stored too, with none: a run that renders every listed test the
 * store lacks (a shard writing blobs) need not render it on the base. Returns the line that says
 * what it stored.
 */
export async function recordBaselines(
  tests: readonly CollectedTest[],
  allTests: readonly TestCase[],
  context: RunContext,
  config: FullConfig,
  configFile: string,
): Promise<string> {
  const { store, repoRoot } = context.record!;
  const graph = new SourceGraph(repoRoot);
  const options = captureOptions(optionsFromEnv());
  const capture = projectCaptures(options, config, repoRoot, versions(configFile));
  const data = await testDirData(
    { root: repoRoot },
    config.projects.map((project) => project.testDir),
  );
  const sourceOf = (location: TestCase['location'], project: string) =>
    testSource(graph, location, { configFile, capture: capture(project), isolated: testsIsolated(config, project), data });
  let stored = 0;
  let skipped = 0;
  let withoutCheckpoint = 0;
  const visual = new Set(tests.map((test) => test.test));
  try {
    for (const test of tests) {
      const source =
        test.status === 'passed' && test.pairs.every((pair) => pair.current) ? sourceOf(test.test.location, test.project) : null;
      if (!source) {
        skipped++;
        continue;
      }
      const checkpoints = test.pairs.map((pair) => ({
        name: pair.name,
        image: pair.current!,
        signals: pair.meta?.signals ?? null,
        layout: pair.layouts.current,
        settled: pair.meta?.stable === true,
      }));
      if (storeTest(store, context.baseCommit, test.key, source, checkpoints)) stored++;
    }
    for (const test of allTests) {
      if (visual.has(test) || test.results.at(-1)?.status !== 'passed') continue;
      const { key, project } = identityOfTestCase(test);
      const source = sourceOf(test.location, project);
      if (source && storeTest(store, context.baseCommit, key, source, [])) withoutCheckpoint++;
    }
  } catch (error) {
    return (
      `visual-uat: warning: the baselines of ${context.baseCommit.slice(0, 8)} could not be recorded in the baseline ` +
      `store ${store} (${errorCode(error)}) after ${plural(stored, 'test')}: free space or make it writable, or ` +
      `point ${STORE_OPTION} at another folder`
    );
  }
  pruneStore(store, context.baseCommit);
  const notStored = skipped ? `; ${plural(skipped, 'test')} not stored (failed, or outside the repository)` : '';
  const functional = withoutCheckpoint
    ? `; ${plural(withoutCheckpoint, 'test')} that took no checkpoint noted, so a sharded run need not ` +
      `render ${withoutCheckpoint === 1 ? 'it' : 'them'} on the base`
    : '';
  return (
    `visual-uat: recorded the baselines of ${context.baseCommit.slice(0, 8)}: ${plural(stored, 'test')} ` +
    `stored, ${tests.length - stored - skipped} there already${notStored}${functional} (store ${store}: ${sizeText(storeSize(store))})`
  );
}
