import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, outputPath, sealPath } from '../config/paths';
import { readManifest } from '../store/run-store';
import { readJsonFile, writeFileAtomic } from '../util/fs';

/**
 * The baseline store: `<outputDir>/baselines/<baseCommit>/<key>/`, one entry per cache key. An
 * entry is usable only once sealed (`cache.json`, written after the pass completed): a run killed
 * half-way leaves an entry without a seal, which the next run rebuilds instead of trusting.
 */

/** Entries kept per output folder: enough for a few base commits and test edits, bounded on disk. */
const KEPT_ENTRIES = 6;

interface Seal {
  key: string;
  sealedAt: string;
}

export { baselineEntryDir } from '../config/paths';

/** Why a cached entry cannot be used, or null when it can. */
export function entryProblem(dir: string, key: string): string | null {
  const seal = readJsonFile<Seal>(sealPath(dir));
  if (!seal) return fs.existsSync(dir) ? 'the cache entry is unsealed' : 'no cached baselines';
  if (seal.key !== key) return 'the cache key differs';
  const manifest = readManifest(dir);
  if (!manifest?.complete) return 'its manifest is missing or incomplete';
  for (const record of Object.values(manifest.tests))
    for (const name of record.checkpoints)
      if (!fs.existsSync(checkpointImage(dir, record.folder, name))) return `the image of checkpoint "${name}" is missing`;
  return null;
}

export function sealEntry(dir: string, key: string): void {
  const seal: Seal = { key, sealedAt: new Date().toISOString() };
  writeFileAtomic(sealPath(dir), `${JSON.stringify(seal, null, 2)}\n`);
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
      const seal = readJsonFile<Seal>(sealPath(dir));
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
