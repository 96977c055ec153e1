import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/files';

/**
 * docs/architecture.md: "A module knows the ones before it, never the ones after". The folders of
 * src/ in the order of the flow; a file may import its own folder, an earlier one, and the shared
 * types (src/types.ts). src/index.ts, the public API, sits on top.
 */
const ORDER = [
  'util',
  'config',
  'files',
  'git',
  'sources',
  'store',
  'checkout',
  'baseline',
  'capture',
  'compare',
  'explain',
  'group',
  'approve',
  'evaluate',
  'trust',
  'oxtest',
  'report',
  'cli',
];

const SRC = path.resolve(__dirname, '..', '..', 'src');
const UNIT = __dirname;
/** The unit tests of src/ as a whole, not of one folder: they sit at the top of tests/unit. */
const WHOLE_SOURCE_TESTS = ['api-report.test.ts', 'file-contracts.test.ts', 'layers.test.ts'];
/** The project's own tools and pages outside src/: their tests mirror them from the repository's root (tests/unit/bench/ is bench/). */
const TOOL_FOLDERS = ['bench', 'docs', 'scripts'];

/** The TypeScript files under a folder. */
function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter((file) => file.endsWith('.ts'));
}

/** The top folder of src/ a file is in, or its own name for the files at the top (index.ts, types.ts). */
function folderOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0].replace(/\.ts$/, '');
}

function upwardImports(): string[] {
  const problems: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (from === 'index') continue;
    for (const imported of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const to = folderOf(path.resolve(path.dirname(file), imported.fileName));
      if (to === from || to === 'types' || to.startsWith('..')) continue;
      if (!ORDER.includes(from) || !ORDER.includes(to))
        problems.push(`${path.relative(SRC, file)}: ${from} or ${to} is not in the order of the flow`);
      else if (ORDER.indexOf(to) > ORDER.indexOf(from))
        problems.push(`${path.relative(SRC, file)} imports ${imported.fileName}: ${from} comes before ${to}`);
    }
  }
  return problems;
}

const COMPILER_OPTIONS: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 };

/** Each file of src/ and the files of src/ it imports (type-only imports included), resolved as tsc resolves them. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const imports = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles.flatMap((imported) => {
      const resolved = ts.resolveModuleName(imported.fileName, file, COMPILER_OPTIONS, ts.sys).resolvedModule?.resolvedFileName;
      return resolved && !path.relative(SRC, resolved).startsWith('..') ? [path.resolve(resolved)] : [];
    });
    graph.set(file, imports);
  }
  return graph;
}

/** Every import cycle, found by a depth-first walk: each as the chain of files that leads back to its start. */
function importCycles(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      cycles.push([...onPath.slice(at), file].map((each) => path.relative(SRC, each)).join(' → '));
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const imported of graph.get(file) ?? []) visit(imported);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

const mirrored = (test: string) => (TOOL_FOLDERS.includes(test.split(path.sep)[0]) ? path.dirname(SRC) : SRC);

describe('the folders of src/', () => {
  it('import one another without a cycle', () => {
    expect(importCycles(importGraph())).toEqual([]);
  });

  it('would have a cycle found', () => {
    const [a, b, c] = ['a.ts', 'b.ts', 'c.ts'].map((name) => path.join(SRC, name));
    expect(
      importCycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual(['a.ts → b.ts → c.ts → a.ts']);
  });

  it('import only their own folder, earlier ones and the shared types', () => {
    expect(upwardImports()).toEqual([]);
  });

  it('are all in the order of the flow', () => {
    const folders = fs
      .readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !ORDER.includes(folder))).toEqual([]);
  });

  it('are mirrored by tests/unit: each unit test sits in the folder of the module it tests', () => {
    const misplaced = sourceFiles(UNIT)
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.relative(UNIT, file))
      .filter((file) =>
        path.dirname(file) === '.' ? !WHOLE_SOURCE_TESTS.includes(file) : !fs.existsSync(path.join(mirrored(file), path.dirname(file))),
      );
    expect(misplaced).toEqual([]);
  });
});
