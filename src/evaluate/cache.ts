import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encodeChange, sameChange, decodeChange, type ChangePrint } from '../compare';
import { verdictCacheDir, verdictCacheFile } from '../config/layout';
import type { Evaluation } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';

/**
 * Verdicts by change: a run that shows the same change again (the same pair, the same change on
 * one more page, the same pair re-rendered with noise below the threshold, or after another
 * commit) under the same intent, instructions and model makes no call. The change is what the
 * model judged; the fingerprint holds both sides' pixels, so another base or another page state
 * is another change. Entries live in a folder per scope (model, prompt version, system prompt,
 * intent), named by their fingerprint's hash; a fingerprint that differs by noise is found by
 * comparing it with the scope's entries. The status is not stored: it is recomputed from the
 * verdict, so changing approveAt/rejectAt takes effect without paying again.
 */

interface CacheEntry {
  model: string;
  change: string;
  evaluation: Evaluation;
  createdAt: string;
}

export interface CacheScopeParts {
  model: string;
  promptVersion: number;
  system: string;
  /** The test's and the checkpoint's intent. */
  intent: { test: string | null; checkpoint: string | null };
}

function sha256(...values: string[]): string {
  const hash = crypto.createHash('sha256');
  for (const value of values) hash.update(value).update('\0');
  return hash.digest('hex');
}

export function cacheScope(parts: CacheScopeParts): string {
  return sha256(String(parts.promptVersion), parts.model, parts.system, parts.intent.test ?? '', parts.intent.checkpoint ?? '');
}

export function changeKey(change: ChangePrint): string {
  return sha256(encodeChange(change));
}

export function readCachedVerdict(outputDir: string, scope: string, change: ChangePrint, model: string): Evaluation | null {
  const usable = (entry: CacheEntry | null) => (entry && entry.model === model && entry.evaluation ? entry.evaluation : null);
  const exact = usable(readJsonFile<CacheEntry>(verdictCacheFile(outputDir, scope, changeKey(change))));
  if (exact) return exact;
  const dir = verdictCacheDir(outputDir, scope);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
  for (const name of names) {
    const entry = readJsonFile<CacheEntry>(path.join(dir, name));
    const cached = entry && decodeChange(entry.change);
    if (cached && sameChange(cached, change) && usable(entry)) return entry!.evaluation;
  }
  return null;
}

export function writeCachedVerdict(outputDir: string, scope: string, change: ChangePrint, model: string, evaluation: Evaluation): void {
  const entry: CacheEntry = { model, change: encodeChange(change), evaluation, createdAt: new Date().toISOString() };
  writeFileAtomic(verdictCacheFile(outputDir, scope, changeKey(change)), `${JSON.stringify(entry, null, 2)}\n`);
}
