import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CI_BASE_VARIABLES, currentRole, ENV } from '../../../src/config/environment';
import { filesUnder } from '../../support/files';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');
const ENVIRONMENT = path.join(SRC, 'config', 'environment.ts');
const DECLARED = new Set(Object.values(ENV).map((variable) => variable.name));

function isVariableName(name: string): boolean {
  return DECLARED.has(name) || /^VISUAL_UAT_[A-Z0-9_]+$/.test(name);
}

/**
 * Where a file names an environment variable itself instead of through ENV: a string that is a
 * variable's name (`env['VISUAL_UAT_DIR']`, `'PORT'`), or a property or key named like one
 * (`process.env.VISUAL_UAT_DIR`, `{ VISUAL_UAT_DIR: '1' }`). Text that only mentions a name, as a
 * message does, is not a use.
 */
function bareNames(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const name =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isIdentifier(node) &&
            (ts.isPropertyAccessExpression(node.parent) ||
              ts.isPropertyAssignment(node.parent) ||
              ts.isShorthandPropertyAssignment(node.parent) ||
              ts.isBindingElement(node.parent))
          ? node.text
          : null;
    if (name !== null && isVariableName(name)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${path.relative(SRC, fileName)}:${line + 1} ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('config/environment', () => {
  it('declares each variable once, with what it means', () => {
    const names = Object.values(ENV).map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    expect(
      Object.values(ENV)
        .filter((variable) => variable.meaning.length < 10)
        .map((variable) => variable.name),
    ).toEqual([]);
  });

  it('is the only module of src/ that names a variable', () => {
    const found = filesUnder(SRC)
      .filter((file) => file.endsWith('.ts') && file !== ENVIRONMENT)
      .flatMap((file) => bareNames(file, fs.readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('would find each way of naming a variable bare, and not a message that mentions one', () => {
    const file = path.join(SRC, 'example.ts');
    const code = [
      'process.env.VISUAL_UAT_DIR;',
      "env['VISUAL_UAT_OVERLAP'];",
      "spawn('x', { env: { VISUAL_UAT_UNDECLARED_YET: '1' } });",
      'const { OPENAI_API_KEY } = process.env;',
      'env[`PORT`] = 3;',
      "throw new Error('set VISUAL_UAT_DIR to another folder');",
    ].join('\n');
    expect(bareNames(file, code)).toEqual([
      'example.ts:1 VISUAL_UAT_DIR',
      'example.ts:2 VISUAL_UAT_OVERLAP',
      'example.ts:3 VISUAL_UAT_UNDECLARED_YET',
      'example.ts:4 OPENAI_API_KEY',
      'example.ts:5 PORT',
    ]);
  });

  it('reads a variable as its type, and an empty or unreadable one as unset', () => {
    expect(ENV.updateBaselines.read({ VISUAL_UAT_UPDATE_BASELINES: 'TRUE' })).toBe(true);
    expect(ENV.updateBaselines.read({ VISUAL_UAT_UPDATE_BASELINES: '0' })).toBe(false);
    expect(ENV.updateBaselines.read({ VISUAL_UAT_UPDATE_BASELINES: '' })).toBeUndefined();
    expect(ENV.basePorts.read({ VISUAL_UAT_BASE_PORTS: '4001,4002' })).toEqual([4001, 4002]);
    expect(ENV.guardPid.read({ VISUAL_UAT_GUARD_PID: 'abc' })).toBeUndefined();
    expect(ENV.serialProjects.read({ VISUAL_UAT_SERIAL_PROJECTS: '["a"' })).toBeUndefined();
    expect(ENV.overlap.read({ VISUAL_UAT_OVERLAP: 'yes' })).toBeUndefined();
    expect(currentRole({ VISUAL_UAT_ROLE: 'baseline' })).toBe('baseline');
    expect(currentRole({ VISUAL_UAT_ROLE: 'other' })).toBe('current');
  });

  it('writes a value as its reader reads it, and removes it for undefined', () => {
    const env: NodeJS.ProcessEnv = {};
    ENV.serialProjects.write(['a', 'b'], env);
    ENV.record.write(true, env);
    expect(env).toEqual({ VISUAL_UAT_SERIAL_PROJECTS: '["a","b"]', VISUAL_UAT_RECORD: '1' });
    expect(ENV.serialProjects.read(env)).toEqual(['a', 'b']);
    ENV.record.write(undefined, env);
    expect(env).toEqual({ VISUAL_UAT_SERIAL_PROJECTS: '["a","b"]' });
    expect(ENV.basePorts.entry([1, 2])).toEqual({ VISUAL_UAT_BASE_PORTS: '1,2' });
  });

  it("tries the CI services' target branches in order", () => {
    expect(CI_BASE_VARIABLES.map((variable) => variable.name)).toEqual([
      'GITHUB_BASE_REF',
      'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
      'BITBUCKET_PR_DESTINATION_BRANCH',
    ]);
  });
});
