import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BaselineCheckInput, BaselineLook } from '../capture/live-check';
import { compareImages, mergeTolerance, recordComparison } from '../compare';
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
  // A diff image of its own per look: the one the report may take is the kept capture's.
  const diffOutput = path.join(input.scratch, `diff-${crypto.randomUUID()}.png`);
  const outcome = await compareImages({ baseline: input.baseline.image, current, diffOutput, tolerance });
  const comparison = recordComparison(fs.readFileSync(input.baseline.image), input.current, tolerance, outcome);
  if (outcome.kind !== 'different') return { matches: true, explained: null, difference: '', comparison, diffImage: null };
  const recorded = { comparison, diffImage: outcome.diffImage };
  const side = await input.currentSide();
  const explanation = explainChange(
    readLayout(input.baseline.layout),
    side.layout,
    outcome.metrics.changedRegions,
    [],
    {},
    { base: input.baseline.signals?.origin ?? null, current: side.signals.origin },
    { base: input.baseline.signals?.interaction ?? null, current: side.signals.interaction },
  );
  const amount = `${outcome.metrics.pixelDiffPercent}% of pixels in ${plural(outcome.metrics.changedRegions.length, 'region')}`;
  const states = interactionOnly(explanation);
  if (states) return { matches: false, explained: states.join('; '), difference: `${amount}: ${states.join('; ')}`, ...recorded };
  if (explanation.changes.length) {
    // What changed, without the attribution: no branch diffs were read here, so "not attributed" would mislead.
    const what = explanation.changes.slice(0, 3).map((change) => change.words.split(' — ')[0]);
    const more = explanation.changes.length > 3 ? ` (and ${explanation.changes.length - 3} more)` : '';
    const words = `${what.join(' · ')}${more}`;
    return { matches: false, explained: words, difference: `${amount}: ${words}`, ...recorded };
  }
  return {
    matches: false,
    explained: null,
    difference: `${amount}, which no element added, removed, moved or restyled explains`,
    ...recorded,
  };
}
