import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PACKAGE_ROOT, cleanEnv, createFixtureRepo, playwrightCli } from '../../scripts/fixture-repo';
import { NO_CHROMIUM } from '../../src/config/browser';

/**
 * A newcomer's machine with neither Playwright's Chromium nor a system one. This machine has a
 * system Chromium, so the test hides it: a private mount namespace (root only) puts an empty,
 * non-executable file over it, and PLAYWRIGHT_BROWSERS_PATH points at an empty folder.
 */

const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((file) => fs.existsSync(file));
const canHide = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;

function withoutChromium(command: string[], cwd: string) {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-no-browser-'));
  fs.writeFileSync(path.join(empty, 'chromium'), '');
  const hide = SYSTEM_CHROMIUMS.map((file) => `mount --bind ${JSON.stringify(path.join(empty, 'chromium'))} ${JSON.stringify(file)}`);
  const script = [...hide, 'exec "$@"'].join(' && ');
  return spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', ...command], {
    cwd,
    env: cleanEnv({ PLAYWRIGHT_BROWSERS_PATH: path.join(empty, 'browsers'), CI: '' }),
    encoding: 'utf8',
    timeout: 120_000,
  });
}

test.skip(!canHide, 'hiding the system Chromium needs root and unshare');

test('npm run demo without any Chromium says in one line what to install', async () => {
  const demo = withoutChromium([process.execPath, path.join(PACKAGE_ROOT, 'dist', 'scripts', 'demo.js')], PACKAGE_ROOT);
  expect(demo.status).toBe(1);
  expect(demo.stderr).toBe(`${NO_CHROMIUM}\n`);
  expect(demo.stdout).toBe('');
});

test('a visual-uat run without any Chromium stops before its tests with the same line', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const run = withoutChromium([process.execPath, playwrightCli(repo), 'test'], repo);
  expect(run.status).toBe(1);
  // All the run prints: no baseline pass, no test, no launch error.
  const lines = (run.stdout + run.stderr).split('\n').filter((line) => line.trim());
  expect(lines).toEqual([`Error: ${NO_CHROMIUM}`]);
});
