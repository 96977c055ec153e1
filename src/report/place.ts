import fs from 'node:fs';
import path from 'node:path';
import { checkpointImage, mergedBaselineDir, outputPath } from '../config/paths';
import type { RunContext } from '../types';
import type { CollectedTest } from './collect';

/**
 * Where the run's baseline images live: the run's baseline entry of a local run; for merged blob reports
 * (images extracted from other machines' blobs into a temporary folder) a home of their own.
 */
export function baselineHome(context: RunContext | null, outputDir: string, fromBlob: boolean): string | null {
  if (!context?.baseCommit) return null;
  return fromBlob ? mergedBaselineDir(outputDir, context.baseCommit) : context.baselineDir;
}

/**
 * `replace`: the home may hold an older image (the last run's current one, a blob's); else an image already home is this one (a baseline
 * entry's).
 */
function homeOf(attachment: string, home: string, replace: boolean): string {
  if (path.resolve(attachment) === path.resolve(home)) return home;
  if (!replace && fs.existsSync(home)) return home;
  fs.mkdirSync(path.dirname(home), { recursive: true });
  fs.copyFileSync(attachment, home);
  return home;
}

/**
 * Points each pair at its images' home under the output folder, copying them there when they are
 * elsewhere. The current pass writes its images under test-results/ while the tests run (see
 * config/paths runningCheckpointsDir; wiped by the next run), and merge-reports extracts them into
 * a temporary folder: the results file must name paths that keep opening.
 */
export function placeImages(tests: CollectedTest[], outputDir: string, baselineDir: string | null, fromBlob: boolean): CollectedTest[] {
  const currentRoot = outputPath(outputDir, 'currentScreenshots');
  return tests.map((test) => ({
    ...test,
    pairs: test.pairs.map((pair) => ({
      ...pair,
      current: pair.current && homeOf(pair.current, checkpointImage(currentRoot, test.folder, pair.name), true),
      baseline:
        pair.baseline && baselineDir
          ? homeOf(pair.baseline, checkpointImage(baselineDir, test.folder, pair.name), fromBlob)
          : pair.baseline,
    })),
  }));
}
