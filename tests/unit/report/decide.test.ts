import { describe, expect, it } from 'vitest';
import { NO_SIGNALS, type PairComparison } from '../../../src/compare';
import { DEFAULT_FAIL_ON } from '../../../src/config/settings';
import { decide, failingCheckpoints, testStatus, type CheckpointOutcome, type ChangeInput } from '../../../src/report/decide';
import { changeInput } from '../../support/changes';

describe('a difference only the test’s pointer or focus made is unsteady', () => {
  const different: PairComparison = {
    kind: 'different',
    metrics: { pixelDiffPercent: 0.4, changedRegions: [] },
    diffImage: '/d.png',
    change: { threshold: 0.1, regions: [], lines: [] },
  };
  const states = [
    'pointer over the 1st `.dropdown-item` on the base side only',
    'pointer over the 2nd `.dropdown-item` on the current side only',
  ];
  const input = { comparison: different, baseError: null, changes: [] as ChangeInput[], signals: NO_SIGNALS };

  it('is `unsteady`, with the states in words and how to park the pointer', () => {
    const ruling = decide({ ...input, interactionOnly: states });
    expect(ruling.status).toBe('unsteady');
    expect(ruling.reason).toContain(states.join('; '));
    expect(ruling.reason).toContain('`await page.mouse.move(0, 0)`');
  });

  it('stays a change to review when the words do not prove it (no states, or a change the run grouped)', () => {
    expect(decide({ ...input, interactionOnly: null }).status).toBe('needs_review');
    expect(decide({ ...input, changes: [changeInput()], interactionOnly: states }).status).toBe('needs_review');
  });

  it('does not fail the run under the default failOn, nor its test; a team that lists it does', () => {
    const checkpoint = { status: 'unsteady', signals: NO_SIGNALS } as CheckpointOutcome;
    expect(failingCheckpoints([checkpoint], DEFAULT_FAIL_ON)).toEqual([]);
    expect(failingCheckpoints([checkpoint], [...DEFAULT_FAIL_ON, 'unsteady'])).toEqual([checkpoint]);
    expect(testStatus('passed', [checkpoint])).toBe('passed');
  });
});
