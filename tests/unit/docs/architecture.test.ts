import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md names files and functions; each must exist, so that the doc cannot go on
 * describing code that moved or went. The doc's convention, which this test reads:
 *
 * - a file or folder is a code span with a slash or a `.ts` ending: `config/paths.ts` (under src/),
 *   `src/types.ts`, `tests/unit/layers.test.ts` (from the repository's root), `evaluate/` (a folder);
 *   a file named without its folder (`setup.ts`) is the one file of that name under src/;
 * - the code spans that follow a file, separated by nothing but spaces, commas, slashes, "and" and
 *   opening brackets (`report/decide.ts` `decide`, `decideChange`; `baseline/top-up.ts`
 *   (`noteCapturingTest`, `mergeTopUp`)), are names that file declares at its top level;
 * - `Type.member` (`RunContext.toppedUp`) is a member of a type or class declared under src/;
 * - any other name in PascalCase (`RunContext`, `SourceGraph`) is a type, class or constant declared at
 *   the top level of some file under src/, unless it is Playwright's (`TestInfo`);
 * - a name the code does not have yet (a rename the doc proposes) is in italics, not a code span.
 *
 * Read by TypeScript's parser: a name counts when the file declares it (a function, class,
 * interface, type, enum, variable or re-export), not when the text merely contains it.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');
const DOC = path.join(ROOT, 'docs', 'architecture.md');

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MEMBER = /^([A-Z][\w$]*)\.([A-Za-z_$][\w$]*)$/;
const TYPE = /^[A-Z][a-z][\w$]*$/;
/** Playwright's types, which the doc names where visual-uat takes or gives them. */
const PLAYWRIGHT_TYPES = new Set(['TestInfo', 'TestCase', 'TestResult']);
/** What may stand between a file's span and the names that belong to it. */
const SEPARATOR = /^[\s,/(]*(and[\s(]*)?$/;

const SOURCES = fs
  .readdirSync(SRC, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => path.join(SRC, file));

function isPath(span: string): boolean {
  return /^[\w.-]+(\/[\w.-]+)*\/?$/.test(span) && (span.endsWith('.ts') || (span.includes('/') && !span.startsWith('.')));
}

/** The file or folder a span names, or why it names none. */
function resolvePath(span: string): { file: string } | { problem: string } {
  if (/^(src|tests|docs|reporter|scripts|bench|fixtures)\//.test(span)) {
    const file = path.join(ROOT, span);
    return fs.existsSync(file) ? { file } : { problem: `${span} does not exist` };
  }
  if (span.includes('/')) {
    const file = path.join(SRC, span);
    return fs.existsSync(file) ? { file } : { problem: `src/${span} does not exist` };
  }
  const found = SOURCES.filter((file) => path.basename(file) === span);
  if (found.length === 1) return { file: found[0] };
  return {
    problem:
      found.length === 0
        ? `no ${span} under src/`
        : `${span} is ambiguous: name its folder (${found.map((file) => path.relative(SRC, file)).join(', ')})`,
  };
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  if (!parsed.has(file)) parsed.set(file, ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return parsed.get(file)!;
}

/** The names a file declares at its top level, re-exports included. */
function declaredNames(file: string): Set<string> {
  const names = new Set<string>();
  for (const statement of parse(file).statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** The members of a type or class declared at the top level of some file under src/. */
function membersOf(typeName: string): Set<string> | null {
  for (const file of SOURCES)
    for (const statement of parse(file).statements) {
      const named =
        (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) &&
        statement.name?.text === typeName;
      if (!named) continue;
      const members = ts.isTypeAliasDeclaration(statement)
        ? ts.isTypeLiteralNode(statement.type)
          ? statement.type.members
          : []
        : statement.members;
      return new Set(
        [...members].flatMap((member) =>
          member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? [member.name.text] : [],
        ),
      );
    }
  return null;
}

/** The doc's blocks (paragraphs, table rows), each read alone: a file's names never carry to the next row. */
function blocks(markdown: string): string[] {
  return markdown
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n|\n(?=\|)/)
    .map((block) => block.replace(/\n/g, ' '));
}

interface Mention {
  kind: 'path' | 'name' | 'member' | 'type';
  text: string;
  file?: string;
}

/** Every file, file-bound name and member the doc names, read by the convention above. */
function mentions(markdown: string): Mention[] {
  const found: Mention[] = [];
  for (const block of blocks(markdown)) {
    const parts = block.split('`');
    let file: string | undefined;
    for (let i = 1; i < parts.length; i += 2) {
      const span = parts[i];
      const before = parts[i - 1];
      if (isPath(span)) {
        found.push({ kind: 'path', text: span });
        file = span.endsWith('.ts') ? span : undefined;
      } else if (MEMBER.test(span)) {
        found.push({ kind: 'member', text: span });
        if (!SEPARATOR.test(before)) file = undefined;
      } else if (IDENTIFIER.test(span) && file && SEPARATOR.test(before)) {
        found.push({ kind: 'name', text: span, file });
      } else {
        if (TYPE.test(span) && !PLAYWRIGHT_TYPES.has(span)) found.push({ kind: 'type', text: span });
        file = undefined;
      }
    }
  }
  return found;
}

/** What the doc names that the code does not have, one line each. */
function missing(markdown: string): string[] {
  const problems: string[] = [];
  for (const mention of mentions(markdown)) {
    if (mention.kind === 'path') {
      const resolved = resolvePath(mention.text);
      if ('problem' in resolved) problems.push(resolved.problem);
    } else if (mention.kind === 'name') {
      const resolved = resolvePath(mention.file!);
      if ('file' in resolved && !declaredNames(resolved.file).has(mention.text))
        problems.push(`${mention.file} declares no ${mention.text}`);
    } else if (mention.kind === 'type') {
      if (!SOURCES.some((file) => declaredNames(file).has(mention.text)))
        problems.push(`no type, class or constant ${mention.text} under src/`);
    } else {
      const [, typeName, member] = MEMBER.exec(mention.text)!;
      const members = membersOf(typeName);
      if (!members) problems.push(`no type or class ${typeName} under src/ (for ${mention.text})`);
      else if (!members.has(member)) problems.push(`${typeName} has no member ${member}`);
    }
  }
  return [...new Set(problems)];
}

describe('docs/architecture.md', () => {
  const doc = fs.readFileSync(DOC, 'utf8');

  it('names only files, functions and members the code has', () => {
    expect(missing(doc)).toEqual([]);
  });

  it('is read by the convention: it names files, the functions of a file, and members', () => {
    const found = mentions(doc);
    expect(found.filter((mention) => mention.kind === 'path').length).toBeGreaterThan(50);
    expect(found.filter((mention) => mention.kind === 'name').length).toBeGreaterThan(50);
    expect(found).toContainEqual({ kind: 'name', text: 'judgeRun', file: 'report/run.ts' });
  });

  it('finds a file, a function and a member that do not exist', () => {
    const invented = [
      '| x | `report/nowhere.ts` `judge` | `report/run.ts` `judgeRunAgain`, `judgeRun` | `RunContext.noSuchField` | a `RunVerdictz` |',
      '',
      'Bare names: `setup.ts` `noSuchStep`; `index.ts` alone is ambiguous.',
    ].join('\n');
    expect(missing(invented)).toEqual([
      'src/report/nowhere.ts does not exist',
      'report/run.ts declares no judgeRunAgain',
      'RunContext has no member noSuchField',
      'no type, class or constant RunVerdictz under src/',
      'setup.ts declares no noSuchStep',
      expect.stringMatching(/^index\.ts is ambiguous: name its folder/),
    ]);
  });

  it('names every output path the workers write while the tests run, and no other', () => {
    const section = doc.slice(doc.indexOf('## When a run writes under its output folder'));
    const during = section.slice(section.indexOf('While the tests run'), section.indexOf('The runner'));
    const claimed = [...during.matchAll(/`(\w+)` \(/g)].map((match) => match[1]);
    expect(claimed.length).toBeGreaterThan(0);
    expect(claimed.sort()).toEqual(workerWrittenOutputPaths());
  });
});

/** Writes to the file system, as the code makes them. */
const WRITE = /\b(writeFileSync|appendFileSync|writeFileAtomic|mkdirSync|copyFileSync|renameSync|rmSync)\(/;

/** The modules a file reaches through its relative imports, itself included. */
function reachedFrom(files: string[]): Set<string> {
  const reached = new Set<string>();
  const visit = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const imported of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.') || imported.fileName.endsWith('.json')) continue;
      const target = path.resolve(path.dirname(file), imported.fileName);
      const found = [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate));
      if (found) visit(found);
    }
  };
  for (const file of files) visit(file);
  return reached;
}

/**
 * The `outputPath` names that code running in a worker writes: starting from every function of
 * src/capture/, each function it calls by name in the modules it reaches (a name two modules
 * declare counts for both), and in them each `outputPath(…, 'name')` of a function that writes.
 */
function workerWrittenOutputPaths(): string[] {
  const capture = SOURCES.filter((source) => source.startsWith(path.join(SRC, 'capture') + path.sep));
  const functions = new Map<string, ts.Node[]>();
  for (const file of reachedFrom(capture))
    parse(file).forEachChild(function collect(node: ts.Node): void {
      const name =
        (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name
          ? node.name.getText()
          : ts.isVariableDeclaration(node) && node.initializer && ts.isFunctionLike(node.initializer)
            ? node.name.getText()
            : null;
      if (name) functions.set(name, [...(functions.get(name) ?? []), node]);
      node.forEachChild(collect);
    });
  const called = new Set<ts.Node>();
  const queue: ts.Node[] = capture.map(parse);
  const names = new Set<string>();
  while (queue.length) {
    const body = queue.pop()!;
    const writes = WRITE.test(body.getText());
    body.forEachChild(function walk(node: ts.Node): void {
      if (ts.isCallExpression(node)) {
        const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.getText() : node.expression.getText();
        const name = node.arguments[1];
        if (callee === 'outputPath' && writes && name && ts.isStringLiteral(name)) names.add(name.text);
        for (const target of functions.get(callee) ?? [])
          if (!called.has(target)) {
            called.add(target);
            queue.push(target);
          }
      }
      node.forEachChild(walk);
    });
  }
  return [...names].sort();
}
