import type { ChangedLine, CodeChange } from './code-change';
import { withoutQueryValues } from '../util/text';
import { classesWritten, elementsWritten, isComponentFile, isModuleFile, readSource, unparsedKind, type ReadSource } from './source-lines';

/** Marks a commit's header line in `git log -p --format=` output. */
export const COMMIT_MARK = '\u0001';

/** A file's patch larger than this is not parsed (a vendored bundle): its lines are still matched by their text. */
const PATCH_PARSE_LIMIT = 1024 * 1024;

interface PatchLine {
  text: string;
  sign: string;
}

/** Both sides of a patch as texts (the file whole when the diff has it all as context), and each changed line's number on its own side. */
function sidesOf(patch: PatchLine[]): { before: string; after: string; numbers: number[] } {
  const before: string[] = [];
  const after: string[] = [];
  const numbers: number[] = [];
  for (const { text, sign } of patch) {
    if (sign !== '+') before.push(text);
    if (sign !== '-') after.push(text);
    if (sign === '-') numbers.push(before.length);
    else if (sign === '+') numbers.push(after.length);
  }
  return { before: before.join('\n'), after: after.join('\n'), numbers };
}

/** The first line of a parser's error, as the words can quote it. */
const problemOf = (error: unknown) => ((error as { reason?: string }).reason ?? (error as Error).message).split('\n')[0];

/**
 * One file's patch in one commit as a CodeChange: each changed line with what a parser says it is
 * part of on its own side (the rule and declaration of a style sheet, the element of a template).
 */
function readPatch(file: string, commit: string | null, patch: PatchLine[], skipped: string | null): CodeChange | null {
  if (!patch.some((line) => line.sign !== ' ')) return null;
  const { before, after, numbers } = sidesOf(patch);
  let unread = skipped ?? unparsedKind(file);
  let read: { before: ReadSource | null; after: ReadSource | null } = { before: null, after: null };
  if (!unread && before.length + after.length > PATCH_PARSE_LIMIT) unread = 'is larger than 1 MiB: not parsed';
  if (!unread) {
    try {
      read = { before: readSource(file, before), after: readSource(file, after) };
    } catch (error) {
      unread = `does not parse (${problemOf(error)})`;
    }
  }
  const changed = patch.filter((line) => line.sign !== ' ');
  const lines: ChangedLine[] = changed.map((line, i) => {
    const side = line.sign === '+' ? read.after : read.before;
    return { text: line.text, added: line.sign === '+', target: side?.targets.get(numbers[i]) ?? null };
  });
  const sides = [read.before, read.after].filter((side): side is ReadSource => side !== null);
  const classes = isModuleFile(file) && sides.length ? { classes: [...new Set(sides.flatMap(classesWritten))] } : {};
  const rendered = isComponentFile(file) && sides.length ? { rendered: elementsWritten(sides) } : {};
  return { file, commit, lines, uses: sides.flatMap((side) => side.uses), unread, ...classes, ...rendered };
}

/**
 * `git log -p` (commits marked with COMMIT_MARK) or `git diff` output as one CodeChange per commit
 * and file: its changed lines, each with what a parser says it is part of. Read with the whole file
 * as context, each side is the file as it was and became, so a rule's nesting and an element's tag
 * are known wherever the changed line is. Patches past `budget` characters are listed, unread.
 */
export function parseDiff(text: string, commit: string | null = null, budget = Number.POSITIVE_INFINITY): CodeChange[] {
  const changes: CodeChange[] = [];
  let current = commit;
  let file: string | null = null;
  let patch: PatchLine[] = [];
  let inHunk = false;
  let read = 0;
  const flush = () => {
    if (file) {
      read += patch.reduce((sum, line) => sum + line.text.length + 2, 0);
      const change = readPatch(
        file,
        current,
        patch,
        read > budget ? `comes past the first ${Math.round(budget / 1024 / 1024)} MiB of the branch's diffs: not read` : null,
      );
      if (change) changes.push(change);
    }
    patch = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith(COMMIT_MARK)) {
      flush();
      current = line.slice(1).trim();
      file = null;
      inHunk = false;
    } else if (line.startsWith('diff --git ')) {
      flush();
      file = line.match(/ b\/(.+)$/)?.[1] ?? null;
      inHunk = false;
    } else if (line.startsWith('@@')) {
      inHunk = file !== null;
    } else if (inHunk && /^[+\- ]/.test(line)) {
      // A changed line may hold a URL with a token in its query: it reaches the results and the prompt.
      patch.push({ text: withoutQueryValues(line.slice(1)), sign: line[0] });
    }
  }
  flush();
  return changes;
}
