import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The public API report: every name each entry point of package.json's `exports` gives a user,
 * read by the TypeScript compiler from the sources the entry is built from. A name that appears or
 * disappears fails here until docs/api-report.txt (and docs/api.md) says so on purpose.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const REPORT = path.join(ROOT, 'docs', 'api-report.txt');

function entryPoints(): [string, string][] {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, { types?: string } | string>;
  };
  return Object.entries(manifest.exports)
    .filter((entry): entry is [string, { types: string }] => typeof entry[1] === 'object' && !!entry[1].types)
    .map(([name, target]) => [name, path.join(ROOT, target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'))]);
}

function apiReport(): string {
  const entries = entryPoints();
  const program = ts.createProgram(
    entries.map(([, file]) => file),
    {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const lines: string[] = [];
  for (const [name, file] of entries) {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not a module`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      lines.push(`visual-uat${name.slice(1)} ${symbol.name} (${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'})`);
    }
  }
  return `${lines.sort().join('\n')}\n`;
}

describe('public API', () => {
  it('is exactly what docs/api-report.txt lists', () => {
    const report = apiReport();
    if (process.env.UPDATE_API_REPORT === '1') fs.writeFileSync(REPORT, report);
    expect(
      report,
      'the public API changed: if on purpose, run UPDATE_API_REPORT=1 npx vitest run tests/unit/api-report.test.ts and update docs/api.md',
    ).toBe(fs.readFileSync(REPORT, 'utf8'));
  }, 60_000);
});
