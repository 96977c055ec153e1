import type { ReporterDescription } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { gatedReporterFlags, gatedReporters, printsToTerminal, ungatedRunError } from '../../../src/config/reporters';

const OWN: ReporterDescription = ['/repo/node_modules/visual-uat/dist/reporter/index.js', { baseBranch: 'main' }];
const TEST_ARGV = ['node', 'cli.js', 'test'];
const names = (reporters: ReporterDescription[]) => reporters.map(([name]) => name);
const isOwn = (name: string) => name === 'visual-uat/reporter' || name === OWN[0];

describe('printsToTerminal', () => {
  it("follows Playwright's printsToStdio of its built-in reporters", () => {
    for (const name of ['list', 'line', 'dot', 'failures']) expect(printsToTerminal([name], {}), name).toBe(true);
    for (const name of ['html', 'blob', 'null', 'github']) expect(printsToTerminal([name], {}), name).toBe(false);
  });

  it('counts json and junit as printing unless they write a file, by option or by variable', () => {
    expect(printsToTerminal(['json'], {})).toBe(true);
    expect(printsToTerminal(['json', { outputFile: 'results.json' }], {})).toBe(false);
    expect(printsToTerminal(['json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: 'results.json' })).toBe(false);
    expect(printsToTerminal(['junit'], { PLAYWRIGHT_JSON_OUTPUT_FILE: 'results.json' })).toBe(true);
    expect(printsToTerminal(['junit'], { PLAYWRIGHT_JUNIT_OUTPUT_FILE: 'junit.xml' })).toBe(false);
    expect(printsToTerminal(['junit', { fileName: 'junit.xml' }], {})).toBe(false);
  });

  it("counts another package's reporter as printing, as Playwright counts one without printsToStdio", () => {
    expect(printsToTerminal(['/repo/reporters/slack.js'], {})).toBe(true);
  });
});

describe('gatedReporters', () => {
  it("puts visual-uat's reporter first and keeps the others in their order", () => {
    expect(gatedReporters(OWN, [['html', { open: 'never' }], ['list']], {}, TEST_ARGV)).toEqual([
      OWN,
      ['html', { open: 'never' }],
      ['list'],
    ]);
  });

  it("adds the terminal reporter Playwright would have put first, after visual-uat's, when no other prints", () => {
    expect(names(gatedReporters(OWN, [['html']], {}, TEST_ARGV))).toEqual([OWN[0], 'line', 'html']);
    expect(names(gatedReporters(OWN, [['html'], ['junit', { outputFile: 'junit.xml' }]], { CI: 'true' }, TEST_ARGV))).toEqual([
      OWN[0],
      'dot',
      'html',
      'junit',
    ]);
    expect(names(gatedReporters(OWN, [], {}, TEST_ARGV))).toEqual([OWN[0], 'line']);
  });

  it('adds none to merge-reports, where Playwright adds none', () => {
    expect(names(gatedReporters(OWN, [['html']], {}, ['node', 'cli.js', 'merge-reports', 'blobs']))).toEqual([OWN[0], 'html']);
  });
});

describe('gatedReporterFlags', () => {
  it("keeps visual-uat's reporter first in the list --reporter names, either way the flag is written", () => {
    expect(gatedReporterFlags(['--reporter=line', 'tests/a.spec.ts'], isOwn, {})).toEqual([
      '--reporter=visual-uat/reporter,line',
      'tests/a.spec.ts',
    ]);
    expect(gatedReporterFlags(['--workers', '1', '--reporter', 'dot,junit'], isOwn, {})).toEqual([
      '--workers',
      '1',
      '--reporter=visual-uat/reporter,dot,junit',
    ]);
  });

  it('adds the terminal reporter when the list prints nothing', () => {
    expect(gatedReporterFlags(['--reporter=html'], isOwn, {})).toEqual(['--reporter=visual-uat/reporter,line,html']);
    expect(gatedReporterFlags(['--reporter=junit'], isOwn, { PLAYWRIGHT_JUNIT_OUTPUT_NAME: 'junit.xml', CI: '1' })).toEqual([
      '--reporter=visual-uat/reporter,dot,junit',
    ]);
  });

  it("leaves a list with blob (merge-reports compares) or visual-uat's reporter, and arguments without the flag, as they are", () => {
    expect(gatedReporterFlags(['--shard=1/2', '--reporter=blob'], isOwn, {})).toEqual(['--shard=1/2', '--reporter=blob']);
    expect(gatedReporterFlags(['--reporter=line,visual-uat/reporter'], isOwn, {})).toEqual(['--reporter=line,visual-uat/reporter']);
    expect(gatedReporterFlags(['-g', 'reporter', 'tests/'], isOwn, {})).toEqual(['-g', 'reporter', 'tests/']);
  });
});

describe('ungatedRunError', () => {
  it('names the reporters and both fixes in one line, the second with a terminal reporter after the gate', () => {
    expect(ungatedRunError([['line']], {}, '/repo')).toBe(
      "visual-uat: this run's reporters (line) leave out visual-uat's, so nothing would compare its checkpoints: run npx visual-uat test --reporter=line, or npx playwright test --reporter=visual-uat/reporter,line (only --reporter=blob runs without it: merge-reports compares)",
    );
    const message = ungatedRunError([['html'], ['/repo/reporters/quiet.js']], {}, '/repo');
    expect(message).toContain('(html,reporters/quiet.js)');
    expect(message).not.toContain('\n');
  });
});
