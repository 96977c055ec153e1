import fs from 'node:fs';
import path from 'node:path';
import type { RunResult } from '../../src/report';
import { ENV } from '../../src/config/environment';
import { FIXTURES_DIR, createFixtureRepo, git, pluginTarball, runPlaywright } from '../fixture-repo';

/**
 * The attribution corpus: every fixture app with an `attribution.json` beside its `base/` and
 * `commits.json`, each change its branch makes labelled with the cause a reviewer would name.
 */

/** A change a person sees, and what caused it. */
export interface LabelledChange {
  /** `test title › checkpoint name`. */
  checkpoint: string;
  /** A regular expression the element's path or its name in the words matches (`>nav$`, `^\.label \(nav-item\.module\.scss\)`). */
  element: string;
  /** A property the explanation lists for it (`background-color`, `text`, `width`), or `removed` / `added`. */
  property: string;
  /** The file and commit subject whose diff made it; or `interaction state` for a style the pointer or focus gives on one side only. */
  cause: { file: string; commit: string } | 'interaction state';
}

/** A difference in the page that renders the same, and must not be listed (a class rename, a URL whose origin alone differs). */
export interface InvisibleChange {
  checkpoint: string;
  element: string;
  what: string;
}

export interface CorpusLabels {
  branch: string;
  changes: LabelledChange[];
  invisible: InvisibleChange[];
}

export interface CorpusApp {
  fixture: string;
  labels: CorpusLabels;
}

export interface CorpusRun extends CorpusApp {
  repo: string;
  results: RunResult;
  /** The branch's changed lines (added and removed), as `git diff` from main gives them. */
  changedLines: string[];
  durationMs: number;
}

export function corpusApps(): CorpusApp[] {
  return fs
    .readdirSync(FIXTURES_DIR)
    .filter((fixture) => fs.existsSync(path.join(FIXTURES_DIR, fixture, 'attribution.json')))
    .sort()
    .map((fixture) => ({
      fixture,
      labels: JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, fixture, 'attribution.json'), 'utf8')) as CorpusLabels,
    }));
}

/** The branch's added and removed lines, without the diff's own headers. */
function branchLines(repo: string): string[] {
  return git(repo, ['diff', '--no-color', '-U0', 'main...HEAD'])
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line))
    .map((line) => line.slice(1));
}

/**
 * Runs each app's suite as a user would: the packed plugin installed in a temporary git repository
 * with the app's base on main and its commits on the labelled branch, `playwright test` there.
 */
export function runCorpus(apps: CorpusApp[] = corpusApps()): CorpusRun[] {
  ENV.testTarball.write(pluginTarball());
  return apps.map((app) => {
    const repo = createFixtureRepo({ fixture: app.fixture, branch: app.labels.branch });
    const started = Date.now();
    const run = runPlaywright(repo, ['test']);
    const latest = path.join(repo, '.visual-uat', 'results', 'latest.json');
    if (!fs.existsSync(latest))
      throw new Error(
        `${app.fixture}: the run wrote no results (exit ${run.status}): ${(run.stdout + run.stderr).trim().split('\n').slice(-5).join(' / ')}`,
      );
    const results = JSON.parse(fs.readFileSync(latest, 'utf8')) as RunResult;
    return { ...app, repo, results, changedLines: branchLines(repo), durationMs: Date.now() - started };
  });
}
