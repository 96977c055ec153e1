import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { checkpointImage, checkpointLayout, checkpointLiveDiff, checkpointSignals, manifestPath, outputPath } from '../config/paths';
import { ENV } from '../config/environment';
import type { BaselineManifest, CapturedSignals, LayoutRecord, RunContext } from '../types';
import { readJsonFile, subfolders, writeFileAtomic } from '../util/fs';
import { readCheckedJson } from '../util/schema';

/**
 * The run folder: the files a run keeps for its checkpoints, read and written here only. The run
 * context the global setup hands to every process, a baseline entry's manifest, each checkpoint's
 * image and the signals the base recorded beside it. Stages get what it reads as values: the
 * reporter opens a `RunFolder` for collect, so collect and everything after it up to the edges
 * read no file of their own (the I/O a stage keeps is named in docs/architecture.md).
 */

/** The base side of a checkpoint, as the baseline pass left it. */
export interface BaselineSide {
  image: string | null;
  signals: CapturedSignals | null;
  /** Its layout record, by path (null: none, e.g. an entry from a version that took none). */
  layout: string | null;
}

/**
 * The run context the global setup wrote for this run's processes (null outside a run it set up, or
 * one that does not read: docs/run-context.schema.json).
 */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext | null {
  const file = ENV.contextFile.read(env);
  return file ? readCheckedJson<RunContext>(file, 'run-context') : null;
}

/**
 * What a baseline pass captured: its tests, their status and checkpoints (written by the baseline
 * role's reporter; null: none, or one that does not read, docs/baseline-manifest.schema.json).
 */
export function readManifest(entry: string): BaselineManifest | null {
  return readCheckedJson<BaselineManifest>(manifestPath(entry), 'baseline-manifest');
}

export function writeManifest(entry: string, manifest: BaselineManifest): void {
  writeFileAtomic(manifestPath(entry), JSON.stringify(manifest, null, 2));
}

/**
 * Writes a checkpoint's image under its image root, and, for a base capture, the signals beside it
 * (that is how they reach the current pass; the current pass keeps them in its attachment); its
 * layout record, and the diff image its live look wrote elsewhere (`liveDiff`, copied), when given.
 * Returns their paths.
 */
export function writeCheckpointFiles(
  root: string,
  folder: string,
  name: string,
  png: Buffer,
  baseSignals: CapturedSignals | null,
  layout: LayoutRecord | null = null,
  liveDiff: string | null = null,
): { image: string; layout: string | null; diff: string | null } {
  const image = checkpointImage(root, folder, name);
  writeFileAtomic(image, png);
  if (baseSignals) writeFileAtomic(checkpointSignals(root, folder, name), JSON.stringify(baseSignals));
  let diff: string | null = null;
  if (liveDiff) {
    diff = checkpointLiveDiff(root, folder, name);
    fs.copyFileSync(liveDiff, diff);
  }
  if (!layout) return { image, layout: null, diff };
  const file = checkpointLayout(root, folder, name);
  writeFileAtomic(file, encodeLayout(layout));
  return { image, layout: file, diff };
}

/** A layout record as stored beside its image: gzip'd JSON. */
export function encodeLayout(record: LayoutRecord): Buffer {
  return zlib.gzipSync(JSON.stringify(record));
}

/** A stored record, or null when it is absent, damaged, or of another version. */
export function decodeLayout(data: Buffer | null): LayoutRecord | null {
  if (!data) return null;
  try {
    const record = JSON.parse(zlib.gunzipSync(data).toString('utf8')) as LayoutRecord;
    return record.version === 1 && Array.isArray(record.elements) && Array.isArray(record.styles) ? record : null;
  } catch {
    return null;
  }
}

/** A checkpoint's layout record from its file (null: none). */
export function readLayout(file: string | null): LayoutRecord | null {
  return file && fs.existsSync(file) ? decodeLayout(fs.readFileSync(file)) : null;
}

/** The baseline image of a checkpoint, when the baseline pass took one. */
export function readBaselineImage(baselineRoot: string | null, folder: string, name: string): Buffer | null {
  if (!baselineRoot) return null;
  const file = checkpointImage(baselineRoot, folder, name);
  return fs.existsSync(file) ? fs.readFileSync(file) : null;
}

/**
 * A test's earlier render of its checkpoints (see store/entry earlierRender): a store entry, and
 * those of its checkpoints that held still.
 */
export interface EarlierRender {
  entry: string;
  settled: string[];
}

/** Test key → its earlier render. */
export type EarlierRenders = Record<string, EarlierRender>;

/** Hands the earlier renders to the processes the run starts from here on (both passes' workers); none: the variable goes. */
export function handDownEarlierRenders(file: string, renders: EarlierRenders): void {
  if (Object.keys(renders).length === 0) {
    ENV.earlierRenders.write(undefined);
    return;
  }
  writeFileAtomic(file, JSON.stringify(renders));
  ENV.earlierRenders.write(file);
}

let earlierRenders: { file: string; renders: EarlierRenders } | null = null;

/**
 * A checkpoint's earlier render that held still, as bytes: a capture identical to it is settled.
 * Null when the run handed none down or the file went (a store pruned meanwhile): the capture
 * then retakes as usual.
 */
export function readEarlierRender(key: string, name: string, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  const file = ENV.earlierRenders.read(env);
  if (!file) return null;
  if (earlierRenders?.file !== file) earlierRenders = { file, renders: readJsonFile<EarlierRenders>(file) ?? {} };
  const render = earlierRenders.renders[key];
  if (!render?.settled.includes(name)) return null;
  try {
    return fs.readFileSync(checkpointImage(render.entry, '', name));
  } catch {
    return null;
  }
}

/** The base side of a checkpoint, from the baseline entry on disk. */
export function readBaselineSide(baselineRoot: string, folder: string, name: string): BaselineSide {
  const image = checkpointImage(baselineRoot, folder, name);
  const layout = checkpointLayout(baselineRoot, folder, name);
  return {
    image: fs.existsSync(image) ? image : null,
    signals: readJsonFile<CapturedSignals>(checkpointSignals(baselineRoot, folder, name)),
    layout: fs.existsSync(layout) ? layout : null,
  };
}

/** What collect reads from disk, handed to it as one value. */
export interface RunFolder {
  /** The baseline entry's manifest (null: no entry, or the run compares with nothing). */
  manifest: BaselineManifest | null;
  /** A checkpoint's base side from the entry (a checkpoint only the base took travels in no attachment). */
  baseSide(folder: string, name: string): BaselineSide | null;
}

export function openRunFolder(context: RunContext | null): RunFolder {
  const entry = context && !context.sameAsBase ? context.baselineDir : null;
  return {
    manifest: entry ? readManifest(entry) : null,
    baseSide: (folder, name) => (entry ? readBaselineSide(entry, folder, name) : null),
  };
}

/**
 * The baseline entries earlier runs left in the output folder, all but `keep` (this run's) and the
 * merged blob reports' images: only folders a run made (a manifest in them), then the commit
 * folders they leave empty.
 */
export function clearEarlierBaselines(outputDir: string, keep: string): void {
  const root = outputPath(outputDir, 'baselines');
  for (const commit of subfolders(root)) {
    const commitDir = path.join(root, commit);
    for (const name of subfolders(commitDir)) {
      const dir = path.join(commitDir, name);
      if (dir !== keep && name !== 'merged' && fs.existsSync(manifestPath(dir))) fs.rmSync(dir, { recursive: true, force: true });
    }
    try {
      fs.rmdirSync(commitDir);
    } catch {
      // Not empty: this run's entry, merged images, or something not a run's.
    }
  }
}
