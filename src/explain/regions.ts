import type { Region } from '../types';
import { plural } from '../util/text';

/**
 * Which of a checkpoint's changed regions (its diffMetrics.changedRegions) the words account for:
 * a region is explained when a listed element's box meets it. The others are named ("3 of 7
 * changed regions not explained: at (x, y) w×h, …"), so approving the words never approves a
 * part of the change nobody read about.
 */

type Box = Pick<Region, 'x' | 'y' | 'width' | 'height'>;

/** How many unexplained regions the words name by place. */
const NAMED = 4;

/** The indexes of the regions a box meets (touching within 2 px counts). */
export function regionsMet(box: Box, regions: readonly Region[]): number[] {
  return regions.flatMap((r, i) =>
    box.x < r.x + r.width + 2 && r.x < box.x + box.width + 2 && box.y < r.y + r.height + 2 && r.y < box.y + box.height + 2 ? [i] : [],
  );
}

/**
 * At most `kept` changes, in their order: first one for each region (the first that meets it), so
 * a long list cut at its limit still accounts for as many regions as it can, then the others.
 */
export function keptCovering<T extends { regions?: number[] }>(changes: readonly T[], kept: number): T[] {
  const chosen = new Set<T>();
  const covered = new Set<number>();
  for (const change of changes) {
    if (chosen.size >= kept) break;
    const met = change.regions ?? [];
    if (met.some((i) => !covered.has(i))) {
      chosen.add(change);
      for (const i of met) covered.add(i);
    }
  }
  for (const change of changes) if (chosen.size < kept) chosen.add(change);
  return changes.filter((change) => chosen.has(change));
}

/**
 * "3 of 7 changed regions not explained: at (12, 40) 300×20, …"; '' when every region is explained, or the explanation predates the count.
 */
export function unexplainedWords(explanation: { unexplained?: Region[]; regionCount?: number } | null | undefined): string {
  const unexplained = explanation?.unexplained ?? [];
  if (unexplained.length === 0) return '';
  const places = unexplained.slice(0, NAMED).map((r) => `(${r.x}, ${r.y}) ${r.width}×${r.height}`);
  const more = unexplained.length > NAMED ? `, and ${unexplained.length - NAMED} more` : '';
  const count = explanation?.regionCount ?? unexplained.length;
  return `${unexplained.length} of ${plural(count, 'changed region')} not explained: at ${places.join(', ')}${more}`;
}
