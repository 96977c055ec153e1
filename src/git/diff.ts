import type { ChangedLine, CodeChange } from '../types';
import { withoutQueryValues } from '../util/text';

/** Marks a commit's header line in `git log -p --format=` output. */
export const COMMIT_MARK = '\u0001';

const STYLE_SHEET = /\.(css|scss|sass|less|styl|pcss)$/i;

/**
 * The rule a line of a style sheet sits in, kept while the hunk's lines are read: a line with `{`
 * opens a rule (its selector is what comes before), one with `}` closes it. A one-line rule is its
 * own scope. Enough for the style sheets of an app (no parser needed to name a rule's selector).
 */
function scoped(lines: { text: string; sign: string }[], styleSheet: boolean): ChangedLine[] {
  const changed: ChangedLine[] = [];
  let selector = '';
  for (const { text, sign } of lines) {
    const open = text.indexOf('{');
    const own = open >= 0 ? text.slice(0, open).trim() : '';
    if (own) selector = own;
    if (sign !== ' ') changed.push({ text, added: sign === '+', scope: styleSheet ? selector : '' });
    if (text.lastIndexOf('}') > open) selector = '';
  }
  return changed;
}

/**
 * `git log -p` (commits marked with COMMIT_MARK) or `git diff` output as one CodeChange per commit
 * and file: its changed lines, each with the rule it sits in when the file is a style sheet.
 */
export function parseDiff(text: string, commit: string | null = null): CodeChange[] {
  const changes: CodeChange[] = [];
  let current = commit;
  let file: string | null = null;
  let hunk: { text: string; sign: string }[] = [];
  const flush = () => {
    if (file && hunk.length) {
      const lines = scoped(hunk, STYLE_SHEET.test(file));
      const last = changes[changes.length - 1];
      if (last && last.file === file && last.commit === current) last.lines.push(...lines);
      else if (lines.length) changes.push({ file, commit: current, lines });
    }
    hunk = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith(COMMIT_MARK)) {
      flush();
      current = line.slice(1).trim();
      file = null;
    } else if (line.startsWith('diff --git ')) {
      flush();
      file = line.match(/ b\/(.+)$/)?.[1] ?? null;
    } else if (line.startsWith('@@')) {
      flush();
    } else if (file && /^[+\- ]/.test(line) && !line.startsWith('+++') && !line.startsWith('---')) {
      // A changed line may hold a URL with a token in its query: it reaches the results and the prompt.
      hunk.push({ text: withoutQueryValues(line.slice(1)), sign: line[0] });
    }
  }
  flush();
  return changes;
}
