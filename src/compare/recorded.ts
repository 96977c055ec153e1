import fs from 'node:fs';
import path from 'node:path';
import type { ComparisonTolerance, RecordedComparison } from '../types';
import { bytesIdentity } from '../util/hash';
import { ownManifest } from '../util/own-package';
import type { CompareOutcome } from './compare';
import { decodeChange, encodeChange } from './fingerprint';

/** The version that made a comparison: another version's engine or fingerprint may say otherwise of the same bytes. */
let version: string | undefined;
function engineVersion(): string {
  version ??= ownManifest()?.version ?? 'unknown';
  return version;
}

/** What the live look found of a capture beside its baseline, in the form that travels to the report. */
export function recordComparison(
  baseline: Buffer,
  current: Buffer,
  tolerance: Required<ComparisonTolerance>,
  outcome: CompareOutcome,
): RecordedComparison {
  return {
    baseline: bytesIdentity(baseline),
    current: bytesIdentity(current),
    tolerance,
    version: engineVersion(),
    outcome:
      outcome.kind === 'different'
        ? { kind: 'different', metrics: outcome.metrics, change: encodeChange(outcome.change) }
        : outcome.kind === 'within-tolerance'
          ? { kind: 'within-tolerance', metrics: outcome.metrics }
          : { kind: 'identical' },
  };
}

const sameTolerance = (a: Required<ComparisonTolerance>, b: Required<ComparisonTolerance>) =>
  a.threshold === b.threshold && a.maxDiffPixels === b.maxDiffPixels && a.maxDiffPixelRatio === b.maxDiffPixelRatio;

/** The images the report compares, read, and the tolerance it compares them with. */
export interface PairToReuse {
  baseline: Buffer;
  current: Buffer;
  tolerance: Required<ComparisonTolerance>;
}

/**
 * The recorded comparison as the report's own, when it is of these very bytes, at this tolerance,
 * by this version, and a difference's diff image and change print are at hand; null otherwise (the
 * report compares the pair itself). The diff image is copied to `diffOutput`, where the report's
 * own comparison would have written it.
 */
export function reuseComparison(
  recorded: RecordedComparison | null | undefined,
  pair: PairToReuse,
  diff: { recorded: string | null; output: string },
): CompareOutcome | null {
  if (!recorded || recorded.version !== engineVersion() || !sameTolerance(recorded.tolerance, pair.tolerance)) return null;
  if (recorded.baseline !== bytesIdentity(pair.baseline) || recorded.current !== bytesIdentity(pair.current)) return null;
  const { outcome } = recorded;
  if (outcome.kind !== 'different') return outcome;
  const change = decodeChange(outcome.change);
  if (!change || !diff.recorded || !fs.existsSync(diff.recorded)) return null;
  if (path.resolve(diff.recorded) !== path.resolve(diff.output)) {
    fs.mkdirSync(path.dirname(diff.output), { recursive: true });
    fs.copyFileSync(diff.recorded, diff.output);
  }
  return { kind: 'different', metrics: outcome.metrics, diffImage: diff.output, change };
}
