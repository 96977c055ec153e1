import type { CapturedSignals, ComparisonTolerance, LayoutRecord, RecordedComparison } from '../types';

/**
 * While the page is alive, each capture of a checkpoint whose baseline is at hand is compared with
 * it by the comparison and thresholds the report uses, and taken again while it differs in a way
 * nothing explains. Those live in compare/ and explain/, after capture: the public entry
 * (src/index.ts, the composition root every worker loads) hands them in through `useBaselineCheck`.
 */

/** What a capture is beside its baseline, as the report would find it. */
export interface BaselineLook {
  /** Identical or within tolerance: the report's `unchanged`. */
  matches: boolean;
  /**
   * What the layout record already explains of a difference (an element added, removed, moved or
   * restyled; a pointer or focus on one side only), in words: a change retaking will not undo.
   * Null: the images differ and nothing explains it, or they match.
   */
  explained: string | null;
  /** What differed, in words (how much, and what explains it or that nothing does); empty when it matches. */
  difference: string;
  /**
   * The comparison itself, for the report to take instead of comparing again when the image kept is
   * this capture (absent: none was made, e.g. the baseline could not be read), and its diff image
   * (null: the images match).
   */
  comparison?: RecordedComparison;
  diffImage?: string | null;
}

/** One capture to look at beside its checkpoint's baseline. */
export interface BaselineCheckInput {
  /** The baseline entry's image and layout record (null: none kept) and signals. */
  baseline: { image: string; layout: string | null; signals: CapturedSignals | null };
  /** The capture, and where this check may write its files (the capture's PNG, a diff image). */
  current: Buffer;
  scratch: string;
  /** The run's tolerance, and the test's and the checkpoint's overrides, merged as the report merges them. */
  tolerance: { run: Required<ComparisonTolerance>; overrides: (ComparisonTolerance | undefined)[] };
  /** The current page's layout record and pointer and focus state, taken only when the images differ. */
  currentSide: () => Promise<{ layout: LayoutRecord | null; signals: Pick<CapturedSignals, 'origin' | 'interaction'> }>;
}

export type BaselineCheck = (input: BaselineCheckInput) => Promise<BaselineLook>;

let check: BaselineCheck | null = null;

/** Hands capture the check of a capture beside its baseline (src/index.ts does, once per process). */
export function useBaselineCheck(baselineCheck: BaselineCheck): void {
  check = baselineCheck;
}

/** The check handed in; null when none was (capture used without the public entry): captures settle by identity alone. */
export function baselineCheck(): BaselineCheck | null {
  return check;
}

export type RetakeDecision = 'matched' | 'change' | 'retake';

/**
 * What a capture beside its baseline calls for: it matches (done: unchanged); the layout record
 * explains the difference and the page held still for it, two captures alike (done, without
 * waiting out the timeout: a real change, or the test's pointer, which retaking does not move;
 * content still arriving is let arrive first); or nothing explains it (taken again while the
 * checkpoint's time lasts: a transition, a late font, a frame caught mid-way).
 */
export function retakeDecision(look: BaselineLook, heldStill: boolean): RetakeDecision {
  if (look.matches) return 'matched';
  return look.explained !== null && heldStill ? 'change' : 'retake';
}
