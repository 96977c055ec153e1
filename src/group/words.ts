import type { ChangePrint } from '../compare';
import type { Explanation } from '../explain';

/** Sizes follow the viewport: the same padding change makes a header 80 px taller at 1280 px and 96 px at 390 px. */
const SIZE = new Set(['width', 'height']);

/**
 * A checkpoint's change as its words say it, as a key: each element's kind, path, property
 * changes and cause (file, commit, line), and the changed text (the ARIA lines). Two checkpoints
 * with the same key show the same change, whatever its pixels: a header's colour in a desktop and
 * a mobile viewport. An element's new size is left out when it has a style or text change (the
 * size then follows from it and the viewport), kept when its size is all that changed. Null when
 * the words do not account for the whole change, so only its pixels can tell: no explanation, no
 * element listed, a note (a side without a layout record, a record cut short), or a changed region
 * no listed element meets.
 */
export function wordsKey(explanation: Explanation | null, change: ChangePrint): string | null {
  if (!explanation || explanation.note !== null || explanation.changes.length === 0) return null;
  if (explanation.unexplained.length > 0) return null;
  const elements = explanation.changes.map((element) => {
    const styled = element.properties.some((p) => !SIZE.has(p.property));
    const properties = element.properties
      .filter((p) => !styled || !SIZE.has(p.property))
      .map((p) => JSON.stringify([p.property, p.before, p.after]));
    const cause = element.cause && [element.cause.file, element.cause.commit, element.cause.line];
    return JSON.stringify([element.kind, element.path, properties.sort(), cause]);
  });
  return JSON.stringify([elements.sort(), [...change.lines].sort()]);
}
