import { describe, expect, it } from 'vitest';
import { assertNoRepeatedLines, repeatedLines } from '../../support/repeated-lines';

/** The check scripts/fixture-repo's runPlaywright (and tests/support/playwright-run's runs) apply to every command's output: tests/support/repeated-lines.ts. */
describe('repeatedLines', () => {
  const PLAYWRIGHT = [
    'Running 2 tests using 1 worker',
    '  ✓  1 [chromium] › site.spec.ts:3:1 › home (1.2s)',
    '  ✓  2 [chromium] › site.spec.ts:3:1 › home (1.1s)',
    '    at site.spec.ts:4:9',
    '    at site.spec.ts:4:9',
    '[WebServer] ready',
    '[WebServer] ready',
  ];

  it('finds a visual-uat line, a table row, a stale approval or an approve note printed twice', () => {
    const stale =
      '  stale approval ignored: site.spec.ts › about › contact no longer shows the approved change; npx visual-uat approve --prune drops it';
    const row = '  needs_review site.spec.ts › home › page        2.10% no evaluator configured';
    const note =
      '  note: [mobile] › site.spec.ts › home › page also shows group g2 (needs_review), not part of this decision: npx visual-uat approve g2';
    const output = [
      'visual-uat: base main (baseBranch in withVisualUat) @ 1a2b3c4d, merge-base of HEAD',
      ...PLAYWRIGHT,
      row,
      row,
      stale,
      stale,
      note,
      note,
    ].join('\n');
    expect(repeatedLines(output)).toEqual([row, stale, note]);
    expect(() => assertNoRepeatedLines('playwright test', { stdout: output, stderr: '' })).toThrow(
      /^playwright test printed 3 lines twice:\n {2}needs_review/,
    );
  });

  it("leaves Playwright's own lines, the servers' output and a row's wrapped reason alone", () => {
    const wrapped = [
      '  needs_review site.spec.ts › home › page   2.10% no evaluator',
      '                                                  configured',
      '  needs_review site.spec.ts › about › page  1.00% no evaluator',
      '                                                  configured',
    ];
    expect(repeatedLines([...PLAYWRIGHT, ...wrapped].join('\n'))).toEqual([]);
  });
});
