import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';

/**
 * Each file visual-uat writes and reads back has two descriptions that must tell the same story:
 * the TypeScript type the code writes it from, and the JSON Schema in docs/ that readers (and CI
 * scripts) check it with (src/util/schema.ts). This walks both side by side, object by object, and
 * lists every property one has and the other lacks, or that one requires and the other does not.
 */

const ROOT = path.resolve(__dirname, '..', '..');
type Schema = {
  $id?: string;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  $defs?: Record<string, Schema>;
};
const schemas = new Map<string, Schema>(
  ['results', 'approvals', 'label-case', 'baseline-manifest', 'run-context', 'store-entry', 'suite-index', 'store-journal'].map((name) => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', `${name}.schema.json`), 'utf8')) as Schema;
    return [`${name}.schema.json`, schema];
  }),
);

/** Follows `#/$defs/x` within a schema and `other.schema.json#/$defs/x` across them. */
function resolved(node: Schema, within: Schema): Schema {
  if (!node.$ref) return node;
  const [file, pointer] = node.$ref.split('#');
  const schema = file ? schemas.get(file)! : within;
  return resolved(pointer ? schema.$defs![pointer.replace('/$defs/', '')] : schema, schema);
}

/** The object branch of a schema node (a nullable object is `anyOf: [object, null]`), or null. */
function objectSchema(node: Schema, within: Schema): Schema | null {
  const plain = resolved(node, within);
  if (plain.properties) return plain;
  for (const branch of [...(plain.anyOf ?? []), ...(plain.oneOf ?? [])]) {
    const found = objectSchema(branch, within);
    if (found) return found;
  }
  return null;
}

function arrayItems(node: Schema, within: Schema): Schema | null {
  const plain = resolved(node, within);
  if (plain.items) return plain.items;
  for (const branch of [...(plain.anyOf ?? []), ...(plain.oneOf ?? [])]) {
    const found = arrayItems(branch, within);
    if (found) return found;
  }
  return null;
}

/** `typeName` exported by `sourceFile` against the schema node at `schemaFile` (a `#/$defs/x` pointer or the root). */
function drift(sourceFile: string, typeName: string, schemaRef: string): string[] {
  const file = path.join(ROOT, sourceFile);
  const program = ts.createProgram([file], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const runResult = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === typeName)!;
  const problems: string[] = [];

  const [schemaFile] = schemaRef.split('#');
  const top = schemas.get(schemaFile)!;
  // A node's refs without a file are relative to the schema that holds the node: track it while walking.
  const walk = (type: ts.Type, node: Schema, where: string, within: Schema = top): void => {
    const present = type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) : [type];
    if (present.length !== 1) return;
    const [only] = present;
    if (checker.isArrayType(only)) {
      const items = arrayItems(node, within);
      if (items) walk(checker.getTypeArguments(only as ts.TypeReference)[0], items, `${where}[]`, holder(node, within));
      return;
    }
    const properties = only.getProperties();
    const objectNode = objectSchema(node, within);
    if (!(only.flags & ts.TypeFlags.Object) || properties.length === 0 || !objectNode) return;
    const inSchema = new Set(Object.keys(objectNode.properties!));
    const required = new Set(objectNode.required ?? []);
    for (const property of properties) {
      const name = `${where}.${property.name}`;
      if (!inSchema.delete(property.name)) {
        problems.push(`${name}: in the type, not in the schema`);
        continue;
      }
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      if (optional === required.has(property.name))
        problems.push(
          `${name}: ${optional ? 'optional in the type, required by the schema' : 'required by the type, optional in the schema'}`,
        );
      walk(checker.getTypeOfSymbolAtLocation(property, source), objectNode.properties![property.name], name, holder(node, within));
    }
    for (const name of inSchema) problems.push(`${where}.${name}: in the schema, not in the type`);
  };
  walk(checker.getDeclaredTypeOfSymbol(runResult), { $ref: schemaRef }, typeName);
  return problems;
}

/**
 * The schema a node's own refs are relative to: the file its `$ref` leads into (its own, or a
 * branch's: a nullable reference is `anyOf: [{ $ref }, null]`), else the one it is in.
 */
function holder(node: Schema, within: Schema): Schema {
  const file = [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])].map((branch) => branch.$ref?.split('#')[0]).find(Boolean);
  return file ? schemas.get(file)! : within;
}

describe('the file contracts', () => {
  // The readers build their validators without this check (src/util/schema.ts): it is made here, once.
  it.each([...schemas.keys()])('docs/%s is a valid JSON Schema (2020-12)', (file) => {
    const meta = new Ajv2020({ strict: false });
    expect(meta.validateSchema(schemas.get(file)!), JSON.stringify(meta.errors)).toBe(true);
  });

  it('RunResult and docs/results.schema.json describe the same fields, object by object', () => {
    expect(drift('src/report/results.ts', 'RunResult', 'results.schema.json')).toEqual([]);
  }, 60_000);

  it('an Approval as the file holds it and docs/approvals.schema.json describe the same fields', () => {
    expect(drift('src/files/approvals-file.ts', 'StoredApproval', 'approvals.schema.json#/$defs/approval')).toEqual([]);
  }, 60_000);

  it('a LabelledCase and docs/label-case.schema.json describe the same fields', () => {
    expect(drift('src/approve/labels.ts', 'LabelledCase', 'label-case.schema.json')).toEqual([]);
  }, 60_000);

  it.each([
    ['src/types.ts', 'BaselineManifest', 'baseline-manifest.schema.json'],
    ['src/types.ts', 'RunContext', 'run-context.schema.json'],
    ['src/store/entry.ts', 'Seal', 'store-entry.schema.json'],
    ['src/store/suite-index.ts', 'SuiteIndex', 'suite-index.schema.json'],
    ['src/store/journal.ts', 'Journal', 'store-journal.schema.json'],
  ])(
    '%s %s and docs/%s describe the same fields',
    (file, type, schema) => {
      expect(drift(file, type, schema)).toEqual([]);
    },
    60_000,
  );
});
