import type { LayoutRecord } from '../types';
import type { Matching } from './match';
import { movesBox } from './properties';
import type { PropertyChange } from './visible';

/**
 * A size follows its cause. An element whose styles changed only in how it looks (a colour, a
 * shadow) cannot have changed its own size by them: when something inside it came, went or
 * changed size, that explains its new size, which is left out (the element inside is listed with
 * its own cause); otherwise its new size is a change of its own, proven apart. A later commit that
 * recoloured a page never takes the height a removed hero took from it.
 */

const SIZE = new Set(['width', 'height']);

/** Each element's changes with its size kept apart from styles that cannot make it. */
export function sizesApart(
  changed: { index: number; properties: PropertyChange[] }[],
  base: LayoutRecord,
  current: LayoutRecord,
  matching: Matching,
): { index: number; properties: PropertyChange[] }[] {
  const resized = new Set(
    changed.filter((change) => change.properties.some((p) => SIZE.has(p.property))).map((change) => current.elements[change.index].path),
  );
  const inside = [
    ...matching.added.map((i) => current.elements[i].path),
    ...matching.removed.map((i) => base.elements[i].path),
    ...resized,
  ];
  return changed.flatMap((change) => {
    const sizes = change.properties.filter((p) => SIZE.has(p.property));
    const styles = change.properties.filter((p) => !SIZE.has(p.property));
    if (sizes.length === 0 || styles.some((p) => movesBox(p.property))) return [change];
    const paths = [current.elements[change.index].path, base.elements[matching.baseOf.get(change.index) ?? -1]?.path];
    const explained = inside.some((other) => paths.some((path) => path && other.startsWith(`${path}>`)));
    return explained
      ? [{ index: change.index, properties: styles }]
      : [
          { index: change.index, properties: styles },
          { index: change.index, properties: sizes },
        ];
  });
}
