import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sourceFilesUnder, type Repo } from '../git';

/**
 * Baselines are the current tests run against the base app, so they depend on the base commit and
 * on the current test side: the test files, what they import, the config and the options. The key
 * hashes exactly that; the current app's sources are left out on purpose (changing them is what
 * the run is for, and must not cost a new baseline pass).
 */

export interface CacheKeyInput {
  repo: Repo;
  baseCommit: string;
  configFile: string;
  /** Every project's testDir. */
  testDirs: string[];
  /** The arguments the nested pass gets (projects, grep, shard, files). */
  args: string[];
  /** The options that reach the capture, without secrets. */
  options: unknown;
  /** Versions that change how pages render: Playwright's and visual-uat's own. */
  versions: Record<string, string>;
}

export interface CacheKey {
  key: string;
  files: string[];
  /** A hash of the test side's files alone: while it holds, a run's tests and checkpoints are those of the last run. */
  testSources: string;
}

const CODE_FILE = /\.(?:[cm]?[jt]sx?)$/;
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts', '/index.ts', '/index.tsx', '/index.js'];
/** Relative specifiers of import/export…from, side-effect imports, dynamic import() and require(). */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(fromFile: string, specifier: string, repoRoot: string): string | null {
  const target = path.resolve(path.dirname(fromFile), specifier);
  if (path.relative(repoRoot, target).startsWith('..') || target.includes(`${path.sep}node_modules${path.sep}`)) return null;
  // A compiled-style specifier ('./helper.js') may name a TypeScript source.
  const stems = /\.[cm]?js$/.test(target) ? [target, target.replace(/\.([cm]?)js$/, '.$1ts')] : [target];
  for (const stem of stems)
    for (const suffix of RESOLVE_SUFFIXES) {
      const candidate = stem + suffix;
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
  return null;
}

/** The starting files plus every file inside the repository they import, transitively. */
export function importClosure(start: string[], repoRoot: string): string[] {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!CODE_FILE.test(file)) continue;
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const resolved = resolveImport(file, match[1], repoRoot);
      if (resolved && !seen.has(resolved)) queue.push(resolved);
    }
  }
  return [...seen].sort();
}

export async function baselineCacheKey(input: CacheKeyInput): Promise<CacheKey> {
  const start = [input.configFile];
  for (const dir of [...new Set(input.testDirs)]) start.push(...(await sourceFilesUnder(input.repo, dir)));
  const files = importClosure(start, input.repo.root);
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
  return { key, files, testSources };
}
