import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { readJsonFile } from './fs';

/**
 * The JSON Schemas in docs/ are the one definition of the files visual-uat reads back (results,
 * approvals, labelled cases; the run context and a baseline entry's manifest; the store's seals,
 * suite indexes and journal): readers check against them here, on every read, and a unit test checks the
 * TypeScript types against them, so a new field is taught in one place and a drift fails a test.
 */

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

/** Each name's schema in docs/, with the pointer to a part of it. */
export const SCHEMAS: Record<SchemaName, string> = {
  results: 'results.schema.json',
  approvals: 'approvals.schema.json',
  'approval-entry': 'approvals.schema.json#/$defs/entry',
  'label-case': 'label-case.schema.json',
  'baseline-manifest': 'baseline-manifest.schema.json',
  'run-context': 'run-context.schema.json',
  'store-entry': 'store-entry.schema.json',
  'suite-index': 'suite-index.schema.json',
  'store-journal': 'store-journal.schema.json',
};

const loaded = new Map<SchemaName, ValidateFunction>();

/**
 * The name's validator, compiled from its schema at build time (scripts/schema-validators.ts) and
 * loaded on first use: a worker that checks the run context at its first checkpoint neither
 * compiles a schema (40–50 ms) nor loads the code of the results file's.
 */
function validator(name: SchemaName): ValidateFunction {
  let validate = loaded.get(name);
  if (!validate) {
    validate = require(`./validators/${name}`) as ValidateFunction;
    loaded.set(name, validate);
  }
  return validate;
}

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
  const validate = validator(name);
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
