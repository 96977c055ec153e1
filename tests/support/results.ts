import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { DEFAULT_FAIL_ON } from '../../src/config/settings';
import type { RunResult } from '../../src/report';
import { failingCheckpoints } from '../../src/report/decide';

export { checkpointResult, runOf, testResult } from './runs';

const SCHEMA_FILE = path.resolve(__dirname, '..', '..', 'docs', 'results.schema.json');
const ajv = new Ajv2020({ allErrors: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));

/** A results file, checked against docs/results.schema.json: the contract CI scripts rely on. */
export function validResults(run: unknown, file: string): RunResult {
  if (!validate(run))
    throw new Error(`${file} does not match docs/results.schema.json: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
  return run as RunResult;
}

export function readLatest(dir: string, outputDir = '.visual-uat'): RunResult {
  const file = path.join(dir, outputDir, 'results', 'latest.json');
  return validResults(JSON.parse(fs.readFileSync(file, 'utf8')), file);
}

export function checkpoint(run: RunResult, testTitle: string, name: string) {
  const test = run.tests.find((t) => t.title === testTitle);
  const found = test?.checkpoints.find((c) => c.name === name);
  if (!test || !found)
    throw new Error(
      `no checkpoint ${testTitle} › ${name} in ${JSON.stringify(run.tests.map((t) => [t.title, t.checkpoints.map((c) => c.name)]))}`,
    );
  return { test, checkpoint: found };
}

/**
 * The exit code a run must have under the default gate (failOn: regression, needs_review), from
 * its results file: 1 while a change awaits a person, else 0. Asserting it beside the statuses
 * checks that the exit code and the results tell the same story.
 */
export function gateExit(run: RunResult): 0 | 1 {
  return failingCheckpoints(
    run.tests.flatMap((test) => test.checkpoints),
    DEFAULT_FAIL_ON,
  ).length > 0
    ? 1
    : 0;
}

export function statuses(run: RunResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const test of run.tests) for (const c of test.checkpoints) out[`${test.title} › ${c.name}`] = c.status;
  return out;
}

/**
 * The row of the end-of-run table whose reason starts with `start`: its first line, and its reason
 * joined from the lines it wraps onto in its column.
 */
export function tableRow(stdout: string, start: string): { first: string; reason: string } {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.includes(start));
  if (at < 0) throw new Error(`no table row with "${start}" in:\n${stdout}`);
  const first = lines[at];
  const column = first.indexOf(start);
  const wrapped = (line: string) => line.length > column && line.slice(0, column).trim() === '';
  const after = lines.slice(at + 1);
  const end = after.findIndex((line) => !wrapped(line));
  const under = end < 0 ? after : after.slice(0, end);
  return { first, reason: [first.slice(column), ...under.map((line) => line.trim())].join(' ') };
}

/** The demo app's checkpoints on its feature branch, without an evaluator. */
export const DEMO_STATUSES = {
  'home › landing': 'unchanged',
  'plans › plans': 'needs_review',
  'plans › header': 'unchanged',
  'about › contact': 'needs_review',
  'pricing › pricing-header': 'unchanged',
};
