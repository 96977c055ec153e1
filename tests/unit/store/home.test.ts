import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, STORE_MARKER, STORE_OPTION } from '../../../src/store/home';
import { project } from './store-project';

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
    expect(openStore(file, root)).toEqual({
      dir: file,
      readable: false,
      writable: false,
      warning: `the baseline store ${file} is a file, not a folder: point ${STORE_OPTION} at a folder; this run neither reads nor writes it`,
    });
    const home = path.join(root, 'home');
    for (const name of ['.bashrc', 'projects', 'notes.txt', 'music', 'a'.repeat(40)])
      fs.mkdirSync(path.join(home, name), { recursive: true });
    const refused = openStore(home, root);
    expect(refused).toMatchObject({ readable: false, writable: false });
    expect(refused.warning).toBe(
      `the baseline store ${home} holds files visual-uat did not write (.bashrc, music, notes.txt, and 1 more) and no ${STORE_MARKER}: point ${STORE_OPTION} at a new or empty folder (nothing in this one was read or removed); this run neither reads nor writes it`,
    );
    expect(fs.existsSync(path.join(home, STORE_MARKER))).toBe(false);
    const older = path.join(root, 'older-store');
    fs.mkdirSync(path.join(older, 'c'.repeat(40)), { recursive: true });
    fs.writeFileSync(path.join(older, '.DS_Store'), 'finder');
    expect(openStore(older, root).writable).toBe(true);
    expect(fs.existsSync(path.join(older, STORE_MARKER))).toBe(true);
  });
});
