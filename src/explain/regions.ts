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
 * Where the diff drew a box of the base image on the current one: below a band of rows the page
 * lost (a `removed` region) that much higher, below one it gained (`added`) that much lower, inside
 * a lost band where the band is drawn. The diff aligns the images' rows so (compare/align.ts), so a
 * removed element below a nav that gave up its place meets the regions where its rows were compared.
 */
export function onCurrentRows<T extends Box>(box: T, regions: readonly Region[]): T {
  const bands = regions.filter((r) => r.x === 0 && (r.kind === 'added' || r.kind === 'removed')).sort((a, b) => a.y - b.y);
  let offset = 0;
  for (const band of bands) {
    const from = band.y - offset;
    if (box.y < from) break;
    if (band.kind === 'removed' && box.y < from + band.height) return { ...box, y: band.y + box.y - from };
    offset += band.kind === 'added' ? band.height : -band.height;
  }
  return offset === 0 ? box : { ...box, y: box.y + offset };
}

/**
 * At most `kept.kinds` changes, in their order, chosen so the list says as much as it can: first one
 * of each kind (`alike`: the same element name, kind, properties and cause; a product grid re-wrapped
 * is one kind, a heading restyled beside it another) whose changes meet a region none chosen meets,
 * the kind's first change in its stead (it says what the others would: the first of two cards grown
 * alike), then one for each region still open, then one of each kind left, those not inside an
 * element already chosen first (a section's new padding before a heading inside a block already
 * said), then the others while fewer than `kept.repeats` are chosen. A change left out that is alike
 * to one kept is what the kept one says (`carriedRegions`): 190 cards re-wrapped leave no region
 * "not explained", and the heading beside them is still listed; the 15 rules of a responsive rewrite
 * are each said.
 */
export function keptCovering<T extends { regions?: number[]; path?: string }>(
  changes: readonly T[],
  kept: { kinds: number; repeats: number },
  kindOf: (change: T) => string,
): T[] {
  const kindsOf = new Map(changes.map((change) => [change, kindOf(change)]));
  const alike = (change: T) => kindsOf.get(change)!;
  const members = new Map<string, T[]>();
  for (const change of changes) members.set(alike(change), [...(members.get(alike(change)) ?? []), change]);
  const chosen = new Set<T>();
  const covered = new Set<number>();
  const kinds = new Set<string>();
  const cover = (change: T) => {
    for (const i of change.regions ?? []) covered.add(i);
  };
  const choose = (take: (change: T) => boolean, most = kept.kinds, all = false) => {
    for (const change of changes) {
      if (chosen.size >= most) return;
      if (chosen.has(change) || !take(change)) continue;
      chosen.add(change);
      kinds.add(alike(change));
      for (const member of all ? members.get(alike(change))! : [change]) cover(member);
    }
  };
  const opens = (change: T) => (change.regions ?? []).some((i) => !covered.has(i));
  const inside = (change: T) => [...chosen].some((other) => other.path && change.path?.startsWith(`${other.path}>`));
  choose((change) => !kinds.has(alike(change)) && members.get(alike(change))!.some(opens), kept.kinds, true);
  choose(opens);
  choose((change) => !kinds.has(alike(change)) && !inside(change));
  choose((change) => !kinds.has(alike(change)));
  choose(() => true, kept.repeats);
  return changes.filter((change) => chosen.has(change));
}

/**
 * The regions of the changes `keptCovering` left out, each given to the first kept change of its
 * kind (`alike`), which says what they would: the kept change → those regions.
 */
export function carriedRegions<T extends { regions?: number[] }>(
  changes: readonly T[],
  kept: readonly T[],
  kindOf: (change: T) => string,
): Map<T, number[]> {
  const kindsOf = new Map(changes.map((change) => [change, kindOf(change)]));
  const alike = (change: T) => kindsOf.get(change) ?? kindOf(change);
  const keeper = new Map<string, T>();
  for (const change of kept) if (!keeper.has(alike(change))) keeper.set(alike(change), change);
  const keptSet = new Set(kept);
  const carried = new Map<T, number[]>();
  for (const change of changes) {
    const holder = keptSet.has(change) ? undefined : keeper.get(alike(change));
    if (holder) carried.set(holder, [...(carried.get(holder) ?? []), ...(change.regions ?? [])]);
  }
  return carried;
}

/**
/** What a listed change is, for `keptCovering`: its kind, its element's name, what changed (sizes aside) and its cause. */
export function changeKind(change: {
  kind: string;
  element: string;
  properties: readonly { property: string; before: string; after: string }[];
  cause: { file: string; commit: string | null; line: string } | null;
  words: string;
}): string {
  const styles = change.properties.filter((p) => p.property !== 'width' && p.property !== 'height');
  const why = change.cause
    ? `${change.cause.file}\u0000${change.cause.commit}\u0000${change.cause.line}`
    : change.words.slice(change.words.indexOf(' — '));
  return JSON.stringify([change.kind, change.element, styles, why]);
}

/**
 * "3 of 7 changed regions not explained: at (12, 40) 300×20, …"; '' when every region is explained.
 */
export function unexplainedWords(explanation: { unexplained: Region[]; regionCount: number } | null): string {
  const unexplained = explanation?.unexplained ?? [];
  if (unexplained.length === 0) return '';
  const places = unexplained.slice(0, NAMED).map((r) => `(${r.x}, ${r.y}) ${r.width}×${r.height}`);
  const more = unexplained.length > NAMED ? `, and ${unexplained.length - NAMED} more` : '';
  const count = explanation!.regionCount;
  return `${unexplained.length} of ${plural(count, 'changed region')} not explained: at ${places.join(', ')}${more}`;
}
