import { inPrintOrder, type ChangePrint } from '../compare';
import { summaryOf, type ElementChange, type Explanation } from '../explain';
import type { Region } from '../types';

/**
 * What a checkpoint's part of a change was caused by, as the words prove it: the file, commit and
 * line of each listed element that meets one of the part's regions. A region is found among the
 * checkpoint's changed regions (its diffMetrics') through the fingerprint's order, where index i of
 * the print is index i of the regions in print order.
 */

/** A cause as a key: its file, commit and line. */
export const causeKey = (cause: { file: string; commit: string | null; line: string }) =>
  JSON.stringify([cause.file, cause.commit, cause.line]);

/**
 * The causes of `part` (of the checkpoint's `whole` change): those of the regions an element with a
 * cause meets. A region none meets (an image redrawn below a shift, a dev tool's overlay) does not
 * take the part from the cause its other regions prove: its pixels came with them. Null when no
 * region has a cause, or the checkpoint's regions are not known (its pixels decide).
 */
export function partCauses(
  part: ChangePrint,
  whole: ChangePrint,
  explanation: Explanation | null,
  regions: readonly Region[] | undefined,
): Set<string> | null {
  if (!explanation || !regions || regions.length !== whole.regions.length) return null;
  const ordered = inPrintOrder(regions.map((region, index) => ({ ...region, index })));
  const causes = new Set<string>();
  for (const region of part.regions) {
    const at = ordered[whole.regions.indexOf(region)]?.index;
    for (const change of explanation.changes)
      if (change.cause && at !== undefined && change.regions?.includes(at)) causes.add(causeKey(change.cause));
  }
  return causes.size ? causes : null;
}

/** An element's change as a key: its kind, path and cause; the same edit seen at two viewport widths has the same key. */
export const elementKey = (change: Pick<ElementChange, 'kind' | 'path' | 'cause'>) =>
  JSON.stringify([change.kind, change.path, change.cause && causeKey(change.cause)]);

/**
 * The words of `part` of a checkpoint's `whole` change: the element changes and unexplained
 * regions that meet the part's regions. A group's row says its part only, so a checkpoint's other
 * change (another group) is not named twice. The whole explanation where the part is the whole or
 * the regions are not known.
 */
export function partExplanation(
  part: ChangePrint,
  whole: ChangePrint,
  explanation: Explanation | null,
  regions: readonly Region[] | undefined,
): Explanation | null {
  if (!explanation || part.regions.length === whole.regions.length || !regions || regions.length !== whole.regions.length)
    return explanation;
  const ordered = inPrintOrder(regions.map((region, index) => ({ ...region, index })));
  const within = new Set(part.regions.flatMap((region) => ordered[whole.regions.indexOf(region)]?.index ?? []));
  const changes = explanation.changes.filter((change) => change.regions?.some((index) => within.has(index)));
  const sameBox = (a: Region, b: Region) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  const unexplained = explanation.unexplained.filter((region) => [...within].some((index) => sameBox(regions[index], region)));
  return { ...explanation, changes, summary: summaryOf(changes), unexplained, regionCount: within.size };
}
