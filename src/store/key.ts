import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import type { VisualUatOptions } from '../types';
import { sourceFilesUnder, type Repo } from '../git';
import { sha256File } from '../util/hash';
import { projectUse } from '../sources/capture-inputs';
import type { TestLocation } from '../sources/capture-scan';
import { isCodeFile, type SourceGraph } from '../sources/source-graph';
import { specDigest } from '../sources/test-text';

/**
 * What keys a store entry (see entry.ts): a test's own sources and capture inputs, hashed, or, for
 * a test the store cannot key by its own sources, its suite's key.
 */

/** What a test's baselines depend on besides the base commit. */
export interface TestSource {
  hash: string;
  /** Repository-relative path → SHA-256 of its bytes: the test file, the config and what they import. */
  files: Record<string, string>;
  /** The suite key of an entry kept for one suite only (see suiteSource): no look-up by sources finds it. */
  suite?: string;
}

/** A test the pass rendered on the base, with what keys its store entry. */
export interface RenderedTest {
  key: string;
  source: TestSource;
}

/** What a test's key takes besides its own closure. */
export interface KeyInputs {
  configFile: string;
  /** Its project's capture inputs (see projectCaptures). */
  capture: string;
  /** Whether its project's tests are isolated (see config/isolation testsIsolated). */
  isolated: boolean;
  /** The files under the testDirs that are not code (see testDirData). */
  data: Record<string, string>;
}

/**
 * The test's source closure (its file, the config, what they import), the files under the
 * testDirs that are not code, and the capture inputs (captureFingerprint), hashed; null for a test
 * file outside the repository or an unreadable file: such a test is never stored. The spec counts
 * by its digest for this test (see test-text.ts: its tokens, without the file's other tests where
 * tests are isolated), every other file by its bytes.
 */
export function testSource(graph: SourceGraph, test: TestLocation, inputs: KeyInputs): TestSource | null {
  if (!graph.owns(test.file)) return null;
  const files: Record<string, string> = { ...inputs.data };
  for (const file of graph.closure([inputs.configFile, test.file])) {
    try {
      const spec = file === test.file ? graph.module(file) : null;
      files[path.relative(graph.repoRoot, file).split(path.sep).join('/')] = spec
        ? `tokens:${specDigest(spec.source, test, inputs.isolated)}`
        : sha256File(file);
    } catch {
      return null;
    }
  }
  return {
    hash: crypto
      .createHash('sha256')
      .update(JSON.stringify({ capture: inputs.capture, files }))
      .digest('hex'),
    files,
  };
}

/**
 * The files under the testDirs that are not code (a JSON a test reads by path, a CSV, a fixture
 * page), by repository-relative path → SHA-256: every test's key holds them all, since which test
 * reads which cannot be told from its imports (the suite key holds them the same way).
 */
export async function testDirData(repo: Repo, testDirs: readonly string[]): Promise<Record<string, string>> {
  const data: Record<string, string> = {};
  for (const dir of new Set(testDirs))
    for (const file of await sourceFilesUnder(repo, dir))
      if (!isCodeFile(file) && fs.existsSync(file)) data[path.relative(repo.root, file).split(path.sep).join('/')] = sha256File(file);
  return data;
}

/** The capture inputs (see capture-inputs.ts) of one project, as one string. */
function captureFingerprint(options: unknown, use: string, versions: Record<string, string>): string {
  return JSON.stringify({ options, use, versions });
}

/**
 * Each project's capture fingerprint by name, worked out once per project (its `use` stats the
 * browser binary; `installed`: the installed versions, see sources/capture-inputs.ts versions): the
 * setup's lookups and stores and a record run's stores key on the same value.
 */
export function projectCaptures(
  options: VisualUatOptions,
  config: Pick<FullConfig, 'projects'>,
  repoRoot: string,
  installed: Record<string, string>,
): (project: string) => string {
  const known = new Map<string, string>();
  return (project) => {
    if (!known.has(project))
      known.set(
        project,
        captureFingerprint(
          options,
          projectUse(
            config.projects.find((p) => p.name === project),
            repoRoot,
          ),
          installed,
        ),
      );
    return known.get(project)!;
  };
}

/**
 * What keys the entry of a test the store cannot key by its own sources (it failed on the base,
 * or no source closure): the suite's key, so only that suite's index reaches it, and a failure on
 * the base is rendered again by any other suite (its failure may not last).
 */
export function suiteSource(suiteKey: string): TestSource {
  return { hash: crypto.createHash('sha256').update(`suite\0${suiteKey}`).digest('hex'), files: {}, suite: suiteKey };
}
