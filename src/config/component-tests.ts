import fs from 'node:fs';
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import { isInside } from '../util/fs';

/**
 * Component tests (@playwright/experimental-ct-react, -vue, -svelte) bundle the components a test
 * mounts with Vite, from the current checkout. In the baseline pass the test files stay the
 * current ones but the components must be the base's: a Vite plugin maps every file of the
 * repository the bundle imports to the same path in the base worktree, and the base build gets a
 * cache folder of its own so neither build ever serves the other's bundle.
 */

/** The key ct-core's defineConfig adds to a config: how a component-test config is recognised. */
const CT_CORE_KEY = '@playwright/experimental-ct-core';
const MISSING_PREFIX = '\0visual-uat-not-in-base:';

interface ViteConfigLike {
  plugins?: unknown[];
  build?: { emptyOutDir?: boolean } & Record<string, unknown>;
  [key: string]: unknown;
}

type CtViteConfig = ViteConfigLike | (() => ViteConfigLike | Promise<ViteConfigLike>);

interface CtUse {
  ctCacheDir?: string;
  ctViteConfig?: CtViteConfig;
}

interface CtCoreSettings {
  frameworkPluginFactory?: () => Promise<unknown>;
}

export interface BaseSources {
  /** The current checkout's root. */
  repoRoot: string;
  /** The base commit's worktree. */
  worktree: string;
  /** Folders of the current checkout that are never mapped (the worktree itself, the output folder). */
  keep: string[];
}

function ctCore(config: PlaywrightTestConfig): CtCoreSettings | undefined {
  return (config as Record<string, unknown>)[CT_CORE_KEY] as CtCoreSettings | undefined;
}

export function isComponentTestConfig(config: PlaywrightTestConfig): boolean {
  return ctCore(config) !== undefined;
}

/** The base worktree's path for a file of the current checkout, or null when the file is not the app's source. */
export function basePathOf(file: string, sources: BaseSources): string | null {
  if (!path.isAbsolute(file) || !isInside(file, sources.repoRoot)) return null;
  if (file.split(path.sep).includes('node_modules')) return null;
  if (sources.keep.some((dir) => isInside(file, dir))) return null;
  return path.join(sources.worktree, path.relative(sources.repoRoot, file));
}

interface ResolvedId {
  id: string;
  external?: boolean | string;
}

interface ResolveContext {
  resolve(source: string, importer: string | undefined, options: Record<string, unknown>): Promise<ResolvedId | null>;
}

/**
 * The Vite plugin of the base build. The CT template folder (playwright/index.html, index.tsx) is
 * Vite's root and stays the current one: ct-core injects its component registry into that very
 * file. What the template and the registry import from the repository comes from the base. A file
 * that is not in the base (a component added on the branch) becomes a module that throws when a
 * test mounts it, so that test fails in the base pass and its checkpoints are `new`.
 */
export function baseSourcesPlugin(sources: BaseSources) {
  let keep = sources.keep;
  return {
    name: 'visual-uat:base-sources',
    enforce: 'pre' as const,
    configResolved(config: { root: string }) {
      keep = [...sources.keep, config.root];
    },
    async resolveId(this: ResolveContext, source: string, importer: string | undefined, options: Record<string, unknown>) {
      if (source.startsWith('\0')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      const [file, query = ''] = resolved.id.split(/(?=[?#])/);
      const base = basePathOf(file, { ...sources, keep });
      if (!base) return resolved;
      if (!fs.existsSync(base)) return `${MISSING_PREFIX}${path.relative(sources.repoRoot, file)}`;
      return `${base}${query}`;
    },
    load(id: string) {
      if (!id.startsWith(MISSING_PREFIX)) return null;
      const file = id.slice(MISSING_PREFIX.length);
      return `throw new Error(${JSON.stringify(`visual-uat: ${file} is not in the base commit, so the base pass cannot mount it`)});`;
    },
  };
}

async function userViteConfig(config: CtViteConfig | undefined): Promise<ViteConfigLike> {
  if (typeof config === 'function') return await config();
  return config ?? {};
}

function withBaseBuild(
  use: CtUse,
  sources: BaseSources,
  cacheDir: string,
  frameworkPlugin: CtCoreSettings['frameworkPluginFactory'],
): CtUse {
  const original = use.ctViteConfig;
  return {
    ...use,
    ctCacheDir: cacheDir,
    ctViteConfig: async () => {
      const user = await userViteConfig(original);
      // ct-core adds the framework's plugin (React, Vue…) only when the Vite config has no plugins:
      // ours is one, so the framework's is added here when the user gave none.
      const userPlugins = user.plugins ?? [];
      const plugins = userPlugins.length > 0 || !frameworkPlugin ? userPlugins : [await frameworkPlugin()];
      // The cache folder lies outside Vite's root, which Vite would otherwise never empty.
      return { ...user, build: { emptyOutDir: true, ...user.build }, plugins: [baseSourcesPlugin(sources), ...plugins] };
    },
  };
}

/** The baseline role's component build: base sources, its own cache folder. Other configs are returned as they are. */
export function baselineComponentBuild<T extends PlaywrightTestConfig>(config: T, sources: BaseSources, cacheDir: string): T {
  const settings = ctCore(config);
  if (!settings) return config;
  const rewrite = (use: CtUse) => withBaseBuild(use, sources, cacheDir, settings.frameworkPluginFactory);
  const topUse = (config.use ?? {}) as CtUse;
  return {
    ...config,
    use: rewrite(topUse),
    projects: config.projects?.map((project) => {
      const use = (project.use ?? {}) as CtUse;
      // A project that sets its own Vite config or cache replaces the top-level one for that project.
      if (use.ctViteConfig === undefined && use.ctCacheDir === undefined) return project;
      return { ...project, use: rewrite({ ...use, ctViteConfig: use.ctViteConfig ?? topUse.ctViteConfig }) };
    }),
  };
}
