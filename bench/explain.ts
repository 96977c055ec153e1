import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { explainChange } from '../src/explain';
import { codeChanges, openRepo } from '../src/git';
import { readLayout } from '../src/files/run-folder';
import { runCorpus } from '../scripts/attribution-corpus/corpus';
import { git } from '../scripts/fixture-repo';
import { writeBenchSection } from './results-file';
import { appendBenchJson } from './run';

/**
 * The explain stage on the attribution corpus (fixtures/*\/attribution.json): each app is run from
 * the packed plugin, then each changed checkpoint's explanation is made again from the layout
 * records its run captured, the branch's diffs read once per app as the reporter reads them.
 * Prints the median time per changed checkpoint, and the diffs' reading per app.
 */

const RUNS = 15;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

/** The current side's layout record a checkpoint's capture wrote (test-results/visual-uat/<project>/<test folder>/<name>.layout.json.gz). */
function currentLayout(repo: string, currentImage: string, name: string): string | null {
  const folder = path.basename(path.dirname(currentImage));
  const root = path.join(repo, 'test-results', 'visual-uat');
  const found = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .map((project) => path.join(root, project, folder, `${name}.layout.json.gz`))
        .find((file) => fs.existsSync(file))
    : undefined;
  return found ?? null;
}

async function main(): Promise<void> {
  const perCheckpoint: number[] = [];
  const diffReads: number[] = [];
  for (const run of runCorpus()) {
    const files = git(run.repo, ['diff', '--name-only', `${run.results.baseCommit}...HEAD`])
      .split('\n')
      .filter(Boolean);
    const started = performance.now();
    const code = await codeChanges(await openRepo(run.repo), run.results.baseCommit!, files);
    diffReads.push(performance.now() - started);
    const resultsDir = path.join(run.repo, '.visual-uat', 'results');
    for (const checkpoint of run.results.tests.flatMap((test) => test.checkpoints)) {
      if (!checkpoint.explanation || !checkpoint.baselineImage || !checkpoint.currentImage) continue;
      const base = readLayout(path.resolve(resultsDir, checkpoint.baselineImage).replace(/\.png$/, '.layout.json.gz'));
      const current = readLayout(currentLayout(run.repo, checkpoint.currentImage, checkpoint.name));
      if (!base || !current) throw new Error(`${run.fixture} › ${checkpoint.name}: its layout records were not found beside its images`);
      const regions = checkpoint.diffMetrics?.changedRegions ?? [];
      const times = Array.from({ length: RUNS }, () => timed(() => explainChange(base, current, regions, code)).ms);
      perCheckpoint.push(median(times));
    }
  }
  const explainMs = median(perCheckpoint);
  const diffMs = median(diffReads);
  const lines = [
    `explain stage on the attribution corpus: ${perCheckpoint.length} changed checkpoints in ${diffReads.length} apps`,
    `  explanation per changed checkpoint: median ${explainMs.toFixed(2)} ms (max ${Math.max(...perCheckpoint).toFixed(2)} ms)`,
    `  the branch's diffs read (once per run): median ${diffMs.toFixed(1)} ms`,
  ];
  for (const line of lines) console.log(line);
  writeBenchSection('explain', 'The explain stage on the attribution corpus (bench/explain.ts)', lines);
  appendBenchJson([
    { case: 'explain-per-changed-checkpoint', engine: 'explainChange', medianMs: explainMs },
    { case: 'explain-branch-diffs', engine: 'codeChanges', medianMs: diffMs },
  ]);
}

if (require.main === module) void main();
