import type { ChangePrint } from '../compare';
import type { Explanation } from '../explain';
import type { CheckpointSignals, CheckpointStatus, DiffMetrics, Evaluation, RunContext } from '../types';
import type { CodeChange } from '../git/code-change';

/** One changed checkpoint, as the reporter hands it over to be judged. */
export interface EvaluationRequest {
  /** Checkpoint name. */
  name: string;
  project: string;
  intent: {
    /** The test's `visualUat.intent`. */
    test: string | null;
    /** The checkpoint's own `intent` option. */
    checkpoint: string | null;
    /** File, describes and title of the test. */
    titlePath: string[];
  };
  context: RunContext | null;
  metrics: DiffMetrics;
  /** The ARIA diff and the console errors, failed requests and a11y violations only current has. */
  signals: CheckpointSignals;
  images: { baseline: string; current: string; diff: string };
  /** What changed in the pair: the verdict cache's key (a later run with the same change makes no call). */
  change: ChangePrint;
  /** The change in words (explain/): the elements and properties, and the commit behind each. */
  explanation?: Explanation | null;
  /** What the commits the explanation names changed in the files it names. */
  code?: CodeChange[];
  /**
   * The change's group and the checkpoints that show it (test key › checkpoint): the verdict applies to each of them, and is reused for
   * them only.
   */
  group: {
    id: string;
    shownOn: string[];
    /**
     * The Playwright projects that show it, when more than one: the same change in words at other viewports, whose images the model is not
     * sent.
     */
    projects?: string[];
  };
}

export type JudgedStatus = Extract<CheckpointStatus, 'changed' | 'regression' | 'needs_review'>;

export interface EvaluatorVerdict {
  status: JudgedStatus;
  /** The model's answer; null when the evaluator failed (the reason says why). */
  evaluation: Evaluation | null;
  reason: string;
  /** Served from `<outputDir>/cache/` without a call. */
  cached: boolean;
}
