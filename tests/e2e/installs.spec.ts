import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, createFixtureRepo, fixtureEnv, git, packageManagerCli, pluginTarball } from '../../scripts/fixture-repo';
import { DEMO_STATUSES, readLatest, statuses, gateExit } from '../support/results';

/**
 * visual-uat as projects install it, on this machine's Node (20 in CI): the packed tarball under
 * `engine-strict`, with npm and with pnpm, whose symlinked store puts our files under
 * node_modules/.pnpm/… and must not move the report's locations there.
 */

const PLAYWRIGHT = JSON.parse(fs.readFileSync(require.resolve('@playwright/test/package.json'), 'utf8')).version as string;
const PNPM = ['pnpm', '10.34.8', 'bin/pnpm.cjs'] as const;

function run(cli: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [cli, ...args], { cwd, env: cleanEnv(env), encoding: 'utf8', timeout: 240_000 });
}

test('npm install --engine-strict of the tarball succeeds on this Node', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-npm-strict-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "strict", "private": true }\n');
  const install = spawnSync(
    'npm',
    ['install', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', `@playwright/test@${PLAYWRIGHT}`, pluginTarball()],
    { cwd: dir, env: cleanEnv(), encoding: 'utf8' },
  );
  expect(install.status, install.stderr).toBe(0);
  expect(fs.existsSync(path.join(dir, 'node_modules', 'visual-uat', 'dist', 'src', 'index.js'))).toBe(true);
});

test('pnpm with engine-strict: the branch that adopts visual-uat runs, the base shares its node_modules, locations stay in the spec files', async ({
  page,
}) => {
  const pnpm = packageManagerCli(...PNPM);
  const repo = createFixtureRepo({
    fixture: 'demo-app',
    modules: false,
    prepare(dir) {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        `${JSON.stringify({ ...manifest, devDependencies: { '@playwright/test': PLAYWRIGHT } }, null, 2)}\n`,
      );
      fs.writeFileSync(path.join(dir, '.npmrc'), 'engine-strict=true\n');
      const install = run(pnpm, ['install'], dir);
      expect(install.status, install.stdout + install.stderr).toBe(0);
    },
  });
  const adopt = run(pnpm, ['add', '-D', `visual-uat@file:${pluginTarball()}`], repo);
  expect(adopt.status, adopt.stdout + adopt.stderr).toBe(0);
  expect(fs.realpathSync(path.join(repo, 'node_modules', 'visual-uat'))).toContain(`${path.sep}.pnpm${path.sep}`);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'Adopt visual-uat']);

  const result = run(pnpm, ['exec', 'playwright', 'test'], repo, fixtureEnv());
  expect(result.status, result.stdout + result.stderr).toBe(gateExit(readLatest(repo)));
  expect(result.stdout).toMatch(
    /visual-uat: base dependencies: pnpm-lock\.yaml differs from the base's only by packages it adds: the current node_modules serves the base \(hard-linked, \d+\.\d s\)/,
  );
  expect(result.stdout).toContain('tests/flows.spec.ts:4:1 › pricing');
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);

  await page.goto(`file://${path.join(repo, 'playwright-report', 'index.html')}`);
  await page.getByRole('link', { name: 'site › pricing › plans' }).click();
  await expect(page.getByText('site.spec.ts:14').first()).toBeVisible();
  await expect(page.getByText('.pnpm')).toHaveCount(0);
});
