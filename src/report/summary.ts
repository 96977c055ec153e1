import type { CheckpointStatus } from '../types';
import { changedWithinAllowance, share } from './sanity';
import { plural } from '../util/text';
import { projectsLabel } from '../config/test-identity';
import type { CheckpointResult, GroupRecord, RunResult, TestResultRecord } from './results';
import type { ApprovalTally } from '../approve';
import { summaryOf, unexplainedWords } from '../explain';
import { elementKey } from '../group';

/**
 * What the end of a run (and `visual-uat report`) prints, as lines: counts, a table of what needs
 * a look (one line per group of checkpoints that share a change, then the single checkpoints),
 * the approvals file's effect, where to look next. Formatting only; print.ts writes it.
 */

const ORDER: CheckpointStatus[] = ['regression', 'needs_review', 'errored', 'missing', 'new', 'unsteady', 'changed', 'unchanged'];
/** The table's width when stdout is not a terminal (CI logs, pipes). */
export const TABLE_WIDTH = 100;
const STATUS_WIDTH = 12;
const PERCENT_WIDTH = 8;
/** Indent, status, percent and the spaces between the columns. */
const FIXED_WIDTH = 2 + STATUS_WIDTH + 1 + 1 + PERCENT_WIDTH + 1;
/** The title column takes what its longest title needs, leaving the reason at least this much (or half the room). */
const MIN_REASON_WIDTH = 25;
const MIN_ROOM = 24;
const SEPARATOR = ' › ';
/** How many of a group's checkpoints the table names under its row. */
const MEMBERS_NAMED = 4;

export interface SummaryPaths {
  results: string;
  report: string | null;
  approvals: ApprovalTally;
  /** Set on a run on the base itself ("main @ 1a2b3c4d"): its checkpoints were taken, not compared. */
  onBase?: string | null;
}

/** A line of the table: a group of checkpoints that share a change, or a single checkpoint. */
type Row =
  | { group: GroupRecord; test?: undefined; checkpoint?: undefined }
  | { group?: undefined; test: TestResultRecord; checkpoint: CheckpointResult };

export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return stream.isTTY && stream.columns ? stream.columns : TABLE_WIDTH;
}

export function checkpointTitle(test: TestResultRecord, checkpoint: string): string {
  return [...test.titlePath, checkpoint].join(SEPARATOR);
}

/** How many checkpoints show a group's change. */
export function groupSize(group: GroupRecord): number {
  return group.members.length + group.alsoIn.length;
}

/**
 * Groups of two or more checkpoints get a line of their own; their members are named there, and get no row of their own unless their status
 * differs.
 */
function rows(run: RunResult, onlyAttention: boolean): Row[] {
  const byStatus = (a: { status: CheckpointStatus }, b: { status: CheckpointStatus }) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status);
  const shared = new Set(run.groups.filter((group) => groupSize(group) > 1).map((group) => group.id));
  const groups = run.groups.filter((group) => shared.has(group.id) && (!onlyAttention || group.status !== 'unchanged')).sort(byStatus);
  // A member whose group has a row, with the group's status, is named there only: a row of its own
  // would say the same again. One with a status of its own (an approval it only resembles) keeps its row.
  const shownUnder = new Set(groups.map((group) => `${group.id}\u0000${group.status}`));
  const single = run.tests
    .flatMap((test) => test.checkpoints.map((checkpoint) => ({ test, checkpoint })))
    .filter(({ checkpoint }) => !shownUnder.has(`${checkpoint.group}\u0000${checkpoint.status}`))
    .filter(({ checkpoint }) => !onlyAttention || checkpoint.status !== 'unchanged')
    .sort((a, b) => byStatus(a.checkpoint, b.checkpoint));
  return [...groups.map((group) => ({ group })), ...single];
}

/**
 * A checkpoint's words in a row of its own: without the element changes its other groups' rows name
 * already (one edit, one group: the same change is not said twice in the table); where they name
 * every one, that its pixels are its own.
 */
function ownExplanation(run: RunResult, checkpoint: CheckpointResult): CheckpointResult['explanation'] {
  const rowed = run.groups.filter((group) => checkpoint.otherGroups.includes(group.id) && groupSize(group) > 1);
  const named = new Set(rowed.flatMap((group) => group.explanation?.changes ?? []).map(elementKey));
  const explanation = checkpoint.explanation;
  if (!explanation || !named.size) return explanation;
  const changes = explanation.changes.filter((change) => !named.has(elementKey(change)));
  // Every element is its other group's: what is left is pixels that group's others did not show.
  const summary = changes.length
    ? summaryOf(changes)
    : `the elements of group ${rowed.map((group) => group.id).join(', ')}, in pixels of its own`;
  return { ...explanation, changes, summary };
}

function checkpointRows(run: RunResult): { test: TestResultRecord; checkpoint: CheckpointResult }[] {
  return run.tests.flatMap((test) => test.checkpoints.map((checkpoint) => ({ test, checkpoint })));
}

/** The Playwright projects a group's checkpoints are in, when more than one. */
export function groupProjects(group: Pick<GroupRecord, 'projects'>): string[] {
  return Object.keys(group.projects ?? {});
}

/** "group g1 · 3 checkpoints", "group g1 · 2 checkpoints in [desktop, mobile]": a group's title in the table. */
export function groupTitle(group: GroupRecord): string {
  const projects = groupProjects(group);
  return `group ${group.id} · ${plural(groupSize(group), 'checkpoint')}${projects.length ? ` in ${projectsLabel(projects)}` : ''}`;
}

/**
 * A group's checkpoints (`<project> › <title path> › <checkpoint>` keys), those that differ only
 * by their project named once: `[desktop, mobile] › site.spec.ts › home › page`.
 */
export function byProject(keys: readonly string[], projects: readonly string[]): string[] {
  const longestFirst = [...projects].sort((a, b) => b.length - a.length);
  const named = new Map<string, string[]>();
  for (const key of keys) {
    const project = longestFirst.find((name) => key.startsWith(`${name}${SEPARATOR}`));
    const rest = project === undefined ? key : key.slice(project.length + SEPARATOR.length);
    named.set(rest, [...(named.get(rest) ?? []), ...(project === undefined ? [] : [project])]);
  }
  return [...named].map(([rest, names]) => (names.length ? `${projectsLabel(names)}${SEPARATOR}${rest}` : rest));
}

export function countsLine(run: RunResult): string {
  const counts = new Map<CheckpointStatus, number>();
  for (const { checkpoint } of checkpointRows(run)) counts.set(checkpoint.status, (counts.get(checkpoint.status) ?? 0) + 1);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const parts = ORDER.filter((status) => counts.get(status)).map(
    (status) => `${counts.get(status)} ${status}${status === 'unchanged' ? allowedNote(run) : ''}`,
  );
  return `${plural(total, 'checkpoint')}: ${parts.join(', ')}`;
}

/**
 * Unchanged checkpoints whose pixels did change, by no more than their maxDiffPixels or
 * maxDiffPixelRatio allow: "unchanged" alone would read as identical.
 */
function allowedNote(run: RunResult): string {
  const allowed = checkpointRows(run).filter(({ checkpoint }) => changedWithinAllowance(checkpoint));
  if (!allowed.length) return '';
  const most = Math.max(...allowed.map(({ checkpoint }) => checkpoint.diffMetrics.pixelDiffPercent));
  return ` (${allowed.length} of them changed within maxDiffPixels or maxDiffPixelRatio, ${share(most)} of their pixels)`;
}

/** The counts, or on the base itself what was done instead of a comparison ("unchanged" there would claim one). */
function headline(run: RunResult, onBase: string | null | undefined): string {
  const taken = checkpointRows(run).length;
  if (taken === 0) return 'no test took a checkpoint: nothing compared';
  if (!onBase) return countsLine(run);
  return `${plural(taken, 'checkpoint')} taken on the base itself (${onBase}, clean tree): nothing compared`;
}

/**
 * Parts joined by " › ", wrapped at the spaces between words; a line broken between two parts
 * ends in " ›". A word longer than a line is split.
 */
function wrapParts(parts: string[], width: number): string[] {
  const words = parts.flatMap((part, i) =>
    part.split(' ').map((word, j, all) => ({ word, separator: j < all.length - 1 ? ' ' : i < parts.length - 1 ? SEPARATOR : '' })),
  );
  const lines: string[] = [];
  let line = '';
  for (const { word, separator } of words) {
    const candidate = line + word;
    if (candidate.length + (separator === SEPARATOR ? 2 : 0) <= width) {
      line = candidate + separator;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    let rest = word;
    while (rest.length > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    line = rest + separator;
  }
  lines.push(line.trimEnd());
  return lines;
}

/**
 * A checkpoint's title in a column of `width`: the describes, the test's title and the checkpoint
 * name are always shown whole. The file path gives way first (its folders, then the start of its
 * name); what still does not fit wraps onto more lines, between words.
 */
export function titleLines(titlePath: readonly string[], checkpoint: string, width: number): string[] {
  const [file = '', ...rest] = titlePath;
  const tail = [...rest, checkpoint];
  const fileName = file.split(/[\\/]/).pop() ?? file;
  for (const shown of [file, fileName]) {
    const text = [shown, ...tail].join(SEPARATOR);
    if (text.length <= width) return [text];
  }
  const room = Math.max(2, width - 2);
  const shortFile = fileName.length <= room ? fileName : `…${fileName.slice(fileName.length - room + 1)}`;
  return wrapParts([shortFile, ...tail], width);
}

function percent(checkpoint: CheckpointResult): string {
  const { diffMetrics } = checkpoint;
  return checkpoint.diffImage || diffMetrics.pixelDiffPercent > 0 ? `${diffMetrics.pixelDiffPercent.toFixed(2)}%` : '';
}

/** status · test › checkpoint (or group) · % changed · reason, in at most `width` columns (a title may take several lines). */
export function formatTable(run: RunResult, onlyAttention: boolean, width = terminalWidth()): string[] {
  const table = rows(run, onlyAttention);
  if (table.length === 0) return [];
  const header = `test${SEPARATOR}checkpoint`;
  const room = Math.max(MIN_ROOM, width - FIXED_WIDTH);
  // With more than one Playwright project, the same checkpoint is one row per project: each names
  // its project, as Playwright's list reporter does (`[mobile] › …`).
  const projects = new Set(run.tests.map((test) => test.project)).size > 1;
  const projectOf = (test: TestResultRecord) => (projects ? `[${test.project}]${SEPARATOR}` : '');
  const titleOf = (row: Row) => (row.group ? groupTitle(row.group) : projectOf(row.test) + checkpointTitle(row.test, row.checkpoint.name));
  const longest = Math.max(header.length, ...table.map((row) => titleOf(row).length));
  const titleWidth = Math.min(longest, Math.max(room - MIN_REASON_WIDTH, Math.floor(room / 2)));
  const reasonWidth = room - titleWidth;
  const line = (status: string, title: string, pct: string, reason: string) =>
    `  ${status.padEnd(STATUS_WIDTH)} ${title.padEnd(titleWidth)} ${pct.padStart(PERCENT_WIDTH)} ${reason}`.trimEnd();
  // A row's title and reason each wrap in their column (a CI log is 100 columns wide: a model's or
  // a reviewer's reason cut there loses its point); the row takes as many lines as the longer needs.
  const row = (status: string, titles: string[], pct: string, reason: string) => {
    const reasons = wrapParts([reason.replace(/\s+/g, ' ')], reasonWidth);
    return Array.from({ length: Math.max(titles.length, reasons.length) }, (_, i) =>
      line(i ? '' : status, titles[i] ?? '', i ? '' : pct, reasons[i] ?? ''),
    );
  };
  // Lines under a row, across the whole width after the status column, wrapped and never cut (a CI
  // log is 100 columns wide): the first after `mark`, the others aligned with it.
  const under = (text: string, mark: string) =>
    wrapParts([text], Math.max(MIN_ROOM, width - STATUS_WIDTH - 5)).map(
      (part, i) => `  ${''.padEnd(STATUS_WIDTH)} ${i ? ' '.repeat(mark.length) : mark}${part}`,
    );
  // What changed, in words (the file and commit come last), then the changed regions the words do not account for.
  const explained = (explanation: CheckpointResult['explanation']) =>
    [explanationWords(explanation), unexplainedWords(explanation)].flatMap((words) => (words ? under(words, '↳ ') : []));
  // A group's checkpoints (the first few): its members, which the table does not repeat as rows,
  // then those it is "also in" (a checkpoint whose own change is another row's).
  const members = (group: GroupRecord) => {
    const list = (keys: string[], room: number) => {
      const titles = byProject(keys, groupProjects(group));
      return titles.slice(0, room).join(', ') + (titles.length > room ? `, and ${titles.length - room} more` : '');
    };
    // A group made only of checkpoints whose own change is another row's names them plainly: an
    // empty "on ; also on …" read as a fault.
    if (group.members.length === 0) return under(`on ${list(group.alsoIn, MEMBERS_NAMED)}`, '  ');
    const also = group.alsoIn.length ? `; also on ${list(group.alsoIn, Math.max(1, MEMBERS_NAMED - group.members.length))}` : '';
    return under(`on ${list(group.members, MEMBERS_NAMED)}${also}`, '  ');
  };
  return [
    line('status', header, 'changed', 'reason'),
    ...table.flatMap((entry) => {
      if (entry.group)
        return [
          ...row(entry.group.status, wrapParts([groupTitle(entry.group)], titleWidth), '', entry.group.reason),
          ...members(entry.group),
          ...explained(entry.group.explanation),
        ];
      const project = projectOf(entry.test);
      const titles = titleLines(entry.test.titlePath, entry.checkpoint.name, titleWidth - project.length).map(
        (title, i) => (i ? ' '.repeat(project.length) : project) + title,
      );
      return [
        ...row(entry.checkpoint.status, titles, percent(entry.checkpoint), entry.checkpoint.reason),
        ...explained(ownExplanation(run, entry.checkpoint)),
      ];
    }),
  ];
}

/** An explanation on one line: its summary, else why there is none. */
export function explanationWords(explanation: CheckpointResult['explanation']): string {
  if (!explanation) return '';
  return [explanation.summary, explanation.note ? `(${explanation.note})` : ''].filter(Boolean).join(' ');
}

/** What the approvals file did: how many checkpoints it approved or rejected, which decisions no longer hold. */
export function approvalLines(approvals: ApprovalTally): string[] {
  const lines: string[] = [];
  if (approvals.applied) lines.push(`  ${plural(approvals.applied, 'checkpoint')} approved earlier (visual-uat.approvals.json)`);
  if (approvals.resembling)
    lines.push(
      `  ${plural(approvals.resembling, 'checkpoint')} ${approvals.resembling === 1 ? 'shows' : 'show'} a change approved on ` +
        `other checkpoints only: an approval covers what was seen, so a person must look`,
    );
  if (approvals.rejected)
    lines.push(
      `  ${plural(approvals.rejected, 'checkpoint')} rejected earlier (visual-uat.approvals.json): a regression until the change is gone`,
    );
  // Two decisions on one checkpoint (a group's and a later one of its own) that no longer hold are one line.
  const stale = approvals.stale.map(({ approval, checkpoint }) => {
    const what = approval.decision === 'rejected' ? 'rejection' : 'approval';
    return (
      `  stale ${what} ignored: ${checkpoint.test} › ${checkpoint.checkpoint} no longer shows the ${approval.decision} ` +
      `change; npx visual-uat approve --prune drops it`
    );
  });
  return [...lines, ...new Set(stale)];
}

/** The end-of-run summary: counts, a table of what needs a look, where to look, how to review. */
export function summaryLines(run: RunResult, paths: SummaryPaths, width = terminalWidth()): string[] {
  const lines = [`visual-uat: ${headline(run, paths.onBase)}`, ...formatTable(run, true, width), ...approvalLines(paths.approvals)];
  if (paths.report) lines.push(`  HTML report: ${paths.report}   (npx playwright show-report ${paths.report})`);
  if (run.tests.some((test) => test.checkpoints.some((c) => c.status === 'needs_review' || c.status === 'regression'))) {
    lines.push(`  review:      ${REVIEW_COMMAND}   (a page with Approve and Reject per change)`);
    lines.push('  approve:     npx visual-uat approve --all   (or npx visual-uat approve "<test or checkpoint>")');
  }
  lines.push(`visual-uat: results in ${paths.results}`);
  return lines;
}

/** Where a reviewer approves or rejects in a browser. */
export const REVIEW_COMMAND = 'npx visual-uat review';

/** A reason, then what changed in words, then the changed regions the words do not account for. */
function withWords(reason: string, explanation: CheckpointResult['explanation']): string {
  return [reason, explanationWords(explanation), unexplainedWords(explanation)].filter(Boolean).join(' — ');
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

/** The GitHub Actions job summary (markdown): counts and a table of what needs a look, groups first. */
export function stepSummary(run: RunResult, onBase?: string | null): string {
  const attention = rows(run, true);
  const base = run.baseCommit && !onBase ? ` · base \`${run.baseBranch}\` @ \`${run.baseCommit.slice(0, 8)}\`` : '';
  const lines = [`## visual-uat`, '', `**${headline(run, onBase)}**${base}`, ''];
  if (attention.length) {
    lines.push('| status | test › checkpoint | changed | reason |', '|---|---|---:|---|');
    for (const row of attention)
      if (row.group) {
        const shownOn = byProject([...row.group.members, ...row.group.alsoIn], groupProjects(row.group)).join(', ');
        lines.push(
          `| ${row.group.status} | ${markdownCell(`${groupTitle(row.group)}: ${shownOn}`)} | ` +
            `| ${markdownCell(withWords(row.group.reason, row.group.explanation))} |`,
        );
      } else
        lines.push(
          `| ${row.checkpoint.status} | ${markdownCell(checkpointTitle(row.test, row.checkpoint.name))} ` +
            `| ${percent(row.checkpoint)} | ${markdownCell(withWords(row.checkpoint.reason, ownExplanation(run, row.checkpoint)))} |`,
        );
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function workflowCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub Actions workflow commands: an error per regression, a warning per checkpoint that needs review. */
export function workflowAnnotations(run: RunResult): string[] {
  return checkpointRows(run).flatMap(({ test, checkpoint }) => {
    const level = checkpoint.status === 'regression' ? 'error' : checkpoint.status === 'needs_review' ? 'warning' : null;
    if (!level) return [];
    return [
      `::${level} file=${test.file},title=visual-uat ${checkpoint.status}::` +
        `${workflowCommandData(`${checkpointTitle(test, checkpoint.name)}: ${withWords(checkpoint.reason, checkpoint.explanation)}`)}`,
    ];
  });
}
