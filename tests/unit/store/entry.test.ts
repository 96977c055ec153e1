import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDirData } from '../../../src/store/key';
import { copyEntry, earlierRender, lookUp, storeHolds, storeTest, storedRecord } from '../../../src/store/entry';
import { storeEntryDir } from '../../../src/config/paths';
import { COMMIT, KEY, project } from './store-project';

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
    expect(found).toEqual({
      entry: storeEntryDir(store, COMMIT, KEY, source().hash),
      source: source().hash,
      checkpoints: ['home'],
      layouts: ['home'],
    });
    if (!found.entry) throw new Error('the stored entry should be found');
    expect(storedRecord('default/home-po-1234', found.checkpoints, found.source, found.layouts)).toEqual({
      folder: 'default/home-po-1234',
      status: 'passed',
      error: null,
      checkpoints: ['home'],
      layouts: ['home'],
      storeEntry: source().hash,
    });
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
    const store1 = () =>
      storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: { console: ['boom'] }, layout, settled: true }], true);
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
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({
      entry: null,
      reason: 'its store entry is of format 2, which a newer visual-uat wrote: upgrade visual-uat to take baselines from it',
    });
    // A seal cut short is no seal.
    fs.writeFileSync(seal, '{"key":');
    expect(lookUp(store, COMMIT, KEY, source())).toEqual({ entry: null, reason: 'its store entry is unsealed' });
  });

  it('a write that fails for want of room or rights throws; it is not taken for another writer that won', () => {
    const { store, image, source } = project();
    fs.mkdirSync(store, { recursive: true });
    fs.writeFileSync(path.join(store, COMMIT), 'a file where the commit folder goes');
    expect(() => storeTest(store, COMMIT, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }])).toThrow(
      /ENOTDIR|EEXIST/,
    );
  });

  it('keys every test by the data files under the testDirs, which a test may read by path', async () => {
    const { root, write, store, image, source } = project();
    execFileSync('git', ['init', '-q'], { cwd: root });
    write('tests/data/target.json', '{ "path": "/pricing" }\n');
    const data = async () => testDirData({ root }, [path.join(root, 'tests')]);
    expect(Object.keys(await data())).toEqual(['tests/data/target.json']);
    storeTest(store, COMMIT, KEY, source('tests/po.spec.ts', 'chromium', await data()), [
      { name: 'home', image, signals: null, layout: null, settled: true },
    ]);
    write('tests/data/target.json', '{ "path": "/products" }\n');
    expect(lookUp(store, COMMIT, KEY, source('tests/po.spec.ts', 'chromium', await data()))).toEqual({
      entry: null,
      reason: 'tests/data/target.json changed',
    });
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
});
