import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { baselineEntryDir, outputPath } from '../config/paths';
import { testsIsolated } from '../config/isolation';
import { lap } from '../config/timing';
import { optionsFromEnv, type ResolvedOptions } from '../config/settings';
import { webServersFromEnv, type WebServerEntry } from '../config/with-visual-uat';
import type { Repo } from '../git';
import type { BaseResolution } from '../git/base';
import type { StoreUse } from '../store/home';
import { projectCaptures, testDirData, type KeyInputs } from '../store/key';
import { suiteKeyOf } from '../store/suite-key';
import { captureOptions, versions } from '../sources/capture-inputs';
import { ImportCache } from '../sources/import-cache';
import { SourceGraph } from '../sources/source-graph';
import { nestedArgs } from './pass';
import { updateReason, type Judge } from './plan';

/**
 * Everything the base pass works with, resolved once per run before any step runs (as Playwright's
 * SnapshotHelper resolves a snapshot's names, paths and option precedence in its constructor):
 * the config and settings, git's base, the store as this run may use it, the suite's key and the
 * run's baseline entry, the nested run's arguments. Read-only: a step that needs another value (a
 * pass beside the tests writes elsewhere) makes a new scope from it.
 */
export interface PassScope {
  readonly config: FullConfig;
  readonly configFile: string;
  readonly configDir: string;
  readonly outputDir: string;
  readonly options: ResolvedOptions;
  readonly repo: Repo;
  readonly base: BaseResolution;
  readonly store: StoreUse;
  readonly judgedBy: Judge;
  /** Where base worktrees go (see checkout/worktrees.ts). */
  readonly worktrees: string;
  /** When the run started (Date.now()), for the pass's line of how long it took. */
  readonly started: number;
  /** The suite's key, how many test-side files it hashes, and those modules parsed once (see store/suite-key.ts). */
  readonly suite: { readonly key: string; readonly files: number; readonly graph: SourceGraph };
  /** The run's baseline entry the pass writes, under `root`. */
  readonly entry: string;
  /**
   * Where the pass writes its entry, logs, lists and Playwright output: the output folder, or
   * besidePassRoot for a pass beside the tests.
   */
  readonly root: string;
  /** The nested run's arguments (see pass.ts nestedArgs). */
  readonly args: string[];
  /** The config's webServer entries as the user reads them in a message (see shownServers). */
  readonly servers: WebServerEntry[];
  /** The installed Playwright's version. */
  readonly playwright: string;
  /** Why the baselines are captured again though stored (see plan.ts updateReason); null: they are not. */
  readonly update: string | null;
  /**
   * What a test of a project takes into its store key besides its own closure, worked out by the
   * first step that keys a test (a warm run keys none).
   */
  readonly keyInputs: () => Promise<(project: string) => KeyInputs>;
}

/** What the setup knows before the pass: the config, its settings, git's base and the store opened. */
export type RunKnown = Pick<
  PassScope,
  'config' | 'configFile' | 'configDir' | 'outputDir' | 'options' | 'repo' | 'base' | 'store' | 'judgedBy' | 'worktrees' | 'started'
>;

/** The scope of a run's base pass: the suite keyed and everything else resolved from what the setup knows. */
export async function resolvePassScope(known: RunKnown): Promise<PassScope> {
  const { config, configFile, configDir, outputDir, repo, base, options } = known;
  const args = nestedArgs(process.argv);
  const capture = captureOptions(optionsFromEnv());
  const graph = new SourceGraph(repo.root, new ImportCache(outputPath(outputDir, 'importCache')));
  const installed = versions(configFile);
  const testDirs = config.projects.map((project) => project.testDir);
  const selects = known.judgedBy === 'reporter';
  const suite = await suiteKeyOf({
    repo,
    baseCommit: base.commit,
    configFile,
    testDirs,
    args,
    options: { ...capture, selects },
    versions: installed,
    graph,
  });
  lap('suite key');
  const captures = projectCaptures(capture, config, repo.root, configFile);
  let keyInputs: Promise<(project: string) => KeyInputs> | null = null;
  return {
    ...known,
    suite: { key: suite.key, files: suite.files.length, graph },
    entry: baselineEntryDir(outputDir, base.commit, suite.key),
    root: outputDir,
    args,
    servers: shownServers(configDir),
    playwright: installed.playwright,
    update: updateReason(options.updateBaselines, config.updateSnapshots),
    keyInputs: () =>
      (keyInputs ??= testDirData(repo, testDirs).then((data) => (project: string) => ({
        configFile,
        capture: captures(project),
        isolated: testsIsolated(config, project),
        data,
      }))),
  };
}

/**
 * The config's webServer entries as the user reads them in a message: commands with paths
 * relative to the config's folder. withVisualUat keeps them (see webServersFromEnv): Playwright's
 * resolved config has none when webServer is an array.
 */
function shownServers(configDir: string): WebServerEntry[] {
  const shown = (command: string) => command.split(`${configDir}${path.sep}`).join('');
  return webServersFromEnv().map((server) => ({
    ...server,
    command: shown(server.command),
    baseWebServer: server.baseWebServer ? shown(server.baseWebServer) : null,
  }));
}
