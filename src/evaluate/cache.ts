import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encodeChange, sameChange, decodeChange, type ChangePrint } from '../compare';
import { verdictCacheDir, verdictCacheFile } from '../config/paths';
import type { Evaluation, RunContext } from '../types';
import { readJsonFile, writeFileAtomic } from '../util/fs';

/**
 * Verdicts by change: a run that shows the same change again on the same checkpoints (the same
 * pair, the same pair re-rendered with noise below the threshold) under the same intent,
 * instructions, model and commits makes no call. The cache follows the approval rule: a verdict
 * covers what the model was shown it for, so the same change on a checkpoint it was not judged for
 * (a banner that leaks onto another page) is judged again, and so is any change after a new commit
 * (the commits are part of what the model was told). The change is what the model judged; the
 * fingerprint holds both sides' pixels, so another base or another page state is another change.
 * Entries live in a folder per scope (model, prompt version, system prompt, intent, commits),
 * named by their fingerprint's hash; a fingerprint that differs by noise is found by comparing it
 * with the scope's entries. The status is not stored: it is recomputed from the verdict, so
 * changing approveAt/rejectAt takes effect without paying again.
 */

interface CacheEntry {
  model: string;
  change: string;
  /** The checkpoints (test key › checkpoint) the verdict was given for. */
  shownOn: string[];
  evaluation: Evaluation;
  createdAt: string;
}

export interface CacheScopeParts {
  model: string;
  promptVersion: number;
  system: string;
  /** The test's and the checkpoint's intent. */
  intent: { test: string | null; checkpoint: string | null };
  /** The commits compared (base, current, their subjects): what the model was told the change is for. */
  context: Pick<RunContext, 'baseCommit' | 'currentCommit' | 'commits'> | null;
}

function sha256(...values: string[]): string {
  const hash = crypto.createHash('sha256');
  for (const value of values) hash.update(value).update('\0');
  return hash.digest('hex');
}

export function cacheScope(parts: CacheScopeParts): string {
  const commits = parts.context ? [parts.context.baseCommit, parts.context.currentCommit, ...parts.context.commits].join('\n') : '';
  return sha256(String(parts.promptVersion), parts.model, parts.system, parts.intent.test ?? '', parts.intent.checkpoint ?? '', commits);
}

export function changeKey(change: ChangePrint): string {
  return sha256(encodeChange(change));
}

/** A verdict for the same change (within noise) given for every one of `shownOn`, else null. */
export function readCachedVerdict(
  outputDir: string,
  scope: string,
  change: ChangePrint,
  shownOn: string[],
  model: string,
): Evaluation | null {
  const usable = (entry: CacheEntry | null) =>
    entry && entry.model === model && entry.evaluation && shownOn.every((key) => entry.shownOn?.includes(key)) ? entry.evaluation : null;
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

export function writeCachedVerdict(
  outputDir: string,
  scope: string,
  change: ChangePrint,
  shownOn: string[],
  model: string,
  evaluation: Evaluation,
): void {
  const file = verdictCacheFile(outputDir, scope, changeKey(change));
  // The same change judged for other checkpoints before: the entry keeps covering them too.
  const earlier = readJsonFile<CacheEntry>(file)?.shownOn ?? [];
  const entry: CacheEntry = {
    model,
    change: encodeChange(change),
    shownOn: [...new Set([...earlier, ...shownOn])],
    evaluation,
    createdAt: new Date().toISOString(),
  };
  writeFileAtomic(file, `${JSON.stringify(entry, null, 2)}\n`);
}
