import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { JSONReport, JSONReportSpec, JSONReportSuite, JSONReportTestResult } from '@playwright/test/reporter';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { readLatest } from '../support/results';

/** A checkpoint whose locator finds nothing to capture fails within its own timeout, not the test's. */

const BROKEN_LOCATORS_SPEC = `import { expect, test } from 'visual-uat';

test.describe.configure({ timeout: 30_000 });

test('empty element', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/');
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<span id="empty"></span>'));
  await screenshotCheckpoint('spacer', { locator: page.locator('#empty'), timeout: 2000 });
});

test('missing element', async ({ page, screenshotCheckpoint }) => {
  await page.goto('/');
  await screenshotCheckpoint('hero', { locator: page.locator('#missing'), timeout: 2000 });
});

test('missing element, toHaveScreenshot', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('#missing')).toHaveScreenshot('banner.png', { timeout: 2000 });
});
`;

const REPORT_FILE = 'playwright-report.json';

function specs(suite: JSONReportSuite): JSONReportSpec[] {
  return [...suite.specs, ...(suite.suites ?? []).flatMap(specs)];
}

interface Reported {
  status: JSONReportTestResult['status'];
  durationMs: number;
  error: string;
}

/** Each test's single result in Playwright's JSON report: its status, duration and first error line. */
function reportedResults(report: JSONReport): Record<string, Reported> {
  const results: Record<string, Reported> = {};
  for (const spec of report.suites.flatMap(specs)) {
    const [result] = spec.tests[0].results;
    results[spec.title] = { status: result.status, durationMs: result.duration, error: result.error?.message?.split('\n')[0] ?? '' };
  }
  return results;
}

test('a checkpoint of a missing or zero-size element fails within its own timeout with one line naming the locator', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  fs.writeFileSync(path.join(repo, 'tests', 'broken-locators.spec.ts'), BROKEN_LOCATORS_SPEC);
  const config = path.join(repo, 'playwright.config.ts');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("['list']]", `['list'], ['json', { outputFile: '${REPORT_FILE}' }]]`));

  const run = runPlaywright(repo, ['test', 'tests/broken-locators.spec.ts']);
  const output = run.stdout + run.stderr;
  expect(run.status, output).toBe(1);
  expect(output).not.toContain('Test timeout of 30000ms exceeded');

  const reported = reportedResults(JSON.parse(fs.readFileSync(path.join(repo, REPORT_FILE), 'utf8')));
  expect(Object.keys(reported).sort()).toEqual(['empty element', 'missing element', 'missing element, toHaveScreenshot']);
  const missing = /matched no element within 2000 ms: check the selector, or wait for the element before the checkpoint$/;
  expect(reported['empty element'].error).toBe(
    `Error: checkpoint "spacer": locator('#empty') matched no visible element within 2000 ms (it measures 0×0: hidden or empty): wait for it to be visible before the checkpoint, or check the selector`,
  );
  expect(reported['missing element'].error).toMatch(new RegExp(`^Error: checkpoint "hero": locator\\('#missing'\\) ${missing.source}`));
  expect(reported['missing element, toHaveScreenshot'].error).toMatch(
    new RegExp(`^Error: checkpoint "banner": locator\\('#missing'\\) ${missing.source}`),
  );
  for (const [title, result] of Object.entries(reported)) {
    expect(result.status, title).toBe('failed');
    // The checkpoint's 2 s plus the page load, far from the test's 30 s.
    expect(result.durationMs, title).toBeLessThan(10_000);
  }

  const recorded = readLatest(repo).tests.find((t) => t.title === 'missing element');
  expect(recorded?.status).toBe('errored');
  expect(recorded?.error).toContain(`checkpoint "hero": locator('#missing') matched no element within 2000 ms`);
});
