import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteSource } from '../../../src/store/key';
import { lookUp, storeHolds, storeTest } from '../../../src/store/entry';
import { lookUpSuite, placeSuite } from '../../../src/store/suite-index';
import { resumeStoring, storeSuite } from '../../../src/store/journal';
import { forgetSuite, pruneStore } from '../../../src/store/prune';
import { readManifest, writeManifest } from '../../../src/files/run-folder';
import { storeEntryDir, storeSuiteIndex } from '../../../src/config/paths';
import { COMMIT, FAILED, KEY, passedRun, project, SUITE } from './store-project';

describe("the store's index of a suite (the warm run)", () => {
  it('is written once every test with checkpoints is stored: a passed test by its sources, a failed one for this suite only; a warm run copies them back whole', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    const journal = path.join(root, '.visual-uat', 'run', 'storing.json');
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: 'not in the store', doubtful: false });
    const stored = storeSuite(run, journal);
    expect(stored).toEqual({ added: 1, index: storeSuiteIndex(store, COMMIT, SUITE), failure: null });
    expect(fs.existsSync(journal)).toBe(false);
    // The failed test is no baseline of its sources: a look-up by them does not find it.
    expect(lookUp(store, COMMIT, KEY, source()).entry).toBe(storeEntryDir(store, COMMIT, KEY, source().hash));
    expect(storeHolds(store, COMMIT, FAILED)).toBe(false);
    expect(fs.existsSync(storeEntryDir(store, COMMIT, FAILED, suiteSource(SUITE).hash))).toBe(true);

    const found = lookUpSuite(store, COMMIT, SUITE);
    if ('reason' in found) throw new Error(`the index should be usable: ${found.reason}`);
    const warm = path.join(root, 'warm-entry');
    placeSuite(store, COMMIT, found.manifest, warm);
    expect(fs.readFileSync(path.join(warm, 'default/home/footer.png'), 'utf8')).toBe('footer png');
    // Linked, not copied: the warm run writes no image bytes; placing the same suite again keeps the links.
    const inode = () => fs.statSync(path.join(warm, 'default/home/footer.png')).ino;
    expect(inode()).toBe(fs.statSync(path.join(storeEntryDir(store, COMMIT, KEY, source().hash), 'footer.png')).ino);
    placeSuite(store, COMMIT, found.manifest, warm);
    expect(inode()).toBe(fs.statSync(path.join(storeEntryDir(store, COMMIT, KEY, source().hash), 'footer.png')).ino);
    expect(fs.readFileSync(path.join(warm, 'default/recommended/plans.png'), 'utf8')).toBe('plans png');
    expect(readManifest(warm)?.tests[FAILED]).toMatchObject({
      status: 'timedOut',
      error: 'Test timeout of 10000ms exceeded.',
      checkpoints: ['plans'],
    });
    expect(readManifest(warm)?.tests['api.spec.ts › health']).toMatchObject({ status: 'passed', checkpoints: [] });
    // A warm run's entry holds nothing new: the index is not written again.
    const written = fs.statSync(storeSuiteIndex(store, COMMIT, SUITE)).mtimeMs;
    expect(storeSuite({ ...run, entry: warm, rendered: [] }, journal)).toEqual({
      added: 0,
      index: storeSuiteIndex(store, COMMIT, SUITE),
      failure: null,
    });
    expect(fs.statSync(storeSuiteIndex(store, COMMIT, SUITE)).mtimeMs).toBe(written);
  });

  it('is doubtful when an entry it names is altered, gone or captured again without a checkpoint; an incomplete pass stores nothing', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    storeSuite(run, path.join(root, 'journal.json'));
    const entry = storeEntryDir(store, COMMIT, KEY, source().hash);
    fs.appendFileSync(path.join(entry, 'footer.png'), 'x');
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: 'the stored image of "footer" is altered', doubtful: true });
    storeTest(
      store,
      COMMIT,
      KEY,
      source(),
      [{ name: 'home', image: path.join(run.entry, 'default/home/home.png'), signals: null, layout: null, settled: true }],
      true,
    );
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({
      index: null,
      reason: `the store entry of ${KEY} has no "footer" (captured again since)`,
      doubtful: true,
    });
    fs.rmSync(entry, { recursive: true });
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: `the store entry of ${KEY} is gone`, doubtful: true });
    fs.writeFileSync(storeSuiteIndex(store, COMMIT, SUITE), '{"key":');
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({
      index: null,
      reason: "the store's index of this suite does not read",
      doubtful: true,
    });
    // Read whole: a record of another shape, or one whose folder leads out of the run's entry, is no index.
    const manifest = readManifest(run.entry)!;
    const [first] = Object.keys(manifest.tests);
    for (const record of [{ checkpoints: 'footer' }, { folder: '../../outside' }, { storeEntry: '../../../x' }]) {
      fs.writeFileSync(
        storeSuiteIndex(store, COMMIT, SUITE),
        JSON.stringify({
          version: 1,
          key: SUITE,
          sealedAt: new Date().toISOString(),
          manifest: { ...manifest, tests: { ...manifest.tests, [first]: { ...manifest.tests[first], ...record } } },
        }),
      );
      expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({
        index: null,
        reason: "the store's index of this suite does not read",
        doubtful: true,
      });
    }
    // One a newer visual-uat wrote says how to read it.
    fs.writeFileSync(
      storeSuiteIndex(store, COMMIT, SUITE),
      JSON.stringify({ version: 2, key: SUITE, sealedAt: new Date().toISOString(), manifest }),
    );
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({
      index: null,
      reason:
        "the store's index of this suite is of format 2, which a newer visual-uat wrote: upgrade visual-uat to take baselines from it",
      doubtful: true,
    });

    writeManifest(run.entry, { ...readManifest(run.entry)!, complete: false });
    expect(storeSuite(run, path.join(root, 'journal.json'))).toBeNull();
  });

  it('a run killed while it stores leaves a journal: the next run stores the rest and the index, unless the entry changed since', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    const journal = path.join(root, 'journal.json');
    expect(resumeStoring(journal, store)).toBeNull();
    // What storeSuite leaves when killed after its journal: the journal, no index.
    storeSuite(run, journal);
    forgetSuite(storeSuiteIndex(store, COMMIT, SUITE));
    const journaled = (contents: Record<string, string>) => fs.writeFileSync(journal, JSON.stringify({ ...run, contents }));
    const contents = Object.fromEntries(
      [
        'manifest.json',
        'default/home/home.png',
        'default/home/home.signals.json',
        'default/home/footer.png',
        'default/home/footer.signals.json',
        'default/recommended/plans.png',
        'default/recommended/plans.signals.json',
      ].map((file) => [
        file,
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(run.entry, file)))
          .digest('hex'),
      ]),
    );
    journaled(contents);
    expect(resumeStoring(journal, store)).toEqual({
      stored: { added: 1, index: storeSuiteIndex(store, COMMIT, SUITE), failure: null },
      baseCommit: COMMIT,
    });
    expect(fs.existsSync(journal)).toBe(false);
    expect(lookUpSuite(store, COMMIT, SUITE).index).toBe(storeSuiteIndex(store, COMMIT, SUITE));

    journaled(contents);
    fs.writeFileSync(path.join(run.entry, 'default/home/home.png'), 'altered');
    expect(resumeStoring(journal, store)).toEqual({ problem: 'the stored image of "home" is altered' });
    expect(fs.existsSync(journal)).toBe(false);
    // A journal of another store is not this run's to resume.
    journaled(contents);
    expect(resumeStoring(journal, path.join(root, 'other-store'))).toBeNull();
  });

  it('a write that fails stops the storing with its code and how many tests were not stored; no index', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, COMMIT), 'a file where the commit folder goes');
    const stored = storeSuite(run, path.join(root, 'journal.json'));
    expect(stored?.index).toBeNull();
    expect(stored?.failure?.code).toMatch(/ENOTDIR|EEXIST/);
    expect(stored?.failure?.notStored).toBe(2);
  });

  it('goes in the prune with the entries it names, and with its commit; forgetSuite drops it and its entries', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    storeSuite(run, path.join(root, 'journal.json'));
    const index = storeSuiteIndex(store, COMMIT, SUITE);
    pruneStore(store, COMMIT);
    expect(fs.existsSync(index)).toBe(true);
    fs.rmSync(path.join(storeEntryDir(store, COMMIT, FAILED, suiteSource(SUITE).hash), 'entry.json'));
    pruneStore(store, COMMIT);
    expect(fs.existsSync(index)).toBe(false);

    storeSuite(run, path.join(root, 'journal.json'));
    forgetSuite(index);
    expect(fs.existsSync(index)).toBe(false);
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'not in the store' });
  });
});
