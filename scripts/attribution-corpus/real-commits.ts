import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RunResult } from '../../src/report';
import type { InvisibleChange, LabelledChange } from './corpus';
import { PACKAGE_ROOT } from '../fixture-repo';
import type { ElementChange } from '../../src/explain';
import { labelledElement, scoreApps, type Miss, type MissKind, type Score } from './score';

/**
 * The real-commit corpus (docs/attribution.md): changes from real commits of public projects,
 * each replayed on its own parent as a user would and labelled with what a reviewer would say.
 * The replays are not in this repository (their code is not ours to commit): this reads the
 * results of runs made elsewhere, one folder per case (`<folder>/<case id>/latest.json`, and
 * `branch.diff`, the branch's `git diff -U0 main...HEAD`), and scores them against the labels.
 * The committed labels are the working set; the held-out set's labels are kept outside the
 * repository, unseen by whoever works on the words, until their one scoring.
 *
 *   npm run corpus:real -- <folder>                                            # the working set
 *   npm run corpus:real -- <folder> --labels <file> [--labels <file>] --held-out  # once, at the end
 */

export type CorpusSet = 'working' | 'held-out';

export interface RealChange extends LabelledChange {
  /** `<case id>/<short name>`. */
  id: string;
  /** The element as its source names it, and where (`.navbar (src/components/Navbar.scss)`). */
  source: string;
  set: CorpusSet;
}

export interface RealCase {
  id: string;
  /** The public repository, `owner/name`. */
  repository: string;
  stack: string;
  /** The app's folder inside the repository, when not its root. */
  subdir?: string;
  /** The parent of the first commit: the replay's main. */
  base: string;
  /** The commits replayed on the branch, each on its own parent, in order. */
  commits: { sha: string; subject: string }[];
  /** What the replay's spec captures: checkpoint name → locator. */
  checkpoints: Record<string, string>;
  changes: RealChange[];
  invisible: InvisibleChange[];
}

const SETS: readonly CorpusSet[] = ['working', 'held-out'];

const CORPUS_DIR = path.join(PACKAGE_ROOT, 'scripts', 'attribution-corpus');

/**
 * The committed labels: everyone working on the words reads them, so they are all the working set.
 * A held-out set joins them once it has been scored (seen-<date>/).
 */
export const WORKING_LABELS: readonly string[] = [
  path.join(CORPUS_DIR, 'real-commits.json'),
  path.join(CORPUS_DIR, 'seen-2026-11-28', 'labels-new.json'),
  path.join(CORPUS_DIR, 'seen-2026-11-28', 'labels-more.json'),
  path.join(CORPUS_DIR, 'seen-2026-11-28-third', 'labels.json'),
  path.join(CORPUS_DIR, 'seen-2026-11-28-fourth', 'labels.json'),
  path.join(CORPUS_DIR, 'seen-2026-11-28-fifth', 'labels.json'),
];

/** The cases of one or more labels files; a case id may appear in one file only. */
export function realCases(files: readonly string[] = WORKING_LABELS): RealCase[] {
  const cases: RealCase[] = [];
  for (const file of files)
    for (const c of (JSON.parse(fs.readFileSync(file, 'utf8')) as { cases: RealCase[] }).cases) {
      if (cases.some((seen) => seen.id === c.id))
        throw new Error(`${file}: case ${c.id} is also in another labels file: give it another id`);
      for (const change of c.changes) {
        if (!SETS.includes(change.set))
          throw new Error(`${file}: ${change.id} has set ${JSON.stringify(change.set)}: mark it working or held-out`);
        if (path.resolve(file).startsWith(CORPUS_DIR + path.sep) && change.set !== 'working')
          throw new Error(
            `${file}: ${change.id} is marked ${change.set}, but the committed labels are read by everyone: keep held-out labels outside the repository`,
          );
      }
      cases.push(c);
    }
  return cases;
}

/**
 * Class names a build generated (CSS Modules as Vite `_x_hash_n` and Create React App `file_x__hash`
 * name them, styled-components, emotion, Svelte and Vue scoping): a reviewer cannot search the source for them.
 */
const HASHED = [
  /\b_[A-Za-z][\w-]*_[a-z0-9]{5}_\d+\b/,
  /\bs-[A-Za-z0-9_-]{10,}\b/,
  /\b[A-Za-z]\w*_[\w-]+__[\w-]{5}\b/,
  /\bsc-[A-Za-z]{5,}\b/,
  /\bcss-[a-z0-9]{5,}\b/,
  /\bsvelte-[a-z0-9]{6,}\b/,
  /\bdata-v-[0-9a-f]{8}\b/,
];
const FILE_NAMED = /((?:[\w.@+-]+\/)*[\w.@+-]+\.(?:css|scss|sass|less|jsx?|tsx?|vue|svelte|html|svg))\b/g;

export interface RealScore extends Score {
  set: CorpusSet;
  cases: number;
  /** Cases of the set the folder holds no results for: not scored, said first. */
  notRun: string[];
  /** Words with a generated class name in them. */
  hashedNames: Miss[];
  /** "not attributed" words of a labelled element that name a file no label of the checkpoint credits. */
  unrelatedFiles: Miss[];
  /** Changes (one file and commit) seen on several checkpoints, and those of them split over more than one group. */
  multiCheckpoint: number;
  splitGroups: Miss[];
}

function checkpointResult(results: RunResult, checkpoint: string) {
  const [title, name] = checkpoint.split(' › ');
  return results.tests.find((test) => test.title === title)?.checkpoints.find((c) => c.name === name);
}

/**
 * The results as this set may see them: a listed change that only another set's label names is
 * left out, so scoring (and printing) the working set never shows the held-out changes' words.
 */
function withoutOtherSet(results: RunResult, mine: readonly RealChange[], others: readonly RealChange[]): RunResult {
  const labelledBy = (labels: readonly RealChange[], checkpoint: string, listed: ElementChange) =>
    labels.some((label) => label.checkpoint === checkpoint && labelledElement(listed, label));
  for (const test of results.tests)
    for (const checkpoint of test.checkpoints) {
      const name = `${test.title} › ${checkpoint.name}`;
      if (checkpoint.explanation)
        checkpoint.explanation.changes = checkpoint.explanation.changes.filter(
          (listed) => labelledBy(mine, name, listed) || !labelledBy(others, name, listed),
        );
    }
  return results;
}

export function scoreRealCases(cases: readonly RealCase[], folder: string, set: CorpusSet): RealScore {
  const score: RealScore = {
    set,
    cases: 0,
    notRun: [],
    labelled: 0,
    right: 0,
    misses: [],
    falseSilences: [],
    invisibleListed: [],
    unlabelled: [],
    hashedNames: [],
    unrelatedFiles: [],
    multiCheckpoint: 0,
    splitGroups: [],
  };
  for (const c of cases) {
    const changes = c.changes.filter((change) => change.set === set);
    if (changes.length === 0) continue;
    const latest = path.join(folder, c.id, 'latest.json');
    if (!fs.existsSync(latest)) {
      score.notRun.push(`${c.id} (${changes.length} labelled changes): no results at ${latest}`);
      continue;
    }
    const results = withoutOtherSet(
      JSON.parse(fs.readFileSync(latest, 'utf8')) as RunResult,
      changes,
      c.changes.filter((change) => change.set !== set),
    );
    const diff = path.join(folder, c.id, 'branch.diff');
    const changedLines = fs.existsSync(diff)
      ? fs
          .readFileSync(diff, 'utf8')
          .split('\n')
          .filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line))
          .map((line) => line.slice(1))
      : [];
    const invisible = c.invisible.filter((label) => changes.some((change) => change.checkpoint === label.checkpoint));
    const scored = scoreApps([{ fixture: c.id, labels: { branch: 'corpus', changes, invisible }, results, changedLines }]);
    score.cases++;
    score.labelled += scored.labelled;
    score.right += scored.right;
    score.misses.push(...scored.misses);
    score.falseSilences.push(...scored.falseSilences);
    score.invisibleListed.push(...scored.invisibleListed);
    score.unlabelled.push(...scored.unlabelled);

    for (const checkpoint of new Set(changes.map((change) => change.checkpoint))) {
      const credited = new Set(
        c.changes
          .filter((change) => change.checkpoint === checkpoint && change.cause !== 'interaction state')
          .map((change) => (change.cause as { file: string }).file),
      );
      for (const listed of checkpointResult(results, checkpoint)?.explanation?.changes ?? []) {
        const entry = { app: c.id, checkpoint, said: listed.words };
        if (HASHED.some((pattern) => pattern.test(listed.words))) score.hashedNames.push({ ...entry, expected: 'no generated class name' });
        // Whether a named file is related is known for a labelled element only; the others' words are printed for reading.
        const labelled = changes.some((change) => change.checkpoint === checkpoint && labelledElement(listed, change));
        const unattributed = labelled ? listed.words.split('not attributed')[1] : undefined;
        const named = unattributed ? [...unattributed.matchAll(FILE_NAMED)].map((m) => m[1]) : [];
        if (named.some((file) => ![...credited].some((ok) => ok === file || ok.endsWith(`/${file}`))))
          score.unrelatedFiles.push({ ...entry, expected: `no file, or one of: ${[...credited].join(', ') || 'none'}` });
      }
    }

    const byCause = new Map<string, RealChange[]>();
    for (const change of changes) {
      if (change.cause === 'interaction state') continue;
      const key = `${change.cause.file} (${change.cause.commit})`;
      byCause.set(key, [...(byCause.get(key) ?? []), change]);
    }
    for (const [cause, same] of byCause) {
      const checkpoints = [...new Set(same.map((change) => change.checkpoint))];
      if (checkpoints.length < 2) continue;
      score.multiCheckpoint++;
      const groupsOf = checkpoints.map((checkpoint) => {
        const found = checkpointResult(results, checkpoint);
        return new Set([found?.group, ...(found?.otherGroups ?? [])].filter((group): group is string => !!group));
      });
      const shared = [...groupsOf[0]].filter((group) => groupsOf.every((groups) => groups.has(group)));
      if (shared.length === 0)
        score.splitGroups.push({
          app: c.id,
          checkpoint: checkpoints.join(', '),
          expected: `one group for ${cause}`,
          said: groupsOf.map((groups, i) => `${checkpoints[i]}: ${[...groups].join(' ') || 'no group'}`).join('; '),
        });
    }
  }
  return score;
}

const MISS_KINDS: MissKind[] = [
  'element not listed',
  'property not named',
  'not attributed',
  'wrong file',
  'wrong commit',
  'pointer not named',
];

export function report(score: RealScore): string {
  const line = (miss: Miss) =>
    `  ${miss.app} › ${miss.checkpoint}\n    expected: ${miss.expected}\n    said:     ${miss.said}${miss.behindTheName ? `\n    behind the generated name: ${miss.behindTheName}` : ''}`;
  const out = [
    ...score.notRun.map((line) => `not scored: ${line}`),
    `${score.set} set: ${score.labelled} labelled changes in ${score.cases} cases`,
    `cause right (element by source name, property, file, commit): ${score.right} of ${score.labelled} (${score.labelled ? Math.round((100 * score.right) / score.labelled) : 0} %)`,
    `words with a generated class name: ${score.hashedNames.length}`,
    `"not attributed" naming an unrelated file: ${score.unrelatedFiles.length}`,
    `changes seen on several checkpoints: ${score.multiCheckpoint}, split over more than one group: ${score.splitGroups.length}`,
    `"no changed file mentions" where a changed file does: ${score.falseSilences.length}`,
    `invisible differences listed: ${score.invisibleListed.length}`,
  ];
  for (const kind of MISS_KINDS) {
    const misses = score.misses.filter((miss) => miss.kind === kind);
    if (misses.length) out.push(`\nmisses: ${kind} (${misses.length})`, ...misses.map(line));
  }
  for (const [title, list] of [
    ['generated class names', score.hashedNames],
    ['"not attributed" naming an unrelated file', score.unrelatedFiles],
    ['split over groups', score.splitGroups],
    ['false "no changed file mentions"', score.falseSilences],
    ['invisible differences listed', score.invisibleListed],
    ['listed without a label (for reading)', score.unlabelled],
  ] as const)
    if (list.length) out.push(`\n${title} (${list.length}):`, ...list.map(line));
  return out.join('\n');
}

if (require.main === module) {
  const usage = 'npm run corpus:real -- <folder> [--labels <file>]... [--held-out]';
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { labels: { type: 'string', multiple: true }, 'held-out': { type: 'boolean' } },
  });
  const [folder] = positionals;
  if (!folder) {
    console.error(`corpus:real: name the folder of results (<folder>/<case id>/latest.json): ${usage}`);
    process.exit(2);
  }
  const files = (values.labels ?? WORKING_LABELS).map((file) => path.resolve(file));
  const set: CorpusSet = values['held-out'] ? 'held-out' : 'working';
  const cases = realCases(files);
  if (!cases.some((c) => c.changes.some((change) => change.set === set))) {
    console.error(
      `corpus:real: no ${set} labels in ${files.join(', ')}: the held-out labels live outside the repository, name them: ${usage}`,
    );
    process.exit(2);
  }
  console.log(report(scoreRealCases(cases, path.resolve(folder), set)));
}
