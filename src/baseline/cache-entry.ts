import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, outputPath, sealPath } from '../config/paths';
import { readManifest } from '../store/run-folder';
import { contentsProblem, sealedContents, type SealedContents } from '../store/seal';
import { readJsonFile, writeFileAtomic } from '../util/fs';
import type { TestSource } from './baseline-store';

/**
 * The suite cache: `<outputDir>/baselines/<baseCommit>/<key>/`, one entry per cache key, which a
 * warm run reads whole. An entry is usable only once sealed (`cache.json`, written after the pass
 * completed, with the hash of every file in it): a run killed half-way leaves an entry without a
 * seal, and a file changed since leaves one whose seal does not match, which the next run rebuilds
 * instead of trusting.
 */

/** Entries kept per output folder: enough for a few base commits and test edits, bounded on disk. */
const KEPT_ENTRIES = 6;

/** A test the pass rendered on the base, with what keys its store entry (see baseline-store storeTest). */
export interface RenderedTest {
  key: string;
  source: TestSource;
}

interface Seal {
  key: string;
  sealedAt: string;
  /** Every file of the entry (see store/seal); absent in entries of versions that sealed none. */
  contents?: SealedContents;
  /**
   * The tests the pass rendered that the store does not hold yet: they are stored once the
   * current tests are done, and the seal is written again without them. A run killed before that
   * leaves them here, and the next run that uses the entry stores them.
   */
  unstored?: RenderedTest[];
}

export { baselineEntryDir } from '../config/paths';

function readSeal(dir: string): Seal | null {
  const seal = readJsonFile<Seal>(sealPath(dir));
  return seal !== null && typeof seal === 'object' && typeof seal.key === 'string' && typeof seal.sealedAt === 'string' ? seal : null;
}

/** Why a cached entry cannot be used, or null when it can. */
export function entryProblem(dir: string, key: string): string | null {
  const seal = readSeal(dir);
  if (!seal) return fs.existsSync(dir) ? 'the cache entry is unsealed' : 'no cached baselines';
  if (seal.key !== key) return 'the cache key differs';
  if (!seal.contents) return 'the cache entry was sealed by an older visual-uat, which left its signals and layout records unsealed';
  const manifest = readManifest(dir);
  if (!manifest?.complete) return 'its manifest is missing or incomplete';
  for (const record of Object.values(manifest.tests))
    for (const name of record.checkpoints) {
      const image = path.relative(dir, checkpointImage(dir, record.folder, name)).split(path.sep).join('/');
      if (!(image in seal.contents)) return `the image of checkpoint "${name}" is ${fs.existsSync(path.join(dir, image)) ? 'not sealed' : 'missing'}`;
    }
  return contentsProblem(dir, seal.contents);
}

/** Seals the entry as it is now: every file in it, and the rendered tests the store does not hold yet. */
export function sealEntry(dir: string, key: string, unstored: readonly RenderedTest[]): void {
  const seal: Seal = { key, sealedAt: new Date().toISOString(), contents: sealedContents(dir, path.basename(sealPath(dir))), unstored: [...unstored] };
  writeFileAtomic(sealPath(dir), `${JSON.stringify(seal, null, 2)}\n`);
}

/** The sealed entry's tests still to be stored (none for an entry that is not sealed with this key). */
export function unstoredTests(dir: string, key: string): RenderedTest[] {
  const seal = readSeal(dir);
  return seal?.key === key && Array.isArray(seal.unstored) ? seal.unstored : [];
}

/** Whether the entry is sealed with this key (a pass that failed leaves it unsealed). */
export function isSealed(dir: string, key: string): boolean {
  return readSeal(dir)?.key === key;
}

/** A baseline image turned out unreadable: the entry must never be used again. */
export function invalidateEntry(dir: string): void {
  fs.rmSync(sealPath(dir), { force: true });
}

/** Drops all but the newest sealed entries and every unsealed one except `keep`. */
export function pruneEntries(outputDir: string, keep: string): void {
  const root = outputPath(outputDir, 'baselines');
  if (!fs.existsSync(root)) return;
  const entries: { dir: string; sealedAt: number }[] = [];
  for (const commit of fs.readdirSync(root)) {
    const commitDir = path.join(root, commit);
    if (!fs.statSync(commitDir).isDirectory()) continue;
    for (const name of fs.readdirSync(commitDir)) {
      const dir = path.join(commitDir, name);
      if (!fs.statSync(dir).isDirectory()) continue;
      const seal = readSeal(dir);
      entries.push({ dir, sealedAt: seal ? Date.parse(seal.sealedAt) : 0 });
    }
  }
  entries.sort((a, b) => b.sealedAt - a.sealedAt);
  entries.forEach((entry, index) => {
    if (entry.dir === keep || (entry.sealedAt > 0 && index < KEPT_ENTRIES)) return;
    fs.rmSync(entry.dir, { recursive: true, force: true });
  });
  for (const commit of fs.readdirSync(root)) {
    const commitDir = path.join(root, commit);
    if (fs.statSync(commitDir).isDirectory() && fs.readdirSync(commitDir).length === 0) fs.rmdirSync(commitDir);
  }
}
