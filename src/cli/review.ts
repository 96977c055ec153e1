import path from 'node:path';
import { approvalsPath, readApprovals, reviewApprovals, tally, type DecisionRequest, type DecisionKind } from '../approve';
import type { Settings } from '../config/settings';
import type { RunResult } from '../report';
import type { GroupRecord } from '../report/results';
import { approvalLines, countsLine, formatTable, groupTitle } from '../report/summary';
import { projectsLabel } from '../config/test-identity';
import { plural } from '../util/text';
import {
  checkpointDecision,
  groupCheckpoints,
  groupDecision,
  groupsShownBy,
  readLatestRun,
  recordRunDecisions,
  reviewer,
  runCheckpoints,
  runHeading,
  type Decider,
  type RunCheckpoint,
} from './latest-run';

export async function report(settings: Settings, json: boolean): Promise<string> {
  const run = readLatestRun(settings.outputDir);
  if (json) return `${JSON.stringify(run, null, 2)}\n`;
  const subjects = runCheckpoints(run, settings.outputDir).map((c) => c.subject);
  const approvals = approvalLines(tally(reviewApprovals(readApprovals(settings.configDir), subjects), subjects));
  return `${[`visual-uat run of ${runHeading(run)}`, countsLine(run), ...formatTable(run, false), ...approvals].join('\n')}\n`;
}

export interface DecideOptions {
  all?: boolean;
  only?: boolean;
  reason?: string;
  dryRun?: boolean;
  prune?: boolean;
}

/** The run's changed checkpoints a filter names: part of "<title path> › <checkpoint>", or a group id. */
function matching(checkpoints: RunCheckpoint[], filters: string[]): RunCheckpoint[] {
  const lowered = filters.map((filter) => filter.toLowerCase());
  return checkpoints.filter(
    (c) =>
      c.checkpoint.fingerprint &&
      c.checkpoint.status !== 'unchanged' &&
      lowered.some(
        (filter) => c.title.toLowerCase().includes(filter) || filter === c.checkpoint.group || c.checkpoint.otherGroups.includes(filter),
      ),
  );
}

/**
 * What a decision is on: a group's change (every checkpoint that shows it) or one checkpoint (--only); its notes are said once for all
 * decisions.
 */
interface Chosen {
  request: DecisionRequest;
  lines: string[];
  notes: string[];
}

/** A checkpoint as approve's lines name it: with its project where the run has several (as the run's table does). */
function checkpointNamer(run: RunResult): (c: RunCheckpoint) => string {
  const projects = new Set(run.tests.map((test) => test.project)).size > 1;
  return (c) => (projects ? `${projectsLabel([c.test.project])} › ${c.title}` : c.title);
}

function chooseGroups(
  run: RunResult,
  checkpoints: RunCheckpoint[],
  filters: string[],
  options: DecideOptions,
  decision: DecisionKind,
  decider: Decider,
): Chosen[] {
  const groups = new Map(run.groups.map((group) => [group.id, group]));
  const wanted: GroupRecord[] = [];
  const add = (id: string | null) => {
    const group = id ? groups.get(id) : undefined;
    if (group && !wanted.includes(group)) wanted.push(group);
  };
  const lowered = filters.map((filter) => filter.toLowerCase());
  // A group id named: that change. A test or checkpoint named: everything it shows, as a person
  // who looked at it decides on all of it.
  if (filters.length)
    for (const c of matching(checkpoints, filters)) {
      const shown = groupsShownBy(run, c);
      const named = shown.filter((group) => lowered.includes(group.id));
      (named.length ? named : shown).forEach((group) => add(group.id));
    }
  else if (options.all) run.groups.filter((group) => group.status === 'needs_review').forEach((group) => add(group.id));
  const named = checkpointNamer(run);
  return wanted.map((group) => {
    const shown = groupCheckpoints(group, checkpoints);
    const lines =
      shown.length === 1
        ? [`${named(shown[0])} (${group.status})`]
        : [`${groupTitle(group)} (${group.status}):`, ...shown.map((c) => `  ${named(c)}`)];
    const notes = shown.flatMap((c) =>
      [c.checkpoint.group, ...c.checkpoint.otherGroups]
        .filter((id) => id && id !== group.id && groups.get(id)?.status !== 'changed' && !wanted.some((w) => w.id === id))
        .map(
          (id) =>
            `  note: ${named(c)} also shows group ${id} (${groups.get(id!)?.status}), not part of this decision: npx ` +
            `visual-uat ${decision === 'approved' ? 'approve' : 'reject'} ${id}`,
        ),
    );
    return { request: groupDecision(group, checkpoints, decision, decider), lines, notes };
  });
}

function chooseCheckpoints(
  run: RunResult,
  checkpoints: RunCheckpoint[],
  filters: string[],
  decision: DecisionKind,
  decider: Decider,
): Chosen[] {
  const named = checkpointNamer(run);
  return matching(checkpoints, filters).map((c) => ({
    request: checkpointDecision(c, decision, decider),
    lines: [`${named(c)} (${c.checkpoint.status}), this checkpoint only`],
    notes: [],
  }));
}

/**
 * Records approvals (or rejections) for the latest run's changes that a filter names (or every
 * needs_review one with --all): a named group; for a named test or checkpoint, each group it
 * shows, on every checkpoint of the run that shows it; or with --only that checkpoint alone. Older
 * decisions on the same changes are replaced, and decisions that no longer apply (the ones the run
 * reported as stale) dropped, by the same rule (approve/rule.ts).
 */
export async function approveOrReject(
  settings: Settings,
  filters: string[],
  options: DecideOptions,
  decision: DecisionKind = 'approved',
): Promise<string> {
  const command = decision === 'approved' ? 'approve' : 'reject';
  if (!filters.length && !options.all && !options.prune)
    throw new Error(
      `visual-uat: ${command} what? name a test, checkpoint or group ` +
        `(g1)${decision === 'approved' ? ', or pass --all for every needs_review change' : ''}`,
    );
  if (options.only && !filters.length) throw new Error(`visual-uat: --only needs a filter: name the checkpoint to ${command}`);
  const run = readLatestRun(settings.outputDir);
  const checkpoints = runCheckpoints(run, settings.outputDir);
  const decider = { by: await reviewer(settings.configDir), at: new Date().toISOString(), reason: options.reason ?? null };
  const chosen = options.only
    ? chooseCheckpoints(run, checkpoints, filters, decision, decider)
    : chooseGroups(run, checkpoints, filters, options, decision, decider);
  if ((filters.length || options.all) && chosen.length === 0)
    throw new Error(
      `visual-uat: nothing to ${command}: no changed checkpoint of the latest run ` +
        `matches ${filters.length ? filters.map((f) => `"${f}"`).join(', ') : '--all'} (see npx visual-uat report)`,
    );

  const recorded = recordRunDecisions(
    settings,
    run,
    checkpoints,
    chosen.map((c) => c.request),
    { dryRun: options.dryRun },
  );
  const done = options.dryRun ? `would ${command === 'approve' ? 'approve' : 'reject'}` : decision;
  // A checkpoint whose words left regions unexplained is decided on its images there: said, and kept in the file.
  const named = checkpointNamer(run);
  const partly = chosen.flatMap(({ request }) =>
    request.checkpoints.flatMap((target) => {
      const decided = checkpoints.find((c) => c.subject === target.subject);
      return target.unexplained ? [`  note: ${decided ? named(decided) : target.subject.checkpoint}: ${target.unexplained}`] : [];
    }),
  );
  // A checkpoint in two decided groups would get the same note from each.
  const notes = new Set([...chosen.flatMap((c) => c.notes), ...partly]);
  const lines = [
    ...chosen.flatMap(({ lines: [first, ...rest] }) => [`${done}: ${first}`, ...rest]),
    ...notes,
    ...recorded.dropped.map(
      ({ approval, checkpoint }) =>
        `${options.dryRun ? 'would drop' : 'dropped'} ` +
        `stale ${approval.decision === 'rejected' ? 'rejection' : 'approval'}: ${checkpoint.test} › ${checkpoint.checkpoint} ` +
        `(no longer shows the ${approval.decision} change)`,
    ),
  ];
  if (recorded.replaced.length)
    lines.push(
      `${options.dryRun ? 'would replace' : 'replaced'} ${plural(recorded.replaced.length, 'earlier decision')} on the same checkpoints`,
    );
  const file = path.relative(process.cwd(), approvalsPath(settings.configDir)) || approvalsPath(settings.configDir);
  lines.push(
    options.dryRun
      ? `dry run: ${file} not written`
      : recorded.written
        ? `written: ${file} (commit it with your change)`
        : `nothing changed in ${file}`,
  );
  if (recorded.labels.length)
    lines.push(
      `labelled: ${plural(recorded.labels.length, 'case')} in ${path.relative(process.cwd(), settings.labelsDir) || '.'} (npx ` +
        `visual-uat eval measures the evaluator on them)`,
    );
  lines.push(...recorded.labelProblems);
  return `${lines.join('\n')}\n`;
}
