import fs from 'node:fs';
import path from 'node:path';
import type { BaselineCheckInput, BaselineLook } from '../capture/live-check';
import { compareImages, mergeTolerance } from '../compare';
import { readLayout } from '../files/run-folder';
import { plural } from '../util/text';
import { explainChange } from './explain';
import { interactionOnly } from './unsteady';

/**
 * A capture beside its baseline while the page is alive, as the report will find it: compare/'s
 * comparison with the report's tolerance, then, for a difference, the words of the two layout
 * records (explain/). No branch diffs: whether a commit made it does not change whether retaking
 * can undo it.
 */
export async function lookAtCapture(input: BaselineCheckInput): Promise<BaselineLook> {
  fs.mkdirSync(input.scratch, { recursive: true });
  const current = path.join(input.scratch, 'capture.png');
  fs.writeFileSync(current, input.current);
  const tolerance = mergeTolerance(input.tolerance.run, ...input.tolerance.overrides);
  const outcome = await compareImages({
    baseline: input.baseline.image,
    current,
    diffOutput: path.join(input.scratch, 'diff.png'),
    tolerance,
  });
  if (outcome.kind !== 'different') return { matches: true, explained: null, difference: '' };
  const side = await input.currentSide();
  const explanation = explainChange(
    readLayout(input.baseline.layout),
    side.layout,
    outcome.metrics.changedRegions,
    [],
    {},
    { base: input.baseline.signals?.origin ?? null, current: side.signals.origin ?? null },
    { base: input.baseline.signals?.interaction ?? null, current: side.signals.interaction ?? null },
  );
  const amount = `${outcome.metrics.pixelDiffPercent}% of pixels in ${plural(outcome.metrics.changedRegions.length, 'region')}`;
  const states = interactionOnly(explanation);
  if (states) return { matches: false, explained: states.join('; '), difference: `${amount}: ${states.join('; ')}` };
  if (explanation.changes.length) {
    // What changed, without the attribution: no branch diffs were read here, so "not attributed" would mislead.
    const what = explanation.changes.slice(0, 3).map((change) => change.words.split(' — ')[0]);
    const more = explanation.changes.length > 3 ? ` (and ${explanation.changes.length - 3} more)` : '';
    const words = `${what.join(' · ')}${more}`;
    return { matches: false, explained: words, difference: `${amount}: ${words}` };
  }
  return { matches: false, explained: null, difference: `${amount}, which no element added, removed, moved or restyled explains` };
}
