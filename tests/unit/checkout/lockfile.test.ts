import { describe, expect, it } from 'vitest';
import { lockfileCovers } from '../../../src/checkout/lockfile';

const npmLock = (packages: Record<string, object>) =>
  JSON.stringify({ name: 'site', lockfileVersion: 3, requires: true, packages: { '': { name: 'site' }, ...packages } });
const pkg = (version: string) => ({
  version,
  resolved: `https://registry.npmjs.org/x/-/x-${version}.tgz`,
  integrity: `sha512-${version}`,
  dev: true,
});

describe('lockfileCovers: npm', () => {
  const base = npmLock({ 'node_modules/@playwright/test': pkg('1.65.1'), 'node_modules/ms': pkg('2.1.3') });

  it('covers a base whose every package is installed at the same place and version (a tool added on the branch)', () => {
    const current = npmLock({
      'node_modules/@playwright/test': pkg('1.65.1'),
      'node_modules/ms': pkg('2.1.3'),
      'node_modules/visual-uat': pkg('0.1.0'),
      'node_modules/sharp': pkg('0.34.5'),
    });
    expect(lockfileCovers('package-lock.json', current, base)).toBe(true);
  });

  it('does not cover a version change, a removal, or a package moved by hoisting', () => {
    expect(
      lockfileCovers(
        'package-lock.json',
        npmLock({ 'node_modules/@playwright/test': pkg('1.65.1'), 'node_modules/ms': pkg('2.1.2') }),
        base,
      ),
    ).toBe(false);
    expect(lockfileCovers('package-lock.json', npmLock({ 'node_modules/@playwright/test': pkg('1.65.1') }), base)).toBe(false);
    const hoisted = npmLock({
      'node_modules/@playwright/test': pkg('1.65.1'),
      'node_modules/ms': pkg('3.0.0'),
      'node_modules/debug/node_modules/ms': pkg('2.1.3'),
    });
    expect(lockfileCovers('package-lock.json', hoisted, base)).toBe(false);
  });

  it('trusts nothing it cannot read: version 1 lockfiles, broken JSON, yarn', () => {
    expect(
      lockfileCovers(
        'package-lock.json',
        JSON.stringify({ lockfileVersion: 1, dependencies: {} }),
        JSON.stringify({ lockfileVersion: 1, dependencies: {} }),
      ),
    ).toBe(false);
    expect(lockfileCovers('package-lock.json', '{', base)).toBe(false);
    expect(lockfileCovers('yarn.lock', 'a', 'a')).toBe(false);
  });
});

const pnpmLock = (devDependencies: Record<string, string>, packages: string[]) =>
  [
    "lockfileVersion: '9.0'",
    'importers:',
    '  .:',
    '    devDependencies:',
    ...Object.entries(devDependencies).flatMap(([name, version]) => [
      `      '${name}':`,
      `        specifier: ${version}`,
      `        version: ${version}`,
    ]),
    'packages:',
    ...packages.flatMap((key) => [`  '${key}':`, `    resolution: {integrity: sha512-${key}}`]),
    'snapshots:',
    ...packages.map((key) => `  '${key}': {}`),
    '',
  ].join('\n');

describe('lockfileCovers: pnpm', () => {
  const base = pnpmLock({ '@playwright/test': '1.65.1' }, ['@playwright/test@1.65.1', 'playwright@1.65.1']);

  it('covers a base whose importers resolve to the same versions and whose packages are all there', () => {
    const current = pnpmLock({ '@playwright/test': '1.65.1', 'visual-uat': 'file:../visual-uat-0.1.0.tgz' }, [
      '@playwright/test@1.65.1',
      'playwright@1.65.1',
      'visual-uat@file:../visual-uat-0.1.0.tgz',
    ]);
    expect(lockfileCovers('pnpm-lock.yaml', current, base)).toBe(true);
  });

  it('does not cover an importer that moved to another version', () => {
    const current = pnpmLock({ '@playwright/test': '1.66.0' }, [
      '@playwright/test@1.66.0',
      'playwright@1.66.0',
      '@playwright/test@1.65.1',
      'playwright@1.65.1',
    ]);
    expect(lockfileCovers('pnpm-lock.yaml', current, base)).toBe(false);
  });
});
