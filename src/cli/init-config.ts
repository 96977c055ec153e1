import ts from 'typescript';

/**
 * The edit `visual-uat init` makes to a Playwright config: the exported config wrapped in
 * `withVisualUat(…)` and its import added, as two insertions the user can review, found with the
 * TypeScript compiler's syntax tree (never a pattern over the text). Anything the tree does not
 * show plainly (no exported config, a config function, a re-export) is refused.
 */

export type ConfigEdit =
  | { kind: 'edit'; text: string; insertions: Insertion[] }
  | { kind: 'wired' }
  | { kind: 'refused'; reason: string };

export interface Insertion {
  at: number;
  text: string;
}

const WRAPPER = 'withVisualUat';

function scriptKind(fileName: string): ts.ScriptKind {
  return /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** `module.exports = <expression>` as a statement. */
function moduleExportsValue(statement: ts.Statement): ts.Expression | null {
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return null;
  const { left, operatorToken, right } = statement.expression;
  const isModuleExports = ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.expression) && left.expression.text === 'module' && left.name.text === 'exports';
  return isModuleExports && operatorToken.kind === ts.SyntaxKind.EqualsToken ? right : null;
}

function hasDefaultModifier(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && !!ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
}

/** `export { x as default }` or `export { default } from '…'`. */
function reExportsDefault(statement: ts.Statement): boolean {
  return ts.isExportDeclaration(statement) && !!statement.exportClause && ts.isNamedExports(statement.exportClause) && statement.exportClause.elements.some((element) => element.name.text === 'default');
}

function mentionsWrapper(node: ts.Node): boolean {
  if (ts.isIdentifier(node) && node.text === WRAPPER) return true;
  return !!ts.forEachChild(node, (child) => mentionsWrapper(child) || undefined);
}

function importsFromVisualUat(source: ts.SourceFile): boolean {
  return source.statements.some((statement) => {
    if (ts.isImportDeclaration(statement)) return ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === 'visual-uat';
    return /require\(\s*['"]visual-uat['"]\s*\)/.test(statement.getText(source));
  });
}

/** The file's own style for the added line: its quotes and whether it ends statements with `;`. */
function style(source: ts.SourceFile): { quote: string; semicolon: string } {
  const first = source.statements.find((statement) => ts.isImportDeclaration(statement) || ts.isVariableStatement(statement) || ts.isExportAssignment(statement));
  const text = first?.getText(source) ?? '';
  return { quote: /"/.test(text) && !/'/.test(text) ? '"' : "'", semicolon: first && !text.endsWith(';') ? '' : ';' };
}

function isRequireStatement(statement: ts.Statement, source: ts.SourceFile): boolean {
  return ts.isVariableStatement(statement) && /^\s*(?:const|let|var)\s[^=]+=\s*require\(/.test(statement.getText(source));
}

function refused(reason: string): ConfigEdit {
  return { kind: 'refused', reason };
}

/** The config wrapped in withVisualUat, or why it cannot be done safely. */
export function wrapConfig(fileName: string, text: string, baseBranch: string | null): ConfigEdit {
  const { diagnostics } = ts.transpileModule(text, { fileName, reportDiagnostics: true, compilerOptions: { allowJs: true } });
  if (diagnostics?.length) return refused(`it does not parse (${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, ' ')})`);
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  if (mentionsWrapper(source)) return importsFromVisualUat(source) ? { kind: 'wired' } : refused(`it has a ${WRAPPER} of its own`);
  if (source.statements.some((statement) => reExportsDefault(statement))) return refused('its default export comes from another module: wire the file that defines the config');
  if (source.statements.some((statement) => hasDefaultModifier(statement))) return refused('it exports a function or a class, not a config object');
  const exported = source.statements.flatMap((statement) => {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) return [{ statement, value: statement.expression, esm: true }];
    const value = moduleExportsValue(statement);
    return value ? [{ statement, value, esm: false }] : [];
  });
  if (exported.length !== 1) return refused(exported.length ? 'it exports a config more than once' : 'it has no `export default` or `module.exports =` of a config');
  const [{ value, esm }] = exported;
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return refused('it exports a function, not a config object');

  const { quote, semicolon } = style(source);
  const importLine = esm ? `import { ${WRAPPER} } from ${quote}visual-uat${quote}${semicolon}` : `const { ${WRAPPER} } = require(${quote}visual-uat${quote})${semicolon}`;
  const lastImport = [...source.statements].reverse().find((statement) => (esm ? ts.isImportDeclaration(statement) : isRequireStatement(statement, source)));
  const options = baseBranch ? `, { baseBranch: ${quote}${baseBranch}${quote} }` : '';
  const insertions: Insertion[] = [
    lastImport ? { at: lastImport.getEnd(), text: `\n${importLine}` } : { at: 0, text: `${importLine}\n` },
    { at: value.getStart(source), text: `${WRAPPER}(` },
    { at: value.getEnd(), text: `${options})` },
  ];
  return { kind: 'edit', text: applyInsertions(text, insertions), insertions };
}

export function applyInsertions(text: string, insertions: Insertion[]): string {
  return [...insertions].sort((a, b) => b.at - a.at).reduce((result, { at, text: inserted }) => result.slice(0, at) + inserted + result.slice(at), text);
}

/**
 * The edit as the lines it changes: `-` the line before, `+` the line after, with its number. Only
 * insertions are made, so each touched line of the old text maps to the lines it became.
 */
export function describeEdit(text: string, insertions: Insertion[]): string {
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((match) => match.index! + 1)];
  const lineOf = (at: number) => lineStarts.filter((start) => start <= at).length - 1;
  const byLine = new Map<number, Insertion[]>();
  for (const insertion of insertions) {
    // An insertion that starts with a newline belongs to the end of the line before it.
    const line = lineOf(insertion.at);
    byLine.set(line, [...(byLine.get(line) ?? []), insertion]);
  }
  const oldLines = text.split('\n');
  return [...byLine.entries()]
    .sort(([a], [b]) => a - b)
    .map(([line, edits]) => {
      const start = lineStarts[line];
      const changed = applyInsertions(oldLines[line], edits.map((edit) => ({ at: edit.at - start, text: edit.text })));
      return [`@@ line ${line + 1}`, `- ${oldLines[line]}`, ...changed.split('\n').map((added) => `+ ${added}`)].join('\n');
    })
    .join('\n');
}
