import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appFilesChanged, runtimeDependenciesDiffer } from '../../../src/baseline/app-files';
import { changedFiles, openRepo } from '../../../src/git';

const repo = { repoRoot: '/repo', testDirs: ['/repo/tests', '/repo/e2e/specs'], manifestsWithNewDependencies: [] as string[] };

describe('appFilesChanged', () => {
  it('keeps what the app is built or served from', () => {
    expect(
      appFilesChanged(
        ['M public/docs/index.html', 'M public/pricing.html', 'M src/App.tsx', 'A src/styles/theme.css', 'M server.js'],
        repo,
      ),
    ).toEqual(['public/docs/index.html', 'public/pricing.html', 'src/App.tsx', 'src/styles/theme.css', 'server.js']);
  });

  it('sees an app file behind hundreds of changed tests: the changed files are not cut before it looks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-app-files-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    const tests = Array.from({ length: 250 }, (_, i) => `tests/t${i}.spec.ts`);
    [...tests, 'web/app.css'].forEach((file) => write(file, 'old\n'));
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    [...tests, 'web/app.css'].forEach((file) => write(file, 'new\n'));
    const changed = await changedFiles(await openRepo(dir), base);
    expect(changed).toHaveLength(251);
    expect(appFilesChanged(changed, { repoRoot: dir, testDirs: [path.join(dir, 'tests')], manifestsWithNewDependencies: [] })).toEqual([
      'web/app.css',
    ]);
  });

  it("drops tests, docs, manifests, lockfiles, CI and tool configs, approvals, Playwright's own output", () => {
    const notApp = [
      'M tests/site.spec.ts',
      'A tests/flows/buy.ox.test',
      'M tests/helpers/login.ts',
      'M e2e/specs/a.ts',
      'M src/App.test.tsx',
      'M README.md',
      'M docs/guide/intro.html',
      'M CHANGELOG.md',
      'M .github/workflows/ci.yml',
      'M .gitignore',
      'M .npmrc',
      'M package-lock.json',
      'M pnpm-lock.yaml',
      'M yarn.lock',
      'M playwright.config.ts',
      'M playwright-ct.config.mts',
      'M visual-uat.approvals.json',
      'M visual-uat.instructions.md',
      'A playwright-report/data/3f2a.png',
      'A playwright-report/index.html',
      'A test-results/home-chromium/trace.zip',
      'A web/blob-report/report-1.zip',
    ];
    expect(appFilesChanged(notApp, repo)).toEqual([]);
  });

  it('keeps the dotfiles the build or the app reads, and a package.json whose runtime dependencies changed', () => {
    const changed = [
      'M .env.production',
      'M .browserslistrc',
      'M .postcssrc.json',
      'M .prettierrc',
      'M package.json',
      'M web/package.json',
    ];
    expect(appFilesChanged(changed, { ...repo, manifestsWithNewDependencies: ['web/package.json'] })).toEqual([
      '.env.production',
      '.browserslistrc',
      '.postcssrc.json',
      'web/package.json',
    ]);
  });

  it('tells a runtime dependency change from a tooling one in package.json', () => {
    const base = JSON.stringify({ name: 'site', dependencies: { react: '^18.3.0' }, devDependencies: { '@playwright/test': '^1.65.0' } });
    const adopted = JSON.stringify({
      name: 'site',
      dependencies: { react: '^18.3.0' },
      devDependencies: { '@playwright/test': '^1.65.0', 'visual-uat': '^0.2.0' },
      scripts: { vt: 'playwright test' },
    });
    const bumped = JSON.stringify({ name: 'site', dependencies: { react: '^19.1.0' }, devDependencies: { '@playwright/test': '^1.65.0' } });
    expect(runtimeDependenciesDiffer(base, adopted)).toBe(false);
    expect(runtimeDependenciesDiffer(base, bumped)).toBe(true);
    expect(runtimeDependenciesDiffer(null, base)).toBe(true);
  });
});
