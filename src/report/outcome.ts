import type { ChangePrint } from '../compare';
import type { Explanation } from '../explain';
import type { CheckpointStatus, Evaluation, TestStatus } from '../types';
import type { CollectedTest } from './collect';
import type { CheckpointOutcome } from './decide';

/**
 * What a run decided, test by test and change by change: the value `judgeRun` returns and the
 * results file (results.ts) is written from.
 */
export interface TestOutcome {
  test: CollectedTest;
  status: TestStatus;
  checkpoints: CheckpointOutcome[];
}

/** A change of the run and the checkpoints that show it. */
export interface GroupOutcome {
  id: string;
  change: ChangePrint;
  /**
   * By Playwright project, the change as that project shows it (the same words, other pixels); more than one entry only when the group
   * spans projects.
   */
  projects: Map<string, ChangePrint>;
  /** `<project> › <title path> › <checkpoint>` of the checkpoints whose dominant change it is. */
  members: string[];
  /** The checkpoints where it is one of several changes, not the largest. */
  alsoIn: string[];
  status: CheckpointStatus;
  reason: string;
  /** The evaluator's verdict on the group; null when nobody judged it. */
  evaluation: Evaluation | null;
  /** The change in words, as its representative shows it. */
  explanation: Explanation | null;
}
