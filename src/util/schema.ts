import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import approvalsSchema from '../../docs/approvals.schema.json';
import labelCaseSchema from '../../docs/label-case.schema.json';
import resultsSchema from '../../docs/results.schema.json';

/**
 * The JSON Schemas in docs/ are the one definition of the files visual-uat reads back (results,
 * approvals, labelled cases): readers check against them here, and a unit test checks the
 * TypeScript types against them, so a new field is taught in one place and a drift fails a test.
 */

// verbose: each error carries the value it refused, which the message quotes.
const ajv = new Ajv2020({ strict: false, verbose: true });
ajv.addSchema([resultsSchema, approvalsSchema, labelCaseSchema]);

export type SchemaName = 'results' | 'approvals' | 'approval-entry' | 'label-case';

const IDS: Record<SchemaName, string> = {
  results: resultsSchema.$id,
  approvals: approvalsSchema.$id,
  'approval-entry': `${approvalsSchema.$id}#/$defs/entry`,
  'label-case': labelCaseSchema.$id,
};

function alternatives(values: unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0];
}

function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'the file';
  const got = ` (got ${JSON.stringify(error.data)?.slice(0, 60) ?? 'nothing'})`;
  if (error.keyword === 'enum') return `${where} must be ${alternatives(error.params.allowedValues as unknown[])}${got}`;
  if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}${got}`;
  if (error.keyword === 'required') return `${where} needs ${error.params.missingProperty}`;
  return `${where} ${error.message}${got}`;
}

/** The first thing in `value` the named schema does not allow, in words ("label must be one of …"), or null. */
export function schemaProblem(name: SchemaName, value: unknown): string | null {
  const validate = ajv.getSchema(IDS[name])!;
  if (validate(value)) return null;
  // anyOf reports each branch's failure, then its own; the deepest error names the field that is wrong.
  const errors = validate.errors ?? [];
  const deepest = errors.filter((error) => error.keyword !== 'anyOf').sort((a, b) => b.instancePath.length - a.instancePath.length)[0] ?? errors[0];
  return deepest ? describe(deepest) : 'does not match its schema';
}
