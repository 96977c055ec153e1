import { describe, expect, it } from 'vitest';
import { appFilesChanged } from '../../src/baseline/app-files';
import { sameAppWarning } from '../../src/report/sanity';
import type { RunContext } from '../../src/types';

const repo = { repoRoot: '/repo', testDirs: ['/repo/tests', '/repo/e2e/specs'] };

describe('appFilesChanged', () => {
  it('keeps what the app is built or served from', () => {
    expect(appFilesChanged(['M public/docs/index.html', 'M public/pricing.html', 'M src/App.tsx', 'A src/styles/theme.css', 'M server.js'], repo)).toEqual([
      'public/docs/index.html', 'public/pricing.html', 'src/App.tsx', 'src/styles/theme.css', 'server.js',
    ]);
  });

  it('drops tests, docs, manifests, lockfiles, CI and tool configs, approvals', () => {
    const notApp = [
      'M tests/site.spec.ts', 'A tests/flows/buy.ox.test', 'M tests/helpers/login.ts', 'M e2e/specs/a.ts', 'M src/App.test.tsx',
      'M README.md', 'M docs/guide/intro.html', 'M CHANGELOG.md', 'M .github/workflows/ci.yml', 'M .gitignore', 'M .npmrc',
      'M package.json', 'M package-lock.json', 'M pnpm-lock.yaml', 'M yarn.lock', 'M playwright.config.ts', 'M playwright-ct.config.mts',
      'M visual-uat.approvals.json', 'M visual-uat.instructions.md',
    ];
    expect(appFilesChanged(notApp, repo)).toEqual([]);
  });
});

const context = (appFiles: string[]): RunContext => ({
  baseBranch: 'main', baseRef: 'main', baseCommit: 'a'.repeat(40), currentBranch: 'feature', currentCommit: 'b'.repeat(40), dirty: false,
  sameAsBase: false, commits: [], changedFiles: appFiles.map((file) => `M ${file}`), appFilesChanged: appFiles, baselineDir: '/b', baselineError: null, testSources: null,
});

describe('sameAppWarning', () => {
  it('warns when app files changed and every compared checkpoint is identical', () => {
    expect(sameAppWarning(context(['public/pricing.html', 'public/styles.css']), { pairs: 3, identical: 3 })).toBe(
      'visual-uat: warning: 2 app files differ from the base (e.g. public/pricing.html), yet all 3 compared checkpoints are identical to their baselines: if those files show on these pages, the base app was probably the current one (a server that reads the current checkout by a fixed path); see README "Your web server"',
    );
  });

  it('stays quiet when anything differs, nothing was compared, or only tests and docs changed', () => {
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 3, identical: 2 })).toBeNull();
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 0, identical: 0 })).toBeNull();
    expect(sameAppWarning(context([]), { pairs: 3, identical: 3 })).toBeNull();
    expect(sameAppWarning({ ...context(['public/pricing.html']), sameAsBase: true }, { pairs: 3, identical: 3 })).toBeNull();
    expect(sameAppWarning(null, { pairs: 3, identical: 3 })).toBeNull();
  });
});
