import { checkpointRecordPath } from '../config/layout';
import { readJsonFile, writeFileAtomic } from '../util/fs';

/**
 * What a current run's tests captured, test by test, kept for the next cold run: while the test
 * sources are the same (`testSources`, see cache-key), the same tests take the same checkpoints,
 * so the baseline pass can leave out tests that took none through a helper, and stop a test once
 * it has taken all of its own. Only tests that passed are recorded: a failed one may not have
 * reached its checkpoints.
 */
export interface CheckpointRecord {
  testSources: string;
  /** Test key → the checkpoints it took, in order. */
  tests: Record<string, string[]>;
}

export function writeCheckpointRecord(outputDir: string, record: CheckpointRecord): void {
  writeFileAtomic(checkpointRecordPath(outputDir), `${JSON.stringify(record, null, 2)}\n`);
}

/** The last run's record, when it ran the same test sources; null otherwise. */
export function readCheckpointRecord(outputDir: string, testSources: string): Map<string, string[]> | null {
  const record = readJsonFile<CheckpointRecord>(checkpointRecordPath(outputDir));
  if (!record || record.testSources !== testSources) return null;
  return new Map(Object.entries(record.tests));
}
