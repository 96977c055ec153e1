import type { ElementChange } from '../../src/explain';
import { stepParts } from '../../src/explain/words';
import type { RunResult } from '../../src/report';
import type { CorpusLabels, LabelledChange } from './corpus';

/**
 * The attribution score of one corpus run, from its results file and its labels: each labelled
 * change is right when a listed change of its checkpoint is its element, lists its property and
 * names its file and commit (or, for an interaction state, names the pointer or focus and no
 * commit); "no changed file mentions this element" is wrong wherever a changed line of the branch
 * names the element (one of its classes, its id, or its text, whole) or a label says a file made it;
 * an invisible difference is wrong when it is listed.
 */

export interface Miss {
  app: string;
  checkpoint: string;
  expected: string;
  said: string;
  /** What was wrong, for a labelled change: the first of the element, property, file, commit that was not right. */
  kind?: MissKind;
  /** For an element named by a CSS Module's generated class only: what was wrong besides its name, or `right` (its words are `said`). */
  behindTheName?: MissKind | 'right';
}

export type MissKind = 'element not listed' | 'property not named' | 'not attributed' | 'wrong file' | 'wrong commit' | 'pointer not named';

export interface Score {
  labelled: number;
  right: number;
  misses: Miss[];
  /** Changes said to be in no changed file although one mentions them. */
  falseSilences: Miss[];
  /** Invisible differences listed as changes. */
  invisibleListed: Miss[];
  /** Listed changes no label names (an element a labelled change moved or grew), for reading. */
  unlabelled: Miss[];
}

export interface ScoredApp {
  fixture: string;
  labels: CorpusLabels;
  results: RunResult;
  changedLines: string[];
}

const NO_MENTION = 'no changed file mentions this element';

function explainedChanges(results: RunResult, checkpoint: string): ElementChange[] {
  const [title, name] = checkpoint.split(' › ');
  const found = results.tests.find((test) => test.title === title)?.checkpoints.find((c) => c.name === name);
  return found?.explanation?.changes ?? [];
}

const expectedWords = (label: LabelledChange) =>
  `${label.element} ${label.property} — ${label.cause === 'interaction state' ? 'interaction state' : `${label.cause.file} (${label.cause.commit})`}`;

const namesProperty = (change: ElementChange, label: LabelledChange) =>
  label.property === 'removed' || label.property === 'added'
    ? change.kind === label.property
    : change.properties.some((p) => p.property === label.property);

/** Why a listed change of the labelled element is not the labelled cause; null when it is. */
function wrong(change: ElementChange, label: LabelledChange): MissKind | null {
  if (!namesProperty(change, label)) return 'property not named';
  if (label.cause === 'interaction state') return change.cause === null && /pointer|focus/i.test(change.words) ? null : 'pointer not named';
  if (!change.cause) return 'not attributed';
  if (change.cause.file !== label.cause.file) return 'wrong file';
  return (change.cause.commit ?? '').replace(/^[0-9a-f]+ /, '') === label.cause.commit ? null : 'wrong commit';
}

const KIND_ORDER: MissKind[] = ['pointer not named', 'wrong commit', 'wrong file', 'not attributed', 'property not named'];

/** The nearest miss: a change that got further (the property named, a file credited) says what is left to fix. */
const nearest = (kinds: (MissKind | null)[]) => KIND_ORDER.find((k) => kinds.includes(k))!;

/** A path or name with each CSS Module class (`._label_cs8t7_1`, as Vite generates it) written as its source class (`.label`). */
const withModuleNames = (text: string) => text.replace(/\._([A-Za-z][\w-]*)_[a-z0-9]{5}_\d+/g, '.$1');

/** The labelled element's listed changes: its label's pattern matches the path or the name the words give it (a source name). */
export const labelledElement = (change: Pick<ElementChange, 'path' | 'element'>, label: { element: string }) =>
  new RegExp(label.element).test(change.path) || new RegExp(label.element).test(change.element);

/** Whether a changed line names the element: one of its classes or its id as a whole token, or one of its texts whole. */
function mentioned(change: ElementChange, lines: readonly string[]): boolean {
  const { id, classes } = stepParts(change.path);
  const names = [...classes, ...(id ? [id] : [])].filter((name) => name.length >= 3);
  const texts = change.properties
    .filter((p) => p.property === 'text')
    .flatMap((p) => [p.before, p.after])
    .filter((text) => text.length >= 3);
  const whole = (word: string, line: string) => {
    const at = line.indexOf(word);
    return at >= 0 && !/[\w-]/.test(line[at - 1] ?? ' ') && !/[\w-]/.test(line[at + word.length] ?? ' ');
  };
  return lines.some((line) => names.some((name) => whole(name, line)) || texts.some((text) => line.includes(text)));
}

export function scoreApps(apps: readonly ScoredApp[]): Score {
  const score: Score = { labelled: 0, right: 0, misses: [], falseSilences: [], invisibleListed: [], unlabelled: [] };
  for (const app of apps) {
    const checkpoints = new Set([...app.labels.changes, ...app.labels.invisible].map((label) => label.checkpoint));
    for (const label of app.labels.changes) {
      score.labelled++;
      const listed = explainedChanges(app.results, label.checkpoint);
      const candidates = listed.filter((change) => labelledElement(change, label));
      const kinds = candidates.map((change) => wrong(change, label));
      if (kinds.includes(null)) score.right++;
      else if (kinds.length) {
        score.misses.push({
          app: app.fixture,
          checkpoint: label.checkpoint,
          expected: expectedWords(label),
          said: candidates.map((change) => change.words).join(' | '),
          kind: nearest(kinds),
        });
      } else {
        // Named by a CSS Module's generated class only: what else was wrong says what is left once it is named as its source names it.
        const hashed = listed.filter((change) =>
          labelledElement({ path: withModuleNames(change.path), element: withModuleNames(change.element) }, label),
        );
        const behind = hashed.map((change) => wrong(change, label));
        const miss: Miss = {
          app: app.fixture,
          checkpoint: label.checkpoint,
          expected: expectedWords(label),
          said: hashed.map((change) => change.words).join(' | ') || 'not listed',
          kind: 'element not listed',
        };
        if (behind.length) miss.behindTheName = behind.includes(null) ? 'right' : nearest(behind);
        score.misses.push(miss);
      }
    }
    for (const checkpoint of checkpoints)
      for (const change of explainedChanges(app.results, checkpoint)) {
        const labels = app.labels.changes.filter((label) => label.checkpoint === checkpoint && labelledElement(change, label));
        const entry = { app: app.fixture, checkpoint, expected: '', said: change.words };
        if (
          change.words.endsWith(NO_MENTION) &&
          (labels.some((label) => label.cause !== 'interaction state') || mentioned(change, app.changedLines))
        )
          score.falseSilences.push({ ...entry, expected: 'a changed file mentions it' });
        const invisible = app.labels.invisible.find((label) => label.checkpoint === checkpoint && labelledElement(change, label));
        if (invisible) score.invisibleListed.push({ ...entry, expected: `not listed: ${invisible.what}` });
        else if (labels.length === 0) score.unlabelled.push({ ...entry, expected: 'no label' });
      }
  }
  return score;
}
