import { stripVTControlCharacters } from 'node:util';

/** A text as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "1 call", "2,400 input tokens". */
export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** The first three names, then how many more: "home, about, pricing and 2 more". */
export function firstFew(names: readonly string[]): string {
  return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
}

/**
 * Text as it may enter a reason, the results file, an annotation or a transcript: without terminal
 * escape codes (Playwright's `expect` colours its messages whatever FORCE_COLOR says). Node's own
 * stripper is the one Playwright's reporters rely on for files.
 */
export function plainText(text: string): string {
  return stripVTControlCharacters(text);
}

/** Playwright's errors of a test (or of a run) as one plain-text block; null when there are none. */
export function errorsText(errors: readonly { message?: string; value?: string }[]): string | null {
  const messages = errors.map((error) => plainText(error.message ?? error.value ?? '')).filter(Boolean);
  return messages.length ? messages.join('\n') : null;
}

/** A text's first line that says something (an error's headline, without its call log), trimmed. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim())
      ?.trim() ?? ''
  );
}

/** `?key=value` and `&key=value` in a URL, wherever it stands in a text (a line of code, an address). */
const QUERY_VALUE = /([?&][\w.[\]%-]+=)[^&#\s'"`<>)]+/g;

/**
 * A text with every URL query value replaced by `…`: tokens live there, and nothing visual-uat
 * writes (results, transcripts, reports) may carry one. The keys stay, so a reader sees what changed.
 */
export function withoutQueryValues(text: string): string {
  return text.replace(QUERY_VALUE, '$1…');
}
