import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, TestCase } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import { storeHolds } from '../../../src/store/entry';
import { recordBaselines } from '../../../src/report/record-baselines';
import type { RunContext } from '../../../src/types';
import { checkpointPair, collectedTest } from '../../support/collected';
import { temporaryRepository } from '../../support/files';

const BASE_COMMIT = 'c'.repeat(40);

/** A git repository with a config and a spec of three tests, and the store a record run writes. */
function repository() {
  const { root, write } = temporaryRepository('visual-uat-record-');
  const configFile = write('playwright.config.ts', "export default { testDir: 'tests' };\n");
  const spec = write('tests/pricing.spec.ts', "test('plans', () => {});\ntest('cart', () => {});\ntest('api', () => {});\n");
  const image = write('shots/plans.png', 'png bytes');
  const store = path.join(root, 'store');
  const context = { baseCommit: BASE_COMMIT, record: { store, repoRoot: root } } as RunContext;
  const config = { projects: [{ name: 'chromium', testDir: path.join(root, 'tests'), use: {} }] } as unknown as FullConfig;
  const location = (line: number) => ({ file: spec, line, column: 1 });
  return { root, configFile, image, store, context, config, location };
}

/** A Playwright test case of the spec that took no checkpoint, as a reporter sees it. */
function functionalTest(title: string, location: TestCase['location'], status: 'passed' | 'failed'): TestCase {
  return {
    title,
    location,
    results: [{ status }],
    parent: { project: () => ({ name: 'chromium' }) },
    titlePath: () => ['', 'chromium', 'pricing.spec.ts', title],
  } as unknown as TestCase;
}

describe('recordBaselines', () => {
  it('stores each test that passed with every checkpoint, skips the others, and says so', async () => {
    const { configFile, image, store, context, config, location } = repository();
    const plans = collectedTest('plans', [checkpointPair('hero', null, image)], { test: { location: location(1) } as TestCase });
    const cart = collectedTest('cart', [checkpointPair('total', null, image)], {
      test: { location: location(2) } as TestCase,
      status: 'failed',
    });
    const line = await recordBaselines([plans, cart], [], context, config, configFile);
    expect(line).toMatch(
      new RegExp(
        `^visual-uat: recorded the baselines of cccccccc: 1 test stored, 0 there already; 1 test not stored \\(failed, or outside the repository\\) \\(store ${store}: `,
      ),
    );
    expect(storeHolds(store, BASE_COMMIT, plans.key)).toBe(true);
    expect(storeHolds(store, BASE_COMMIT, cart.key)).toBe(false);
    expect(await recordBaselines([plans], [], context, config, configFile)).toMatch(/: 0 tests stored, 1 there already \(store /);
  });

  it('notes a passing test that took no checkpoint, so a sharded run need not render it on the base, and not a failed one', async () => {
    const { configFile, context, config, location } = repository();
    const line = await recordBaselines(
      [],
      [functionalTest('api', location(3), 'passed'), functionalTest('cart', location(2), 'failed')],
      context,
      config,
      configFile,
    );
    expect(line).toContain(
      '0 tests stored, 0 there already; 1 test that took no checkpoint noted, so a sharded run need not render it on the base',
    );
  });

  it('says in one line what to do when the store cannot be written', async () => {
    const { root, configFile, image, context, config, location } = repository();
    const blocked = path.join(root, 'not-a-folder');
    fs.writeFileSync(blocked, 'a file where the store should be');
    const plans = collectedTest('plans', [checkpointPair('hero', null, image)], { test: { location: location(1) } as TestCase });
    const line = await recordBaselines(
      [plans],
      [],
      { ...context, record: { store: blocked, repoRoot: root } } as RunContext,
      config,
      configFile,
    );
    expect(line).toMatch(
      /^visual-uat: warning: the baselines of cccccccc could not be recorded in the baseline store .*not-a-folder \(E[A-Z]+\) after 0 tests: free space or make it writable, or point baselineStore \(or VISUAL_UAT_BASELINE_STORE\) at another folder$/,
    );
  });
});
