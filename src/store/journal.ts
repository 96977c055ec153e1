import fs from 'node:fs';
import { storeSuiteIndex } from '../config/paths';
import type { BaselineManifest, BaselineTestRecord } from '../types';
import { readBaselineSide, readManifest } from '../files/run-folder';
import { errorCode, writeFileAtomic } from '../util/fs';
import { readCheckedJson } from '../util/schema';
import { faultPoint } from '../config/fault-point';
import { contentsProblem, sealedContents, type SealedContents } from '../files/seal';
import { SEAL_FILE, storeTest } from './entry';
import { suiteSource, type RenderedTest } from './key';
import { writeSuiteIndex } from './suite-index';

/**
 * Storing a run's suite once its tests are done, under a journal (docs/store-journal.schema.json)
 * that names what is still to store, so a run killed meanwhile leaves it to the next.
 */

/** What the run's baseline entry holds that the store keeps: its files are the pass's, the store's copies, a top-up's. */
export interface SuiteToStore {
  store: string;
  baseCommit: string;
  suiteKey: string;
  /** The run's baseline entry. */
  entry: string;
  /** The tests the run rendered on the base, keyed by their sources (a test without one is kept for the suite only). */
  rendered: RenderedTest[];
  /** Captured again on purpose: an entry of the same sources is replaced. */
  replace: boolean;
}

export interface SuiteStored {
  /** Tests stored as their sources' baselines (another writer's entry already there does not count). */
  added: number;
  /** The suite's index, once every test with checkpoints is in the store (null: not written). */
  index: string | null;
  /** A write that failed (a full disk, no permission): its code and how many tests were not stored. */
  failure: { code: string; notStored: number } | null;
}

export interface Journal extends SuiteToStore {
  /** The run's baseline entry as it was when the storing began (see files/seal). */
  contents: SealedContents;
}

/**
 * Once the current tests are done: each test of the run's baseline entry that the store does not
 * hold yet goes into it (as its sources' baselines when it passed on the base, else for this suite
 * only), then the suite's index. `journal` names the tests to store until they are, so a run killed
 * meanwhile leaves them to the next (see resumeStoring). Null when the entry is no whole pass's.
 */
export function storeSuite(run: SuiteToStore, journal: string): SuiteStored | null {
  const manifest = readManifest(run.entry);
  if (!manifest?.complete) return null;
  const index = storeSuiteIndex(run.store, run.baseCommit, run.suiteKey);
  const pending = Object.entries(manifest.tests).filter(([, record]) => record.checkpoints.length > 0 && !record.storeEntry);
  if (pending.length === 0) return fs.existsSync(index) ? { added: 0, index, failure: null } : storeEntries(run, manifest, pending, index);
  const journaled: Journal = { ...run, contents: sealedContents(run.entry, SEAL_FILE) };
  writeFileAtomic(journal, JSON.stringify(journaled));
  try {
    return storeEntries(run, manifest, pending, index);
  } finally {
    fs.rmSync(journal, { force: true });
  }
}

function storeEntries(run: SuiteToStore, manifest: BaselineManifest, pending: [string, BaselineTestRecord][], index: string): SuiteStored {
  const sources = new Map(run.rendered.map(({ key, source }) => [key, source]));
  const tests = { ...manifest.tests };
  let added = 0;
  let whole = true;
  for (const [position, [key, record]] of pending.entries()) {
    const sides = record.checkpoints.map((name) => ({ name, side: readBaselineSide(run.entry, record.folder, name) }));
    if (sides.some(({ side }) => !side.image)) {
      whole = false;
      continue;
    }
    const checkpoints = sides.map(({ name, side }) => ({
      name,
      image: side.image!,
      signals: side.signals,
      layout: side.layout,
      settled: !!record.unsettled && !record.unsettled.includes(name),
    }));
    const own = record.status === 'passed' ? sources.get(key) : undefined;
    const source = own ?? suiteSource(run.suiteKey);
    try {
      if (storeTest(run.store, run.baseCommit, key, source, checkpoints, !own || run.replace) && own) added++;
    } catch (error) {
      return { added, index: null, failure: { code: errorCode(error), notStored: pending.length - position } };
    }
    tests[key] = { ...record, storeEntry: source.hash };
    faultPoint('store');
  }
  if (!whole) return { added, index: null, failure: null };
  try {
    writeSuiteIndex(index, run.suiteKey, { ...manifest, tests });
  } catch (error) {
    return { added, index: null, failure: { code: errorCode(error), notStored: 0 } };
  }
  return { added, index, failure: null };
}

/**
 * The storing a killed run left (its journal): its tests go into the store now, from its baseline
 * entry, when that entry is as it was (a file altered since is no baseline to keep); null when
 * there is none to resume for this store (`baseCommit`: the one the killed run stored for). The
 * journal goes either way.
 */
export function resumeStoring(
  journal: string,
  store: string,
): { stored: SuiteStored | null; baseCommit: string } | { problem: string } | null {
  const left = readCheckedJson<Journal>(journal, 'store-journal');
  if (!left || left.store !== store) {
    fs.rmSync(journal, { force: true });
    return null;
  }
  const problem = fs.existsSync(left.entry) ? contentsProblem(left.entry, left.contents) : 'its baseline entry is gone';
  if (problem) {
    fs.rmSync(journal, { force: true });
    return { problem };
  }
  const { contents: _contents, ...run } = left;
  return { stored: storeSuite(run, journal), baseCommit: run.baseCommit };
}
