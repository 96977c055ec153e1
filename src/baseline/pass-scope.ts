import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { baselineEntryDir, outputPath, worktreeName } from '../config/paths';
import { setupProjects, testsIsolated } from '../config/isolation';
import { lap } from '../config/timing';
import { optionsFromEnv, type ResolvedOptions } from '../config/settings';
import { webServersFromEnv, type WebServerEntry } from '../config/with-visual-uat';
import type { Repo } from '../git';
import type { BaseResolution } from '../git/base';
import type { StoreUse } from '../store/home';
import { projectCaptures, testDirData, type KeyInputs } from '../store/key';
import { suiteKeyOf } from '../store/suite-key';
import { captureOptions } from '../sources/capture-inputs';
import { ImportCache } from '../sources/import-cache';
import { SourceGraph } from '../sources/source-graph';
import { nestedArgs } from './pass';
import { updateReason, type Judge } from './plan';

/**
 * What the base pass works with, resolved once per run before any step runs (as Playwright's
 * SnapshotHelper resolves a snapshot's names, paths and option precedence in its constructor), in
 * two read-only values: the Workplace (where the pass works: the folders, git's base, the store,
 * the modules parsed, the servers) and the PassInputs (what the run takes from its Playwright
 * config: the config file, who judges, the update reason, the suite's key and the run's baseline
 * entry, the nested run's arguments). Each step is handed the fields it uses.
 */
export interface Workplace {
  readonly configDir: string;
  readonly outputDir: string;
  readonly repo: Repo;
  readonly base: BaseResolution;
  readonly store: StoreUse;
  /** Where base worktrees go (see checkout/worktrees.ts). */
  readonly worktrees: string;
  /** The base commit's worktree, under `worktrees`. */
  readonly worktree: string;
  /** The repository's modules, parsed once (see sources/source-graph.ts). */
  readonly graph: SourceGraph;
  /** The config's webServer entries as the user reads them in a message (see shownServers). */
  readonly servers: WebServerEntry[];
  readonly options: Pick<ResolvedOptions, 'keepWorktrees' | 'allowMissingBaselines'>;
  /** When the run started (Date.now()), for the pass's line of how long it took. */
  readonly started: number;
}

export interface PassInputs {
  readonly configFile: string;
  /** The config's rootDir, which a test's relative file is relative to. */
  readonly rootDir: string;
  readonly judgedBy: Judge;
  /** Why the baselines are captured again though stored (see plan.ts updateReason); null: they are not. */
  readonly update: string | null;
  /** The suite's key, and how many test-side files it hashes (see store/suite-key.ts). */
  readonly suite: { readonly key: string; readonly files: number };
  /** The run's baseline entry the pass writes, in the output folder. */
  readonly entry: string;
  /** The nested run's arguments (see pass.ts nestedArgs). */
  readonly args: string[];
  /** The installed Playwright's version. */
  readonly playwright: string;
  /** The projects other projects depend on (see config/isolation setupProjects). */
  readonly setupProjects: readonly string[];
  /**
   * What a test of a project takes into its store key besides its own closure, worked out by the
   * first step that keys a test (a warm run keys none).
   */
  readonly keyInputs: () => Promise<(project: string) => KeyInputs>;
}

/** What the setup knows of where the pass works before it resolves the rest. */
export type Known = Omit<Workplace, 'worktree' | 'graph' | 'servers'>;

/** Where the pass works, from what the setup knows. */
export function workplaceOf(known: Known): Workplace {
  return {
    ...known,
    worktree: path.join(known.worktrees, worktreeName(known.base.commit)),
    graph: new SourceGraph(known.repo.root, new ImportCache(outputPath(known.outputDir, 'importCache'))),
    servers: shownServers(known.configDir),
  };
}

/**
 * What the pass takes from the config: the suite keyed, and everything else resolved once.
 * `testDirs`: the projects' test folders; `installed`: the installed versions (see
 * sources/capture-inputs.ts versions).
 */
export async function resolvePassInputs(
  config: FullConfig,
  testDirs: readonly string[],
  configFile: string,
  judgedBy: Judge,
  installed: Record<string, string>,
  updateBaselines: boolean,
  place: Workplace,
): Promise<PassInputs> {
  const { repo, base, graph } = place;
  const args = nestedArgs(process.argv);
  const capture = captureOptions(optionsFromEnv());
  const suite = await suiteKeyOf({
    repo,
    baseCommit: base.commit,
    configFile,
    testDirs,
    args,
    options: { ...capture, selects: judgedBy === 'reporter' },
    versions: installed,
    graph,
  });
  lap('suite key');
  const captures = projectCaptures(capture, config, repo.root, installed);
  const projects = new Map(
    config.projects.map(({ name }) => [name, { capture: captures(name), isolated: testsIsolated(config, name) }] as const),
  );
  let keyInputs: Promise<(project: string) => KeyInputs> | null = null;
  return {
    configFile,
    rootDir: config.rootDir,
    judgedBy,
    update: updateReason(updateBaselines, config.updateSnapshots),
    setupProjects: setupProjects(config),
    suite: { key: suite.key, files: suite.files.length },
    entry: baselineEntryDir(place.outputDir, base.commit, suite.key),
    args,
    playwright: installed.playwright,
    keyInputs: () =>
      (keyInputs ??= testDirData(repo, testDirs).then((data) => (project: string) => ({ configFile, ...projects.get(project)!, data }))),
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
