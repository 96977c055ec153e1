import crypto from 'node:crypto';
import { verdictCacheFile } from '../config/layout';
import type { Evaluation } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';
import { sha256File } from '../util/hash';

/**
 * Verdicts by content: a re-run with the same pair of images, the same prompt and the same model
 * makes no call. The status is not stored: it is recomputed from the verdict, so changing
 * approveAt/rejectAt takes effect without paying again.
 */

interface CacheEntry {
  model: string;
  evaluation: Evaluation;
  createdAt: string;
}

export interface CacheKeyParts {
  model: string;
  promptVersion: number;
  system: string;
  user: string;
  baseline: string;
  current: string;
}

export function cacheKey(parts: CacheKeyParts): string {
  const hash = crypto.createHash('sha256');
  for (const value of [String(parts.promptVersion), parts.model, parts.system, parts.user, sha256File(parts.baseline), sha256File(parts.current)])
    hash.update(value).update('\0');
  return hash.digest('hex');
}

export function readCachedVerdict(outputDir: string, key: string, model: string): Evaluation | null {
  const entry = readJsonFile<CacheEntry>(verdictCacheFile(outputDir, key));
  return entry && entry.model === model && entry.evaluation ? entry.evaluation : null;
}

export function writeCachedVerdict(outputDir: string, key: string, model: string, evaluation: Evaluation): void {
  const entry: CacheEntry = { model, evaluation, createdAt: new Date().toISOString() };
  writeFileAtomic(verdictCacheFile(outputDir, key), `${JSON.stringify(entry, null, 2)}\n`);
}
