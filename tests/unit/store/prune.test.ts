import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookUp, storeTest } from '../../../src/store/entry';
import { pruneStore, storeSize } from '../../../src/store/prune';
import { clean } from '../../../src/cli';
import { storeCommitDir, storeEntryDir } from '../../../src/config/paths';
import { resolveSettings } from '../../../src/config/settings';
import { KEY, project } from './store-project';

describe('pruning the store', () => {
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
    for (const commit of [old, kept])
      storeTest(store, commit, KEY, source(), [{ name: 'home', image, signals: null, layout: null, settled: true }]);
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

  it("removes from the output folder only what runs write there: an output folder set to a folder of the user's keeps the rest", async () => {
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
