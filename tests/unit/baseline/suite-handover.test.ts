import type { TestCase } from '@playwright/test/reporter';
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listedTests, listingOf, type ListedTest } from '../../../src/baseline/selection';
import { SourceGraph } from '../../../src/sources/source-graph';
import { awaitSuite, handOverSuite, stopAwaitingSuite } from '../../../src/baseline/suite-handover';

/** A TestCase as the runner begins with it: root and project suites, then the file, describes and title. */
function testCase(project: string, file: string, titles: string[], line: number, expectedStatus = 'passed'): TestCase {
  return {
    expectedStatus,
    titlePath: () => ['', project, file, ...titles],
    parent: { project: () => ({ name: project }) },
    location: { file: `/repo/tests/${file}`, line, column: 3 },
  } as unknown as TestCase;
}

afterEach(() => stopAwaitingSuite());

describe('handOverSuite', () => {
  it('gives the listener the tests as a --list JSON report gives them (none declared skipped: they run on neither side), once', () => {
    const heard: ListedTest[][] = [];
    awaitSuite((tests) => heard.push(tests));
    const cases = [
      testCase('chromium', 'po.spec.ts', ['account', 'login'], 4),
      testCase('chromium', 'po.spec.ts', ['home'], 12),
      testCase('chromium', 'po.spec.ts', ['legacy'], 20, 'skipped'),
    ];
    handOverSuite('/repo', cases);
    handOverSuite('/repo', cases);
    // The same suite as `playwright test --list --reporter=json` writes it.
    const listed = listedTests({
      config: { rootDir: '/repo' },
      suites: [
        {
          title: 'po.spec.ts',
          specs: [
            {
              title: 'home',
              file: 'tests/po.spec.ts',
              line: 12,
              column: 3,
              tests: [{ projectName: 'chromium', expectedStatus: 'passed' }],
            },
            {
              title: 'legacy',
              file: 'tests/po.spec.ts',
              line: 20,
              column: 3,
              tests: [{ projectName: 'chromium', expectedStatus: 'skipped' }],
            },
          ],
          suites: [
            {
              title: 'account',
              specs: [{ title: 'login', file: 'tests/po.spec.ts', line: 4, column: 3, tests: [{ projectName: 'chromium' }] }],
            },
          ],
        },
      ],
    });
    expect(heard).toHaveLength(1);
    const byKey = (tests: ListedTest[]) => [...tests].sort((a, b) => a.key.localeCompare(b.key));
    expect(byKey(heard[0])).toEqual(byKey(listed));
    expect(listed.map((test) => test.titlePath.join(' › ')).sort()).toEqual(['account › login', 'home']);
  });

  it('hands over no empty suite (test files that failed to load) and nothing without a listener', () => {
    const heard: ListedTest[][] = [];
    awaitSuite((tests) => heard.push(tests));
    handOverSuite('/repo', []);
    expect(heard).toHaveLength(0);
    stopAwaitingSuite();
    handOverSuite('/repo', [testCase('', 'a.spec.ts', ['a'], 1)]);
    expect(heard).toHaveLength(0);
  });
});

describe('listingOf', () => {
  it('lists a test repeated by --repeat-each once: the base renders it once', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'listing-of-'));
    const heard: ListedTest[][] = [];
    awaitSuite((tests) => heard.push(tests));
    const repeated = testCase('', 'outside.spec.ts', ['home'], 3);
    handOverSuite('/elsewhere', [repeated, repeated, testCase('', 'outside.spec.ts', ['about'], 9)]);
    const listing = listingOf(heard[0], new SourceGraph(repo));
    expect(listing.tests.map((test) => test.titlePath[0])).toEqual(['home', 'about']);
    expect(listing.total).toBe(2);
  });
});
