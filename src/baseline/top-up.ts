import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { capturingTestsDir } from '../config/paths';
import type { BaselineManifest } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';
import type { ListedTest } from './selection';

/**
 * The check behind the baseline pass's selection. The pass runs only the tests a scan of their
 * sources says can capture; a scan can be wrong (code it cannot follow). So each test of the
 * current run that takes a checkpoint leaves a note, and once the current tests are done every
 * noted test the base entry has no record of runs on the base in a top-up pass, while the
 * worktree is still there: a wrong prediction costs that pass's time, never a `new` checkpoint.
 */

/** What `--test-list` needs to run one test again, its key, and where it is declared (for its store key). */
export type CapturingTest = Pick<ListedTest, 'key' | 'project' | 'relativeFile' | 'titlePath' | 'line' | 'column'>;

function noteFile(outputDir: string, key: string): string {
  return path.join(capturingTestsDir(outputDir), `${crypto.createHash('sha256').update(key).digest('hex').slice(0, 20)}.json`);
}

/** Called by a test's first checkpoint in the current role. */
export function noteCapturingTest(outputDir: string, test: CapturingTest): void {
  const file = noteFile(outputDir, test.key);
  if (!fs.existsSync(file)) writeFileAtomic(file, JSON.stringify(test));
}

/** A new run starts with no notes. */
export function clearCapturingTests(outputDir: string): void {
  fs.rmSync(capturingTestsDir(outputDir), { recursive: true, force: true });
}

/** The noted tests of which the base entry has no record: the top-up pass runs exactly these. */
export function testsWithoutBaseRecord(outputDir: string, manifest: BaselineManifest | null): CapturingTest[] {
  const dir = capturingTestsDir(outputDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => readJsonFile<CapturingTest>(path.join(dir, name)))
    .filter((test): test is CapturingTest => !!test && !manifest?.tests[test.key])
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Moves a completed top-up entry's tests into the run's entry; returns the keys it added. */
export function mergeTopUp(
  entry: BaselineManifest,
  entryDir: string,
  topUp: BaselineManifest,
  topUpDir: string,
): { manifest: BaselineManifest; added: string[] } {
  const tests = { ...entry.tests };
  const added: string[] = [];
  for (const [key, record] of Object.entries(topUp.tests)) {
    const from = path.join(topUpDir, record.folder);
    const to = path.join(entryDir, record.folder);
    fs.rmSync(to, { recursive: true, force: true });
    // The entry may hold no test of this project yet (a pass that ran none): its folder first.
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (fs.existsSync(from)) fs.renameSync(from, to);
    tests[key] = record;
    added.push(key);
  }
  return { manifest: { ...entry, tests }, added };
}
