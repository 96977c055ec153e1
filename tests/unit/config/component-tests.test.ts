import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { basePathOf, baselineComponentBuild, type BaseSources } from '../../../src/config/component-tests';

const sources: BaseSources = {
  repoRoot: '/repo',
  worktree: '/repo/.visual-uat/worktrees/abc',
  keep: ['/repo/.visual-uat/worktrees/abc', '/repo/.visual-uat'],
};

describe('basePathOf', () => {
  it('maps the repository sources to the same path in the base worktree', () => {
    expect(basePathOf('/repo/src/Button.tsx', sources)).toBe('/repo/.visual-uat/worktrees/abc/src/Button.tsx');
  });

  it('leaves dependencies, kept folders and files outside the repository alone', () => {
    expect(basePathOf('/repo/node_modules/react/index.js', sources)).toBeNull();
    expect(basePathOf('/repo/.visual-uat/worktrees/abc/src/Button.tsx', sources)).toBeNull();
    expect(basePathOf('/elsewhere/src/Button.tsx', sources)).toBeNull();
    expect(basePathOf('/repository/src/Button.tsx', sources)).toBeNull();
    expect(basePathOf('virtual:module', sources)).toBeNull();
  });
});

type Use = { ctCacheDir?: string; ctViteConfig?: () => Promise<{ plugins: { name: string }[]; build: { emptyOutDir: boolean } }> };

function ctConfig(config: PlaywrightTestConfig): PlaywrightTestConfig {
  return {
    ...config,
    '@playwright/experimental-ct-core': { frameworkPluginFactory: async () => ({ name: 'react' }) },
  } as PlaywrightTestConfig;
}

describe('baselineComponentBuild', () => {
  it('leaves a config that is not a component-test config as it is', () => {
    const config: PlaywrightTestConfig = { use: { baseURL: 'http://localhost:3000' } };
    expect(baselineComponentBuild(config, sources, '/cache')).toBe(config);
  });

  it('gives the base build its own cache and the base-sources plugin beside the framework plugin', async () => {
    const use = baselineComponentBuild(ctConfig({ use: { ctCacheDir: 'playwright/.cache' } as object }), sources, '/cache').use as Use;
    expect(use.ctCacheDir).toBe('/cache');
    const vite = await use.ctViteConfig!();
    expect(vite.plugins.map((plugin) => plugin.name)).toEqual(['visual-uat:base-sources', 'react']);
    expect(vite.build.emptyOutDir).toBe(true);
  });

  it("keeps the user's own Vite plugins and settings, in the projects that set their own too", async () => {
    const userVite = { plugins: [{ name: 'user-react' }], define: { FLAG: 'true' } };
    const config = baselineComponentBuild(
      ctConfig({
        use: { ctViteConfig: userVite } as object,
        projects: [{ name: 'plain' }, { name: 'own', use: { ctViteConfig: async () => ({ plugins: [{ name: 'own' }] }) } as object }],
      }),
      sources,
      '/cache',
    );
    const top = await (config.use as Use).ctViteConfig!();
    expect(top).toMatchObject({ define: { FLAG: 'true' } });
    expect(top.plugins.map((plugin) => plugin.name)).toEqual(['visual-uat:base-sources', 'user-react']);
    expect(config.projects![0]).toEqual({ name: 'plain' });
    const own = config.projects![1].use as Use;
    expect(own.ctCacheDir).toBe('/cache');
    expect((await own.ctViteConfig!()).plugins.map((plugin) => plugin.name)).toEqual(['visual-uat:base-sources', 'own']);
  });
});

describe('the base-sources plugin', () => {
  it('resolves a current source to the base file, and a file missing in the base to a module that throws', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-ct-unit-'));
    const worktree = path.join(root, '.visual-uat', 'worktrees', 'abc');
    fs.mkdirSync(path.join(worktree, 'src'), { recursive: true });
    fs.writeFileSync(path.join(worktree, 'src', 'Button.tsx'), 'export {}');
    const config = baselineComponentBuild(ctConfig({}), { repoRoot: root, worktree, keep: [worktree] }, '/cache');
    const [plugin] = (await (config.use as Use).ctViteConfig!()).plugins as unknown as {
      configResolved(config: { root: string }): void;
      resolveId(this: unknown, source: string, importer: string | undefined, options: object): Promise<unknown>;
      load(id: string): string | null;
    }[];
    plugin.configResolved({ root: path.join(root, 'playwright') });
    const context = { resolve: async (source: string) => ({ id: source }) };
    const resolve = (source: string) => plugin.resolveId.call(context, source, undefined, {});
    expect(await resolve(path.join(root, 'src', 'Button.tsx?used'))).toBe(path.join(worktree, 'src', 'Button.tsx?used'));
    expect(await resolve(path.join(root, 'playwright', 'index.tsx'))).toEqual({ id: path.join(root, 'playwright', 'index.tsx') });
    const missing = (await resolve(path.join(root, 'src', 'Tag.tsx'))) as string;
    expect(plugin.load(missing)).toContain('src/Tag.tsx is not in the base commit');
    fs.rmSync(root, { recursive: true, force: true });
  });
});
