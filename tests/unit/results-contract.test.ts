import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The results file has two descriptions that must tell the same story: the types the reporter
 * writes it from (`RunResult` in src/report/results.ts) and the JSON Schema CI scripts validate it
 * with (docs/results.schema.json). This walks both side by side, object by object, and lists every
 * property one has and the other lacks, or that one requires and the other does not.
 */

const ROOT = path.resolve(__dirname, '..', '..');
type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[] };
const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'results.schema.json'), 'utf8')) as Schema & { $defs: Record<string, Schema> };

function resolved(node: Schema): Schema {
  return node.$ref ? resolved(schema.$defs[node.$ref.replace('#/$defs/', '')]) : node;
}

/** The object branch of a schema node (a nullable object is `anyOf: [object, null]`), or null. */
function objectSchema(node: Schema): Schema | null {
  const plain = resolved(node);
  if (plain.properties) return plain;
  for (const branch of [...(plain.anyOf ?? []), ...(plain.oneOf ?? [])]) {
    const found = objectSchema(branch);
    if (found) return found;
  }
  return null;
}

function arrayItems(node: Schema): Schema | null {
  const plain = resolved(node);
  if (plain.items) return plain.items;
  for (const branch of [...(plain.anyOf ?? []), ...(plain.oneOf ?? [])]) {
    const found = arrayItems(branch);
    if (found) return found;
  }
  return null;
}

function drift(): string[] {
  const file = path.join(ROOT, 'src', 'report', 'results.ts');
  const program = ts.createProgram([file], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const runResult = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === 'RunResult')!;
  const problems: string[] = [];

  const walk = (type: ts.Type, node: Schema, where: string): void => {
    const present = type.isUnion() ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined))) : [type];
    if (present.length !== 1) return;
    const [only] = present;
    if (checker.isArrayType(only)) {
      const items = arrayItems(node);
      if (items) walk(checker.getTypeArguments(only as ts.TypeReference)[0], items, `${where}[]`);
      return;
    }
    const properties = only.getProperties();
    const objectNode = objectSchema(node);
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
      if (optional === required.has(property.name)) problems.push(`${name}: ${optional ? 'optional in the type, required by the schema' : 'required by the type, optional in the schema'}`);
      walk(checker.getTypeOfSymbolAtLocation(property, source), objectNode.properties![property.name], name);
    }
    for (const name of inSchema) problems.push(`${where}.${name}: in the schema, not in the type`);
  };
  walk(checker.getDeclaredTypeOfSymbol(runResult), schema, 'RunResult');
  return problems;
}

describe('the results contract', () => {
  it('RunResult and docs/results.schema.json describe the same fields, object by object', () => {
    expect(drift()).toEqual([]);
  }, 60_000);
});
