import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceGraph } from '../../../src/sources/source-graph';
import { testDirData, suiteSource, testSource } from '../../../src/store/key';
import { copyEntry, earlierRender, lookUp, storeHolds, storeTest, storedRecord } from '../../../src/store/entry';
import { lookUpSuite, placeSuite } from '../../../src/store/suite-index';
import { resumeStoring, storeSuite, type SuiteToStore } from '../../../src/store/journal';
import { forgetSuite, pruneStore, storeSize } from '../../../src/store/prune';
import { readManifest, writeManifest } from '../../../src/files/run-folder';
import { clean } from '../../../src/cli';
import { openStore, STORE_MARKER, STORE_OPTION } from '../../../src/store/home';
import { baselineEntryDir, storeCommitDir, storeEntryDir, storeSuiteIndex } from '../../../src/config/paths';
import { resolveSettings } from '../../../src/config/settings';

const COMMIT = 'a'.repeat(40);
const KEY = 'po.spec.ts › home-po';

/** A repository-shaped folder: a config, two specs, a page object one of them imports. */
function project() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-store-')));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('playwright.config.ts', "export default { testDir: 'tests' };\n");
  write('tests/pages/home.ts', 'export const open = () => 1;\n');
  write('tests/po.spec.ts', "import { open } from './pages/home';\nopen();\n");
  write('tests/about.spec.ts', 'export {};\n');
  const store = path.join(root, 'store');
  const image = path.join(root, 'home.png');
  fs.writeFileSync(image, 'png bytes');
  const source = (spec = 'tests/po.spec.ts', capture = 'chromium', data: Record<string, string> = {}) => testSource(new SourceGraph(root), { file: path.join(root, spec), line: 1, column: 1 }, { configFile: path.join(root, 'playwright.config.ts'), capture, isolated: false, data })!;
  return { root, write, store, image, source };
}

describe('per-test baseline store', () => {
  it("keys a test by its own closure: another spec's edit leaves it, its page object's edit changes it", () => {
    const { write, source } = project();
    const before = source();
    expect(Object.keys(before.files)).toEqual(['playwright.config.ts', 'tests/pages/home.ts', 'tests/po.spec.ts']);
    write('tests/about.spec.ts', 'export const edited = true;\n');
    expect(source().hash).toBe(before.hash);
    write('tests/pages/home.ts', 'export const open = () => 2;\n');
    expect(source().hash).not.toBe(before.hash);
    expect(source('tests/po.spec.ts', 'firefox').hash).not.toBe(source().hash);
  });

  it('finds a stored entry, copies it with its layout records, and says which file changed when the sources moved on', async () => {
    const { write, store, image, source, root } = project();
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'not in the store' });
    expect(storeHolds(store, COMMIT, KEY)).toBe(false);
    const layout = path.join(root, 'home.layout.json.gz');
    fs.writeFileSync(layout, 'layout bytes');
    expect(storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: { console: [] }, layout, settled: true }])).toBe(true);
    expect(storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }])).toBe(false);
    // The cheap look the setup takes before hashing the sources of a test its selection left out.
    expect(storeHolds(store, COMMIT, KEY)).toBe(true);
    expect(storeHolds(store, COMMIT, 'about.spec.ts › about')).toBe(false);
    // An entry of a test that took no checkpoint (record notes those) is no reason to hash its sources.
    expect(storeTest(store, COMMIT, 'checkout.spec.ts › pays', source(), [])).toBe(true);
    expect(storeHolds(store, COMMIT, 'checkout.spec.ts › pays')).toBe(false);
    const found = lookUp(store, COMMIT, KEY, source());
    // Its seal says which checkpoints have a layout record, and so does its record in a run's manifest.
    expect(found).toEqual({ entry: storeEntryDir(store, COMMIT, KEY, source().hash), source: source().hash, checkpoints: ['home'], layouts: ['home'] });
    if (!found.entry) throw new Error('the stored entry should be found');
    expect(storedRecord('default/home-po-1234', found.checkpoints, found.source, found.layouts)).toEqual({ folder: 'default/home-po-1234', status: 'passed', error: null, checkpoints: ['home'], layouts: ['home'], storeEntry: source().hash });
    const run = path.join(root, 'run-entry');
    copyEntry(found.entry!, ['home'], run, 'default/home-po-1234');
    expect(fs.readFileSync(path.join(run, 'default/home-po-1234/home.png'), 'utf8')).toBe('png bytes');
    expect(JSON.parse(fs.readFileSync(path.join(run, 'default/home-po-1234/home.signals.json'), 'utf8'))).toEqual({ console: [] });
    // The layout record travels too: a change against a stored baseline is explained like any other.
    expect(fs.readFileSync(path.join(run, 'default/home-po-1234/home.layout.json.gz'), 'utf8')).toBe('layout bytes');

    // A comment changes no behaviour (the spec counts by its tokens); code does.
    write('tests/po.spec.ts', "import { open } from './pages/home';\nopen(); // edited\n");
    expect(lookUp(store, COMMIT, KEY, source()).entry).toBe(found.entry);
    write('tests/po.spec.ts', "import { open } from './pages/home';\nopen(); open();\n");
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'tests/po.spec.ts changed' });
    expect(lookUp(store, 'b'.repeat(40), KEY, source())).toEqual({ entry: null, reason: 'not in the store' });

    // Another branch stored its edit of the spec last: the reason names what differs from the closest version, not the newest.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }])).toBe(true);
    write('tests/po.spec.ts', "import { open } from './pages/home';\nopen();\n");
    write('tests/pages/home.ts', 'export const open = () => 3;\n');
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'tests/pages/home.ts changed' });
  });

  it('never uses a doubtful entry: altered image, missing image, no seal', () => {
    const { store, image, source } = project();
    storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
    const entry = storeEntryDir(store, COMMIT, KEY, source().hash);
    fs.appendFileSync(path.join(entry, 'home.png'), 'x');
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'the stored image of "home" is altered' });
    fs.rmSync(path.join(entry, 'home.png'));
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'the stored image of "home" is missing' });
    fs.rmSync(path.join(entry, 'entry.json'));
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'its store entry is unsealed' });
    // A doubtful entry is replaced by the next store; no temporary folder stays.
    expect(storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }])).toBe(true);
    expect(lookUp(store, COMMIT, KEY, source()).entry).toBe(entry);
    expect(fs.readdirSync(path.dirname(entry))).toEqual([path.basename(entry)]);
  });

  it('seals every file it serves: signals and layout records altered or cut are doubtful, as images are; an entry a newer visual-uat sealed is rendered again, saying so', () => {
    const { store, image, source, root } = project();
    const layout = path.join(root, 'home.layout.json.gz');
    fs.writeFileSync(layout, 'layout bytes');
    const store1 = () => storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: { console: ['boom'] }, layout, settled: true }], true);
    const entry = storeEntryDir(store, COMMIT, KEY, source().hash);
    store1();
    expect(lookUp(store, COMMIT, KEY, source()).entry).toBe(entry);
    const signals = path.join(entry, 'home.signals.json');
    fs.writeFileSync(signals, fs.readFileSync(signals, 'utf8').slice(0, 5));
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'the stored signals of "home" are altered' });
    store1();
    fs.rmSync(path.join(entry, 'home.layout.json.gz'));
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'the stored layout record of "home" is missing' });
    store1();
    const seal = path.join(entry, 'entry.json');
    const { contents: _, ...sealed } = JSON.parse(fs.readFileSync(seal, 'utf8'));
    fs.writeFileSync(seal, JSON.stringify({ ...sealed, version: 2, images: {} }));
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'its store entry is of format 2, which a newer visual-uat wrote: upgrade visual-uat to take baselines from it' });
    // A seal cut short is no seal.
    fs.writeFileSync(seal, '{"key":');
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'its store entry is unsealed' });
  });

  it('a write that fails for want of room or rights throws; it is not taken for another writer that won', () => {
    const { store, image, source } = project();
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, COMMIT), 'a file where the commit folder goes');
    expect(() => storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }])).toThrow(/ENOTDIR|EEXIST/);
  });

  it('keys every test by the data files under the testDirs, which a test may read by path', async () => {
    const { root, write, store, image, source } = project();
    execFileSync('git', ['init', '-q'], { cwd: root });
    write('tests/data/target.json', '{ "path": "/pricing" }\n');
    const data = async () => testDirData({ root }, [path.join(root, 'tests')]);
    expect(Object.keys(await data())).toEqual(['tests/data/target.json']);
    storeTest(store, COMMIT, KEY, source('tests/po.spec.ts', 'chromium', await data()), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
    write('tests/data/target.json', '{ "path": "/products" }\n');
    expect(lookUp(store, COMMIT, KEY, source('tests/po.spec.ts', 'chromium', await data()))).toEqual({ entry: null, reason: 'tests/data/target.json changed' });
  });

  it("names a test's earlier render that held still: this commit's first, then another commit's; never an unsettled checkpoint", () => {
    const { write, store, image, source } = project();
    const other = 'b'.repeat(40);
    expect(earlierRender(store, COMMIT, KEY)).toBeNull();
    const before = source();
    storeTest(store, other, KEY, before, [{ name: 'home', image, signals: null, layout: null, settled: true }]);
    expect(earlierRender(store, COMMIT, KEY)).toEqual({ entry: storeEntryDir(store, other, KEY, before.hash), settled: ['home'] });
    storeTest(store, COMMIT, KEY, before, [
      { name: 'home', image, signals: null, layout: null, settled: true },
      { name: 'carousel', image, signals: null, layout: null, settled: false },
    ]);
    // The spec is edited: its entry no longer serves as a baseline, but still as an earlier render.
    write('tests/po.spec.ts', "import { open } from './pages/home';\nopen(); open();\n");
    expect(lookUp(store, COMMIT, KEY, source()).entry).toBeNull();
    expect(earlierRender(store, COMMIT, KEY)).toEqual({ entry: storeEntryDir(store, COMMIT, KEY, before.hash), settled: ['home'] });
    // An entry from before the seal said which checkpoints held still proves nothing.
    const seal = path.join(storeEntryDir(store, COMMIT, KEY, before.hash), 'entry.json');
    const { unsettled: _, ...older } = JSON.parse(fs.readFileSync(seal, 'utf8'));
    fs.writeFileSync(seal, JSON.stringify(older));
    expect(earlierRender(store, COMMIT, KEY)?.entry).toBe(storeEntryDir(store, other, KEY, before.hash));
  });

  it('keeps the newest commits, and reports its size', () => {
    const { store, image, source } = project();
    const commits = ['1', '2', '3'].map((digit) => digit.repeat(40));
    commits.forEach((commit, index) => {
      storeTest(store, commit, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
      const when = new Date(Date.now() - (3 - index) * 60_000);
      fs.utimesSync(storeCommitDir(store, commit), when, when);
    });
    expect(storeSize(store)).toMatchObject({ commits: 3, entries: 3 });
    pruneStore(store, commits[0], 1);
    expect(fs.readdirSync(store).sort()).toEqual([commits[0], commits[2]]);
    expect(storeSize(store).bytes).toBeGreaterThan(0);
  });

  it('prunes only what it can name as its own: sealed entries and its unfinished writes; anything else stays, and a stray .DS_Store is ignored', () => {
    const { store, image, source } = project();
    const [old, kept] = ['1', '2'].map((digit) => digit.repeat(40));
    for (const commit of [old, kept]) storeTest(store, commit, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
    const entry = storeEntryDir(store, old, KEY, source().hash);
    const testDir = path.dirname(entry);
    // A user's folders and files where commit folders are, and inside an old commit's test folder.
    fs.mkdirSync(path.join(store, 'my-project', 'src'), { recursive: true });
    fs.writeFileSync(path.join(store, 'my-project', 'src', 'index.ts'), 'export {};\n');
    fs.mkdirSync(path.join(store, 'b'.repeat(40)), { recursive: true });
    fs.writeFileSync(path.join(store, 'b'.repeat(40), 'notes.txt'), 'mine\n');
    fs.mkdirSync(path.join(testDir, 'abcdefabcdefabcd'));
    fs.writeFileSync(path.join(testDir, 'abcdefabcdefabcd', 'keep.txt'), 'mine\n');
    fs.mkdirSync(path.join(testDir, `${path.basename(entry)}.123.deadbeef.tmp`));
    for (const folder of [store, storeCommitDir(store, kept), testDir]) fs.writeFileSync(path.join(folder, '.DS_Store'), 'finder');
    const when = new Date(Date.now() - 3 * 60_000);
    fs.utimesSync(storeCommitDir(store, old), when, when);
    pruneStore(store, null, 1);
    expect(fs.existsSync(entry)).toBe(false);
    expect(fs.readdirSync(testDir).sort()).toEqual(['.DS_Store', 'abcdefabcdefabcd']);
    expect(fs.readFileSync(path.join(testDir, 'abcdefabcdefabcd', 'keep.txt'), 'utf8')).toBe('mine\n');
    expect(fs.readFileSync(path.join(store, 'my-project', 'src', 'index.ts'), 'utf8')).toBe('export {};\n');
    expect(fs.readFileSync(path.join(store, 'b'.repeat(40), 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(lookUp(store, kept, KEY, source()).entry).toBe(storeEntryDir(store, kept, KEY, source().hash));
    expect(storeSize(store).entries).toBe(1);
  });
});

const SUITE = 'c'.repeat(64);
const FAILED = 'recommended.spec.ts › recommended';

/**
 * A run's baseline entry as a pass leaves it: KEY passed with two checkpoints, FAILED failed on
 * the base after one, and a test that took none.
 */
function passedRun(root: string, store: string, source: ReturnType<ReturnType<typeof project>['source']>): SuiteToStore {
  const entry = baselineEntryDir(path.join(root, '.visual-uat'), COMMIT, SUITE);
  const write = (folder: string, name: string, bytes: string) => {
    fs.mkdirSync(path.join(entry, folder), { recursive: true });
    fs.writeFileSync(path.join(entry, folder, `${name}.png`), bytes);
    fs.writeFileSync(path.join(entry, folder, `${name}.signals.json`), JSON.stringify({ console: [name] }));
  };
  write('default/home', 'home', 'home png');
  write('default/home', 'footer', 'footer png');
  write('default/recommended', 'plans', 'plans png');
  writeManifest(entry, {
    complete: true,
    tests: {
      [KEY]: { folder: 'default/home', status: 'passed', error: null, checkpoints: ['home', 'footer'], unsettled: [], layouts: [] },
      [FAILED]: { folder: 'default/recommended', status: 'timedOut', error: 'Test timeout of 10000ms exceeded.', checkpoints: ['plans'], unsettled: [], layouts: [] },
      'api.spec.ts › health': { folder: 'default/health', status: 'passed', error: null, checkpoints: [], layouts: [] },
    },
  });
  return { store, baseCommit: COMMIT, suiteKey: SUITE, entry, rendered: [{ key: KEY, source }], replace: false };
}

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
    expect(readManifest(warm)?.tests[FAILED]).toMatchObject({ status: 'timedOut', error: 'Test timeout of 10000ms exceeded.', checkpoints: ['plans'] });
    expect(readManifest(warm)?.tests['api.spec.ts › health']).toMatchObject({ status: 'passed', checkpoints: [] });
    // A warm run's entry holds nothing new: the index is not written again.
    const written = fs.statSync(storeSuiteIndex(store, COMMIT, SUITE)).mtimeMs;
    expect(storeSuite({ ...run, entry: warm, rendered: [] }, journal)).toEqual({ added: 0, index: storeSuiteIndex(store, COMMIT, SUITE), failure: null });
    expect(fs.statSync(storeSuiteIndex(store, COMMIT, SUITE)).mtimeMs).toBe(written);
  });

  it('is doubtful when an entry it names is altered, gone or captured again without a checkpoint; an incomplete pass stores nothing', () => {
    const { root, store, source } = project();
    const run = passedRun(root, store, source());
    storeSuite(run, path.join(root, 'journal.json'));
    const entry = storeEntryDir(store, COMMIT, KEY, source().hash);
    fs.appendFileSync(path.join(entry, 'footer.png'), 'x');
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: 'the stored image of "footer" is altered', doubtful: true });
    storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image: path.join(run.entry, 'default/home/home.png'), signals: null, layout: null, settled: true }], true);
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: `the store entry of ${KEY} has no "footer" (captured again since)`, doubtful: true });
    fs.rmSync(entry, { recursive: true });
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: `the store entry of ${KEY} is gone`, doubtful: true });
    fs.writeFileSync(storeSuiteIndex(store, COMMIT, SUITE), '{"key":');
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: "the store's index of this suite does not read", doubtful: true });
    // Read whole: a record of another shape, or one whose folder leads out of the run's entry, is no index.
    const manifest = readManifest(run.entry)!;
    const [first] = Object.keys(manifest.tests);
    for (const record of [{ checkpoints: 'footer' }, { folder: '../../outside' }, { storeEntry: '../../../x' }]) {
      fs.writeFileSync(storeSuiteIndex(store, COMMIT, SUITE), JSON.stringify({ version: 1, key: SUITE, sealedAt: new Date().toISOString(), manifest: { ...manifest, tests: { ...manifest.tests, [first]: { ...manifest.tests[first], ...record } } } }));
      expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: "the store's index of this suite does not read", doubtful: true });
    }
    // One a newer visual-uat wrote says how to read it.
    fs.writeFileSync(storeSuiteIndex(store, COMMIT, SUITE), JSON.stringify({ version: 2, key: SUITE, sealedAt: new Date().toISOString(), manifest }));
    expect(lookUpSuite(store, COMMIT, SUITE)).toEqual({ index: null, reason: "the store's index of this suite is of format 2, which a newer visual-uat wrote: upgrade visual-uat to take baselines from it", doubtful: true });

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
    const contents = Object.fromEntries(['manifest.json', 'default/home/home.png', 'default/home/home.signals.json', 'default/home/footer.png', 'default/home/footer.signals.json', 'default/recommended/plans.png', 'default/recommended/plans.signals.json'].map((file) => [file, crypto.createHash('sha256').update(fs.readFileSync(path.join(run.entry, file))).digest('hex')]));
    journaled(contents);
    expect(resumeStoring(journal, store)).toEqual({ stored: { added: 1, index: storeSuiteIndex(store, COMMIT, SUITE), failure: null }, baseCommit: COMMIT });
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

describe('the store folder', () => {
  it('is made with its marker, and an ignore file when it lies in the repository', () => {
    const { root } = project();
    const inside = path.join(root, 'baselines-store');
    expect(openStore(inside, root)).toEqual({ dir: inside, readable: true, writable: true, warning: null });
    expect(fs.readdirSync(inside).sort()).toEqual(['.gitignore', STORE_MARKER]);
    expect(fs.readFileSync(path.join(inside, '.gitignore'), 'utf8')).toBe('*\n');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'store-outside-'));
    expect(openStore(path.join(outside, 'store'), root).writable).toBe(true);
    expect(fs.readdirSync(path.join(outside, 'store'))).toEqual([STORE_MARKER]);
  });

  it('is not used when the path is a file, or a folder of files visual-uat did not write; a store of commit folders from before markers is adopted', () => {
    const { root } = project();
    const file = path.join(root, 'store-file');
    fs.writeFileSync(file, 'x');
    expect(openStore(file, root)).toEqual({ dir: file, readable: false, writable: false, warning: `the baseline store ${file} is a file, not a folder: point ${STORE_OPTION} at a folder; this run neither reads nor writes it` });
    const home = path.join(root, 'home');
    for (const name of ['.bashrc', 'projects', 'notes.txt', 'music', 'a'.repeat(40)]) fs.mkdirSync(path.join(home, name), { recursive: true });
    const refused = openStore(home, root);
    expect(refused).toMatchObject({ readable: false, writable: false });
    expect(refused.warning).toBe(`the baseline store ${home} holds files visual-uat did not write (.bashrc, music, notes.txt, and 1 more) and no ${STORE_MARKER}: point ${STORE_OPTION} at a new or empty folder (nothing in this one was read or removed); this run neither reads nor writes it`);
    expect(fs.existsSync(path.join(home, STORE_MARKER))).toBe(false);
    const older = path.join(root, 'older-store');
    fs.mkdirSync(path.join(older, 'c'.repeat(40)), { recursive: true });
    fs.writeFileSync(path.join(older, '.DS_Store'), 'finder');
    expect(openStore(older, root).writable).toBe(true);
    expect(fs.existsSync(path.join(older, STORE_MARKER))).toBe(true);
  });
});

describe('visual-uat clean and a shared store', () => {
  it('prunes a store outside the output folder to its newest commits instead of removing it', async () => {
    const { root, store, image, source } = project();
    const commits = ['1', '2'].map((digit) => digit.repeat(40));
    commits.forEach((commit, index) => {
      storeTest(store, commit, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
      const when = new Date(Date.now() - (2 - index) * 60_000);
      fs.utimesSync(storeCommitDir(store, commit), when, when);
    });
    const outputDir = path.join(root, '.visual-uat');
    fs.mkdirSync(path.join(outputDir, 'results'), { recursive: true });
    const settings = resolveSettings(path.join(root, 'playwright.config.ts'), { baselineStore: 'store' }, {});
    expect(settings.baselineStore).toBe(store);
    const said = await clean(settings, 1);
    expect(fs.existsSync(outputDir)).toBe(false);
    expect(said).toEqual([
      `visual-uat clean: baseline store ${store}: 2 commits, 2 stored tests, 0.0 MB before, 1 commit, 1 stored test, 0.0 MB kept (the newest 1 base commit)`,
      expect.stringMatching(/^visual-uat clean: removed .*\.visual-uat\/results$/),
    ]);
    expect(await clean(settings, 1)).toEqual([
      `visual-uat clean: baseline store ${store}: 1 commit, 1 stored test, 0.0 MB, nothing to prune (it keeps the newest 1 base commit)`,
      expect.stringMatching(/^visual-uat clean: nothing else to remove \(.*\.visual-uat does not exist\)$/),
    ]);
    expect(fs.readdirSync(store)).toEqual([commits[1]]);
  });

  it('removes from the output folder only what runs write there: an output folder set to a folder of the user\'s keeps the rest', async () => {
    const { root } = project();
    const outputDir = path.join(root, 'shared-folder');
    for (const folder of ['results', 'diffs', 'my-notes']) fs.mkdirSync(path.join(outputDir, folder), { recursive: true });
    fs.writeFileSync(path.join(outputDir, 'my-notes', 'todo.txt'), 'mine\n');
    fs.writeFileSync(path.join(outputDir, 'README.txt'), 'mine\n');
    const settings = resolveSettings(path.join(root, 'playwright.config.ts'), { outputDir: 'shared-folder' }, {});
    const said = await clean(settings);
    expect(said).toEqual([expect.stringMatching(/^visual-uat clean: removed .*shared-folder\/diffs, .*shared-folder\/results$/)]);
    expect(fs.readdirSync(outputDir).sort()).toEqual(['README.txt', 'my-notes']);
    expect(fs.readFileSync(path.join(outputDir, 'my-notes', 'todo.txt'), 'utf8')).toBe('mine\n');
  });
});
