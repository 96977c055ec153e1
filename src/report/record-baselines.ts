import type { FullConfig } from '@playwright/test/reporter';
import { captureOptions } from '../baseline/capture-inputs';
import { SourceGraph } from '../baseline/source-graph';
import { projectCaptures, pruneStore, sizeText, storeSize, storeTest, testDirData, testSource } from '../baseline/test-store';
import { testsIsolated } from '../config/isolation';
import { optionsFromEnv } from '../config/settings';
import type { RunContext } from '../types';
import { plural } from '../util/text';
import type { CollectedTest } from './collect';

/**
 * A run on the base itself (see RunContext.record) stores each test's current checkpoints as the
 * baselines of its commit, keyed as a pull request's run looks them up (see baseline/test-store):
 * only tests that passed with every checkpoint's image, since a failure may not last. Returns the
 * line that says what it stored.
 */
export async function recordBaselines(tests: readonly CollectedTest[], context: RunContext, config: FullConfig, configFile: string): Promise<string> {
  const { store, repoRoot } = context.record!;
  const graph = new SourceGraph(repoRoot);
  const options = captureOptions(optionsFromEnv());
  const capture = projectCaptures(options, config, repoRoot, configFile);
  const data = await testDirData({ root: repoRoot }, config.projects.map((project) => project.testDir));
  let stored = 0;
  let skipped = 0;
  for (const test of tests) {
    const source = test.status === 'passed' && test.pairs.every((pair) => pair.current) ? testSource(graph, { ...test.test.location, file: test.file }, { configFile, capture: capture(test.project), isolated: testsIsolated(config, test.project), data }) : null;
    if (!source) {
      skipped++;
      continue;
    }
    const checkpoints = test.pairs.map((pair) => ({ name: pair.name, image: pair.current!, signals: pair.meta?.signals ?? null, layout: pair.layouts.current, settled: pair.meta?.stable === true }));
    if (storeTest(store, context.baseCommit, test.key, source, checkpoints)) stored++;
  }
  pruneStore(store, context.baseCommit);
  const notStored = skipped ? `; ${plural(skipped, 'test')} not stored (failed, or outside the repository)` : '';
  return `visual-uat: recorded the baselines of ${context.baseCommit.slice(0, 8)}: ${plural(stored, 'test')} stored, ${tests.length - stored - skipped} there already${notStored} (store ${store}: ${sizeText(storeSize(store))})`;
}
