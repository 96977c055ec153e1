/** How the words of a checkpoint's changes are put in one line (the summary) and in a list (the review page). */

/** A change as its words name it: the element, then what happened to it. */
export interface SaidChange {
  element: string;
  words: string;
}

/** How many changes the summary line names before it counts the rest. */
const SUMMARIZED = 3;

/** The first changes in one line, elements that changed alike named once. */
export function summaryOf(changes: readonly SaidChange[]): string {
  const parts = alikeLines(changes);
  const more = parts.length > SUMMARIZED ? ` (and ${parts.length - SUMMARIZED} more)` : '';
  return parts.slice(0, SUMMARIZED).join(' · ') + more;
}

/**
 * The changes' words, elements that changed alike (the same words after their name, the same cause:
 * three cards restyled by one rule) in one line that names them once: `.plan ×2: …`.
 */
export function alikeLines(changes: readonly SaidChange[]): string[] {
  const alike = new Map<string, SaidChange[]>();
  for (const change of changes) {
    const rest = change.words.slice(change.element.length);
    alike.set(rest, [...(alike.get(rest) ?? []), change]);
  }
  return [...alike].map(([rest, members]) => {
    const names = [...new Set(members.map((member) => member.element))];
    const counted = names.map((name) => {
      const count = members.filter((member) => member.element === name).length;
      return count > 1 ? `${name} ×${count}` : name;
    });
    return `${counted.join(', ')}${rest}`;
  });
}
