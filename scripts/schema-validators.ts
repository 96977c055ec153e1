import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import { SCHEMAS, type SchemaName } from '../src/util/schema';

/**
 * The JSON Schemas of docs/ compiled to validator code once, at build time (Ajv's standalone code),
 * so no process of a run compiles a schema: `npm run build` writes one CommonJS module per schema
 * name into dist/src/util/validators/, which src/util/schema.ts loads on first use of that name,
 * and the same beside the sources (src/util/validators/, ignored by git), for what runs src/ itself
 * (the e2e tests' support code); the unit tests' global setup writes those too. Made from the
 * schemas on every build and unit test run, the code cannot disagree with them.
 */

const ROOT = path.resolve(__dirname, '..', fs.existsSync(path.resolve(__dirname, '..', 'package.json')) ? '' : '..');
const DOCS = path.join(ROOT, 'docs');

/** Each schema name's validator, as the source of a CommonJS module. */
export function validatorSources(docs = DOCS): Record<SchemaName, string> {
  const files = [...new Set(Object.values(SCHEMAS).map((where) => where.split('#')[0]))];
  const schemas = new Map(files.map((file) => [file, JSON.parse(fs.readFileSync(path.join(docs, file), 'utf8')) as { $id: string }]));
  // verbose: each error carries the value it refused, which the message quotes. The schemas are
  // checked against JSON Schema's meta-schema by tests/unit/file-contracts.test.ts.
  const ajv = new Ajv2020({ strict: false, verbose: true, validateSchema: false, code: { source: true } }).addSchema([...schemas.values()]);
  const sources = {} as Record<SchemaName, string>;
  for (const [name, where] of Object.entries(SCHEMAS) as [SchemaName, string][]) {
    const [file, pointer] = where.split('#');
    const id = `${schemas.get(file)!.$id}${pointer ? `#${pointer}` : ''}`;
    sources[name] =
      `// Made by scripts/schema-validators.ts from docs/${where}: not to be edited.\n${standaloneCode(ajv, ajv.getSchema(id)!)}\n`;
  }
  return sources;
}

/** Writes each validator module into `dir` (one that holds the same text is left untouched). */
export function writeValidators(dir: string, docs = DOCS): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, source] of Object.entries(validatorSources(docs))) {
    const file = path.join(dir, `${name}.js`);
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== source) fs.writeFileSync(file, source);
  }
}

/** Where src/util/schema.ts finds them when it runs from its sources. */
export const SOURCE_VALIDATORS = path.join(ROOT, 'src', 'util', 'validators');

if (require.main === module) {
  writeValidators(path.join(__dirname, '..', 'src', 'util', 'validators'));
  writeValidators(SOURCE_VALIDATORS);
}
