import type { CompareInput, CompareOutcome } from './compare';
import { runCompare } from './pool';

export { CompareError, MAX_PIXELS, type CompareInput, type CompareOutcome, type ImageSide } from './compare';
export { comparePair, mergeTolerance, NO_DIFF, type PairComparison, type PairInput } from './pair';
export {
  decodeChange,
  encodeChange,
  findChange,
  findShown,
  inPrintOrder,
  partOf,
  sameChange,
  sameRegion,
  withAriaLines,
  type ChangePrint,
  type Found,
  type RegionPrint,
} from './fingerprint';
export { recordComparison } from './recorded';
export { regionsFromMask } from './regions';
export { compareSignals, hasNewSignals, normaliseMessage, NO_SIGNALS, requestKey, testBaseSignals } from './signal-changes';
export { unifiedDiff } from './text-diff';

/** Compares a baseline and a current PNG: identical, within tolerance, or different (with a diff image). */
export function compareImages(input: CompareInput): Promise<CompareOutcome> {
  return runCompare(input);
}
