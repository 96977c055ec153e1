import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sourceFilesUnder, type Repo } from '../git';
import type { SourceGraph } from '../sources/source-graph';

/**
 * Baselines are the current tests run against the base app, so they depend on the base commit and
 * on the current test side: the test files, what they import, the config and the options. The key
 * hashes exactly that; the current app's sources are left out on purpose (changing them is what
 * the run is for, and must not cost a new baseline pass).
 */

export interface SuiteKeyInput {
  repo: Repo;
  baseCommit: string;
  configFile: string;
  /** Every project's testDir. */
  testDirs: readonly string[];
  /** The arguments the nested pass gets (projects, grep, shard, files). */
  args: string[];
  /** The options that reach the capture, without secrets. */
  options: unknown;
  /** Versions that change how pages render: Playwright's and visual-uat's own. */
  versions: Record<string, string>;
  /** The test side's modules, parsed once for the key, the pass's selection and the store's keys. */
  graph: SourceGraph;
}

export interface SuiteKey {
  key: string;
  files: string[];
}

export async function suiteKeyOf(input: SuiteKeyInput): Promise<SuiteKey> {
  const start = [input.configFile];
  for (const dir of [...new Set(input.testDirs)]) start.push(...(await sourceFilesUnder(input.repo, dir)));
  // The imports as Playwright follows them (tsconfig paths, package imports, workspace packages).
  const files = input.graph.closure(start);
  const sources = crypto.createHash('sha256');
  sources.update(JSON.stringify({ args: input.args, options: input.options, versions: input.versions }));
  for (const file of files) {
    sources.update(`\0${path.relative(input.repo.root, file)}\0`);
    try {
      sources.update(fs.readFileSync(file));
    } catch {
      sources.update('<unreadable>');
    }
  }
  const testSources = sources.digest('hex');
  const key = crypto.createHash('sha256').update(`${input.baseCommit}\0${testSources}`).digest('hex');
  return { key, files };
}
