import type { LayoutRecord, Region } from '../types';
import type { Matched, Matching } from './match';

/**
 * What a checkpoint's mask covers (`mask: [locator]`) is painted over on both sides: whatever moves
 * there (a marquee, an animation, a clock) is nobody's change, so it gets no words, and a changed
 * region inside a mask's box leaves nothing to read about. The record marks each element inside a
 * mask (capture/layout); a record taken before it marks none.
 */

/** How far a changed region may pass a mask's box and still be its edge repainted. */
const EDGE = 2;

/** The matching without the elements a mask covers on either side, and the moved pairs likewise. */
export function withoutMasked(
  base: LayoutRecord,
  current: LayoutRecord,
  paired: { matching: Matching; moved: Matched[] },
): { matching: Matching; moved: Matched[] } {
  const [baseMasked, currentMasked] = [base, current].map((record) => (index: number) => record.elements[index]?.masked === true);
  if (!base.elements.some((e) => e.masked) && !current.elements.some((e) => e.masked)) return paired;
  const shown = ({ base: b, current: c }: Matched) => !baseMasked(b) && !currentMasked(c);
  const { matching, moved } = paired;
  return {
    matching: {
      ...matching,
      matched: matching.matched.filter(shown),
      added: matching.added.filter((c) => !currentMasked(c)),
      removed: matching.removed.filter((b) => !baseMasked(b)),
    },
    moved: moved.filter(shown),
  };
}

/** Whether a changed region lies inside the box of an element a mask covers, on either side. */
export function insideMask(region: Region, base: LayoutRecord, current: LayoutRecord): boolean {
  return [...base.elements, ...current.elements].some(
    ({ masked, box: [x, y, w, h] }) =>
      masked &&
      region.x >= x - EDGE &&
      region.y >= y - EDGE &&
      region.x + region.width <= x + w + EDGE &&
      region.y + region.height <= y + h + EDGE,
  );
}
