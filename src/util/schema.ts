import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject } from 'ajv/dist/2020';
import approvalsSchema from '../../docs/approvals.schema.json';
import manifestSchema from '../../docs/baseline-manifest.schema.json';
import labelCaseSchema from '../../docs/label-case.schema.json';
import resultsSchema from '../../docs/results.schema.json';
import runContextSchema from '../../docs/run-context.schema.json';
import storeEntrySchema from '../../docs/store-entry.schema.json';
import journalSchema from '../../docs/store-journal.schema.json';
import suiteIndexSchema from '../../docs/suite-index.schema.json';
import { readJsonFile } from './fs';
import { lazy } from './lazy';

/**
 * The JSON Schemas in docs/ are the one definition of the files visual-uat reads back (results,
 * approvals, labelled cases; the run context and a baseline entry's manifest; the store's seals,
 * suite indexes and journal): readers check against them here, on every read, and a unit test checks the
 * TypeScript types against them, so a new field is taught in one place and a drift fails a test.
 */

/**
 * Made on first use: a run with no file to check (no approvals file yet) does not pay for building it.
 * The schemas are not checked against JSON Schema's meta-schema here: that compiled the meta-schema
 * in every process that reads a file (each worker, at its first checkpoint: 35–40 ms), for schemas
 * that ship with the package; tests/unit/file-contracts.test.ts checks them instead.
 */
const validators = lazy(() => {
  const { default: Validators } = require('ajv/dist/2020') as { default: typeof Ajv2020 };
  // verbose: each error carries the value it refused, which the message quotes.
  return new Validators({ strict: false, verbose: true, validateSchema: false }).addSchema([
    resultsSchema,
    approvalsSchema,
    labelCaseSchema,
    manifestSchema,
    runContextSchema,
    storeEntrySchema,
    suiteIndexSchema,
    journalSchema,
  ]);
});

export type SchemaName =
  | 'results'
  | 'approvals'
  | 'approval-entry'
  | 'label-case'
  | 'baseline-manifest'
  | 'run-context'
  | 'store-entry'
  | 'suite-index'
  | 'store-journal';

const IDS: Record<SchemaName, string> = {
  results: resultsSchema.$id,
  approvals: approvalsSchema.$id,
  'approval-entry': `${approvalsSchema.$id}#/$defs/entry`,
  'label-case': labelCaseSchema.$id,
  'baseline-manifest': manifestSchema.$id,
  'run-context': runContextSchema.$id,
  'store-entry': storeEntrySchema.$id,
  'suite-index': suiteIndexSchema.$id,
  'store-journal': journalSchema.$id,
};

function alternatives(values: unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0];
}

/** A JSON value's kind as a sentence names it: "an array", "null". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function typeNames(type: string | string[]): string {
  return [type]
    .flat()
    .map((name) => (name === 'null' ? 'null' : `a${/^[aeiou]/.test(name) ? 'n' : ''} ${name}`))
    .join(' or ');
}

/** The keys of an object its schema does not name (what a misspelt key was written as). */
function unknownKeys(data: unknown, schema: { properties?: Record<string, unknown> }): string[] {
  return data && typeof data === 'object' && !Array.isArray(data)
    ? Object.keys(data).filter((key) => !(key in (schema.properties ?? {})))
    : [];
}

function describe(error: ErrorObject, root: string): string {
  const path = error.instancePath.slice(1).replaceAll('/', '.');
  const where = path || root;
  const got = ` (got ${JSON.stringify(error.data)?.slice(0, 60) ?? 'nothing'})`;
  if (error.keyword === 'enum') return `${where} must be ${alternatives(error.params.allowedValues as unknown[])}${got}`;
  if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}${got}`;
  if (error.keyword === 'type') return `${where} is ${kindOf(error.data)}, not ${typeNames(error.params.type as string | string[])}`;
  if (error.keyword === 'required') {
    const others = unknownKeys(error.data, error.parentSchema as { properties?: Record<string, unknown> });
    const found = others.length ? ` (found ${others.map((key) => JSON.stringify(key)).join(', ')})` : '';
    return `${JSON.stringify(path ? `${path}.${error.params.missingProperty}` : error.params.missingProperty)} is missing${found}`;
  }
  if (error.keyword === 'additionalProperties') return `${where} has an unknown field ${JSON.stringify(error.params.additionalProperty)}`;
  return `${where} ${error.message}${got}`;
}

/** What is wrong with a value, and where. */
export interface SchemaProblem {
  /** The path to the part at fault (e.g. ['approvals', '1', 'scope']); empty: the value itself. */
  path: string[];
  /** In words, the part named by its path, the value itself as `root`: "scope must be …", "the top level is an array, not an object". */
  text: string;
}

/** The first thing in `value` the named schema does not allow, or null. */
export function schemaProblem(name: SchemaName, value: unknown, root = 'the top level'): SchemaProblem | null {
  const validate = validators().getSchema(IDS[name])!;
  if (validate(value)) return null;
  // anyOf reports each branch's failure, then its own (if/then its branch's, then its own); the
  // deepest error names the field that is wrong.
  const errors = validate.errors ?? [];
  const deepest =
    errors
      .filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'if')
      .sort((a, b) => b.instancePath.length - a.instancePath.length)[0] ?? errors[0];
  if (!deepest) return { path: [], text: `${root} does not match its schema` };
  return { path: deepest.instancePath.split('/').slice(1), text: describe(deepest, root) };
}

/**
 * The format version a file names when it is newer than `known` (a newer visual-uat wrote it), else
 * null: what the one line about a file this version does not read names as the fix.
 */
export function newerVersion(file: string, known: number): number | null {
  const version = readJsonFile<{ version?: unknown }>(file)?.version;
  return typeof version === 'number' && version > known ? version : null;
}

/**
 * A file visual-uat wrote and reads back, checked against its schema: its value, or null when it is
 * missing, not JSON, or not of its schema (an entry cut short, a file edited by hand): the caller
 * treats it as absent or doubtful, never trusts a field it did not check.
 */
export function readCheckedJson<T>(file: string, name: SchemaName): T | null {
  const value = readJsonFile<unknown>(file);
  return value !== null && schemaProblem(name, value) === null ? (value as T) : null;
}
