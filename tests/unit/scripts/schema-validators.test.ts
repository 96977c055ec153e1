import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMAS } from '../../../src/util/schema';
import { writeValidators } from '../../../scripts/schema-validators';

const DOCS = path.resolve(__dirname, '..', '..', '..', 'docs');

/** The validators written from a copy of docs/ whose suite index schema `edit` changed; the suite index's. */
function suiteIndexValidator(edit: (schema: Record<string, unknown>) => void): (value: unknown) => boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-validators-'));
  fs.cpSync(DOCS, path.join(dir, 'docs'), { recursive: true, filter: (file) => !file.includes('images') });
  const file = path.join(dir, 'docs', 'suite-index.schema.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(schema);
  fs.writeFileSync(file, JSON.stringify(schema));
  writeValidators(path.join(dir, 'validators'), path.join(dir, 'docs'));
  expect(fs.readdirSync(path.join(dir, 'validators')).sort()).toEqual(
    Object.keys(SCHEMAS)
      .map((name) => `${name}.js`)
      .sort(),
  );
  return require(path.join(dir, 'validators', 'suite-index.js'));
}

describe('the validators written from docs/*.schema.json', () => {
  const index = { version: 1, key: 'k', sealedAt: '2026-11-28T12:00:00Z', manifest: { complete: true, tests: {} } };

  it('check what the schemas say, and follow a schema that changed', () => {
    expect(suiteIndexValidator(() => {})(index)).toBe(true);
    expect(suiteIndexValidator(() => {})({ ...index, version: 2 })).toBe(false);
    const newer = suiteIndexValidator((schema) => {
      (schema.properties as { version: { const: number } }).version.const = 2;
    });
    expect(newer({ ...index, version: 2 })).toBe(true);
    expect(newer(index)).toBe(false);
  });
});
