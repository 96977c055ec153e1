import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';

/**
 * Where the report places what visual-uat does: at the user's lines, never in visual-uat's own
 * files (installed under node_modules/, or node_modules/.pnpm/… with pnpm). A reporter of the
 * project's own lists the location of every step outside a checkpoint's own step, and of every
 * error (fixtures/real-site, with a test whose checkpoint name is refused).
 */

const LOCATIONS_REPORTER = `const fs = require('node:fs');
module.exports = class {
  constructor() { this.found = []; }
  onStepBegin(test, result, step) {
    // What a checkpoint does inside its step is its own business; the steps around it are the user's.
    for (let parent = step.parent; parent; parent = parent.parent) if (parent.title.startsWith('Checkpoint ')) return;
    this.found.push({ what: 'step ' + step.title, file: step.location ? step.location.file : null });
  }
  onTestEnd(test, result) { for (const error of result.errors) this.found.push({ what: 'error ' + String(error.message).split('\\n')[0], file: error.location ? error.location.file : null }); }
  onEnd() { fs.writeFileSync(process.env.LOCATIONS_OUT, JSON.stringify(this.found, null, 2)); }
};
`;

test("steps and errors are located at the user's lines, never in visual-uat's installed files", async () => {
  const repo = createFixtureRepo({
    fixture: 'real-site',
    prepare(dir) {
      fs.writeFileSync(path.join(dir, 'locations-reporter.cjs'), LOCATIONS_REPORTER);
      const config = path.join(dir, 'playwright.config.ts');
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace("['list']]", "['list'], ['./locations-reporter.cjs']]"));
    },
  });
  fs.writeFileSync(
    path.join(repo, 'tests', 'names.spec.ts'),
    "import { test } from 'visual-uat';\n\ntest('a refused name', async ({ page, screenshotCheckpoint }) => {\n  await page.goto('/');\n  await screenshotCheckpoint('plans/2025');\n});\n",
  );
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-locations-')), 'locations.json');
  const run = runPlaywright(repo, ['test'], { LOCATIONS_OUT: out });
  expect(run.status, run.stdout + run.stderr).toBe(1);
  const found = JSON.parse(fs.readFileSync(out, 'utf8')) as { what: string; file: string | null }[];
  expect(found.filter((entry) => entry.file?.includes('node_modules'))).toEqual([]);
  expect(found).toContainEqual({ what: 'step Checkpoint "home"', file: path.join(fs.realpathSync(repo), 'tests', 'site.spec.ts') });
  expect(found).toContainEqual({
    what: 'error Error: screenshotCheckpoint: the name "plans/2025" contains a path separator, ".." or NUL: use letters, digits, spaces, "-" or "_"',
    file: path.join(fs.realpathSync(repo), 'tests', 'names.spec.ts'),
  });
});
