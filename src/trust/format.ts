import { plural } from '../util/text';
import type { EvalRecord } from './eval-record';
import type { CaseRef } from './score';
import { evalGap } from './policy';

/** `visual-uat eval`'s table: one figure a line, the cases behind the figures that need a person listed under them. */

const LABEL_WIDTH = 35;

function row(label: string, value: string): string {
  return `  ${label.padEnd(LABEL_WIDTH)} ${value}`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}

function caseLine(ref: CaseRef): string {
  const confidence = ref.confidence === null ? '' : `, confidence ${ref.confidence}`;
  return `      ${ref.title} [${ref.id}] (${ref.status}${confidence}): ${ref.reason}`;
}

/** What evaluator.autoApprove (see trust.ts) would make of this record. */
function trusted(record: EvalRecord): string {
  const gap = evalGap(record);
  if (gap?.kind === 'unjudged') return 'nothing (some labelled regressions were not judged)';
  if (gap?.kind === 'no-regressions') return 'nothing (no labelled regression was judged)';
  const riskiest = record.riskiestApproval;
  if (riskiest === null) return 'any pass (no labelled regression was approved at any confidence)';
  if (riskiest >= 1) return 'no pass (a labelled regression was approved at confidence 1)';
  return `passes above confidence ${riskiest} (a labelled regression was approved at ${riskiest})`;
}

export function formatEval(record: EvalRecord, recordFile: string): string {
  const f = record.figures;
  const where = record.labels.source === 'corpus' ? `the shipped corpus (${record.labels.folder})` : record.labels.folder;
  const caught = f.regressionsRejected + f.regressionsToReview;
  const usage = record.usage;
  const cost = record.priced ? `$${usage.costUSD.toFixed(4)}` : `unknown (no price for ${record.model}: set evaluator.prices)`;
  const lines = [
    `visual-uat eval: ${record.model} on ${plural(f.cases, 'labelled case')} from ${where}`,
    row('cases', `${f.cases} (${f.intended} intended, ${plural(f.regressions, 'regression')})`),
    row('agreement with the humans', `${f.agreed}/${f.cases} (${percent(f.agreement)})`),
    row('regressions it would have approved', `${f.regressionsApproved.length} of ${f.regressions}`),
    ...f.regressionsApproved.map(caseLine),
    row('regressions caught', `${caught} (${f.regressionsRejected} called regressions, ${f.regressionsToReview} left for review)`),
    row('intended changes sent to review', `${f.intendedToReview.length} of ${f.intended}`),
    ...f.intendedToReview.map(caseLine),
  ];
  if (f.notJudged.length) lines.push(row('not judged', String(f.notJudged.length)), ...f.notJudged.map(caseLine));
  if (f.unchanged.length)
    lines.push(row('unchanged under the current engine', `${f.unchanged.length} (never sent to the model)`), ...f.unchanged.map(caseLine));
  if (record.unreadable.length)
    lines.push(row('label folders skipped', String(record.unreadable.length)), ...record.unreadable.map((line) => `      ${line}`));
  lines.push(
    row('calls', usage.calls.toLocaleString('en-US')),
    row(
      'tokens',
      `${usage.inputTokens.toLocaleString('en-US')} input (${usage.cachedInputTokens.toLocaleString('en-US')} ` +
        `cached), ${usage.outputTokens.toLocaleString('en-US')} output`,
    ),
    row('cost', cost),
    row('time', `${(record.timeMs / 1000).toFixed(1)} s`),
    row('auto-approve would trust', trusted(record)),
    `record: ${recordFile}`,
  );
  return `${lines.join('\n')}\n`;
}
