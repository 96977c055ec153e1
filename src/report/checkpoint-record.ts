import type { TestCase } from '@playwright/test/reporter';
import type { CheckpointRecord } from '../baseline/record';
import { testKey } from '../config/layout';
import type { CollectedTest } from './collect';

/** Every test of the run that passed, with the checkpoints it took (none for most functional tests). */
export function checkpointRecordOf(tests: readonly TestCase[], collected: readonly CollectedTest[], testSources: string): CheckpointRecord {
  const taken = new Map(collected.map((test) => [test.test, test.pairs.filter((pair) => pair.current).map((pair) => pair.name)]));
  const record: CheckpointRecord['tests'] = {};
  for (const test of tests) {
    if (test.results[test.results.length - 1]?.status !== 'passed') continue;
    const key = collected.find((entry) => entry.test === test)?.key ?? testKey(test.parent.project()?.name ?? '', test.titlePath().slice(2));
    record[key] = taken.get(test) ?? [];
  }
  return { testSources, tests: record };
}
