import path from 'node:path';
import type { LabelledCase, LoadedCase } from '../approve';
import { compareImages, type ChangePrint, type CompareOutcome } from '../compare';
import type { EvaluationRequest, Evaluator } from '../evaluate';
import type { ComparisonTolerance, DiffMetrics, RunContext } from '../types';
import type { CaseOutcome } from './score';

/**
 * Replays labelled cases through an evaluator as a run would have sent them: each pair is
 * compared again by the current diff engine (so the diff image and metrics are today's), and
 * every pair that differs is judged.
 */

export function caseTitle(labelled: LabelledCase): string {
  return [...labelled.test.titlePath.slice(1), labelled.checkpoint].join(' › ');
}

function contextOf(labelled: LabelledCase): RunContext | null {
  const change = labelled.change;
  if (!change) return null;
  return { ...change, baseRef: change.baseBranch, sameAsBase: false, appFilesChanged: [], baselineDir: '', baselineError: null };
}

/** The request the reporter would have built for this checkpoint (its whole title path, spec file first, as the reporter sends it). */
export function requestFor(loaded: LoadedCase, metrics: DiffMetrics, diffImage: string, change: ChangePrint): EvaluationRequest {
  const labelled = loaded.case;
  return {
    name: labelled.checkpoint,
    project: labelled.test.project,
    intent: { test: labelled.intent.test, checkpoint: labelled.intent.checkpoint, titlePath: labelled.test.titlePath },
    context: contextOf(labelled),
    metrics,
    signals: labelled.signals,
    images: { baseline: loaded.images.baseline, current: loaded.images.current, diff: diffImage },
    change,
    // The words the run showed the model; a case without them (the corpus) is replayed without.
    explanation: labelled.explanation ?? null,
    // Each case is judged alone, as the single checkpoint of its change.
    group: { id: loaded.case.id, shownOn: [`${labelled.test.titlePath.join(' › ')} › ${labelled.checkpoint}`] },
  };
}

type Compared = { loaded: LoadedCase; outcome: CompareOutcome } | { loaded: LoadedCase; error: string };

async function compare(loaded: LoadedCase, diffDir: string, tolerance: Required<ComparisonTolerance>): Promise<Compared> {
  try {
    return {
      loaded,
      outcome: await compareImages({ ...loaded.images, diffOutput: path.join(diffDir, `${loaded.case.id}.png`), tolerance }),
    };
  } catch (error) {
    return { loaded, error: `not judged: ${(error as Error).message}` };
  }
}

function outcome(loaded: LoadedCase, fields: Pick<CaseOutcome, 'status' | 'evaluation' | 'reason'>): CaseOutcome {
  return { id: loaded.case.id, title: caseTitle(loaded.case), label: loaded.case.label, ...fields };
}

export async function replayCases(
  cases: LoadedCase[],
  evaluator: Evaluator,
  diffDir: string,
  tolerance: Required<ComparisonTolerance>,
): Promise<CaseOutcome[]> {
  const compared = await Promise.all(cases.map((loaded) => compare(loaded, diffDir, tolerance)));
  const different = compared.flatMap((c) =>
    'outcome' in c && c.outcome.kind === 'different' ? [{ loaded: c.loaded, outcome: c.outcome }] : [],
  );
  const verdicts = await evaluator.evaluateAll(
    different.map(({ loaded, outcome: o }) => requestFor(loaded, o.metrics, o.diffImage, o.change)),
  );
  const judged = new Map(different.map(({ loaded }, i) => [loaded, verdicts[i]]));
  return compared.map((c) => {
    if ('error' in c) return outcome(c.loaded, { status: 'not_judged', evaluation: null, reason: c.error });
    const verdict = judged.get(c.loaded);
    if (!verdict)
      return outcome(c.loaded, {
        status: 'unchanged',
        evaluation: null,
        reason:
          `${c.outcome.kind === 'identical' ? 'identical' : 'within tolerance'} under the current diff engine: a run ` +
          `would not ask the model`,
      });
    if (!verdict.evaluation) return outcome(c.loaded, { status: 'not_judged', evaluation: null, reason: verdict.reason });
    return outcome(c.loaded, { status: verdict.status, evaluation: verdict.evaluation, reason: verdict.reason });
  });
}
