import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storeOffersBase } from '../../../src/baseline/base-pass';
import { storeEntryDir } from '../../../src/config/paths';
import { suiteSource, type TestSource } from '../../../src/store/key';
import { storeTest } from '../../../src/store/entry';

const COMMIT = 'c'.repeat(40);
const SOURCE: TestSource = { hash: 'a'.repeat(64), files: { 'tests/site.spec.ts': '1' } };

/** A store holding one test of COMMIT, its entry as `change` leaves it (`source`: what keys it). */
function storeWith(checkpoints: string[], change: (entry: string) => void = () => {}, source = SOURCE): string {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'offers-base-'));
  const image = path.join(store, 'image.png');
  fs.writeFileSync(image, 'png');
  storeTest(
    store,
    COMMIT,
    'site.spec.ts › home',
    source,
    checkpoints.map((name) => ({ name, image, signals: null, layout: null, settled: true })),
  );
  change(storeEntryDir(store, COMMIT, 'site.spec.ts › home', source.hash));
  return store;
}

describe('storeOffersBase: whether the store may give a selection tests of the base commit (the guess before a listing)', () => {
  it.each([
    { name: 'a sealed entry with a checkpoint', store: () => storeWith(['home']), offers: true },
    { name: 'no entry of the commit', store: () => fs.mkdtempSync(path.join(os.tmpdir(), 'offers-base-')), offers: false },
    { name: 'only an entry a record run noted without checkpoints', store: () => storeWith([]), offers: false },
    {
      name: "an entry kept for one suite only (the test failed on the base): the suite's index reaches it, no selection",
      store: () => storeWith(['home'], () => {}, suiteSource('e'.repeat(64))),
      offers: false,
    },
    { name: 'an unsealed entry', store: () => storeWith(['home'], (entry) => fs.rmSync(path.join(entry, 'entry.json'))), offers: false },
    {
      name: 'an entry of an older visual-uat (its files unsealed)',
      store: () =>
        storeWith(['home'], (entry) => {
          const { contents: _dropped, ...older } = JSON.parse(fs.readFileSync(path.join(entry, 'entry.json'), 'utf8'));
          fs.writeFileSync(path.join(entry, 'entry.json'), JSON.stringify(older));
        }),
      offers: false,
    },
  ])('$name: $offers', ({ store, offers }) => {
    expect(storeOffersBase(store(), COMMIT)).toBe(offers);
  });

  it('looks at the base commit only', () => {
    expect(storeOffersBase(storeWith(['home']), 'd'.repeat(40))).toBe(false);
  });
});
