import type { ChangeInput } from '../../src/report/decide';

/** A change of group g1 that no person, approval or model has decided, shown on one checkpoint: `extra` sets what a test needs. */
export function changeInput(extra: Partial<ChangeInput> = {}): ChangeInput {
  return {
    group: 'g1',
    part: { threshold: 0.1, regions: [], lines: [] },
    others: 0,
    covering: null,
    resembles: null,
    judgement: null,
    ...extra,
  };
}
