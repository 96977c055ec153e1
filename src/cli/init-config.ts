import ts from 'typescript';
import type { BaseWebServer } from '../types';
import { serverPort, type WebServer } from '../config/base-server';
import { ENV } from '../config/environment';
import type { ProbedConfig } from './config-probe';

/**
 * The edit `visual-uat init` makes to a Playwright config: the exported config wrapped in
 * `withVisualUat(…)` and its import added, as two insertions the user can review, found with the
 * TypeScript compiler's syntax tree (never a pattern over the text). Anything the tree does not
 * show plainly (no exported config, a config function, a re-export) is refused. What the config
 * holds (its webServer entries) is read from the config as Playwright evaluates it instead.
 */

export type ConfigEdit = { kind: 'edit'; text: string; insertions: Insertion[] } | { kind: 'wired' } | { kind: 'refused'; reason: string };

export interface Insertion {
  at: number;
  text: string;
}

const WRAPPER = 'withVisualUat';
const BYTE_ORDER_MARK = '\uFEFF';

function scriptKind(fileName: string): ts.ScriptKind {
  return /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
}

/** `module.exports = <expression>` as a statement. */
function moduleExportsValue(statement: ts.Statement): ts.Expression | null {
  if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) return null;
  const { left, operatorToken, right } = statement.expression;
  const isModuleExports =
    ts.isPropertyAccessExpression(left) &&
    ts.isIdentifier(left.expression) &&
    left.expression.text === 'module' &&
    left.name.text === 'exports';
  return isModuleExports && operatorToken.kind === ts.SyntaxKind.EqualsToken ? right : null;
}

function hasDefaultModifier(statement: ts.Statement): boolean {
  return ts.canHaveModifiers(statement) && !!ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
}

/** `export { x as default }` or `export { default } from '…'`. */
function reExportsDefault(statement: ts.Statement): boolean {
  return (
    ts.isExportDeclaration(statement) &&
    !!statement.exportClause &&
    ts.isNamedExports(statement.exportClause) &&
    statement.exportClause.elements.some((element) => element.name.text === 'default')
  );
}

function mentionsWrapper(node: ts.Node): boolean {
  if (ts.isIdentifier(node) && node.text === WRAPPER) return true;
  return !!ts.forEachChild(node, (child) => mentionsWrapper(child) || undefined);
}

function importsFromVisualUat(source: ts.SourceFile): boolean {
  return source.statements.some((statement) => {
    if (ts.isImportDeclaration(statement))
      return ts.isStringLiteral(statement.moduleSpecifier) && statement.moduleSpecifier.text === 'visual-uat';
    return /require\(\s*['"]visual-uat['"]\s*\)/.test(statement.getText(source));
  });
}

/** The file's own style for the added line: its quotes and whether it ends statements with `;`. */
function style(source: ts.SourceFile): { quote: string; semicolon: string } {
  const first = source.statements.find(
    (statement) => ts.isImportDeclaration(statement) || ts.isVariableStatement(statement) || ts.isExportAssignment(statement),
  );
  const text = first?.getText(source) ?? '';
  return { quote: /"/.test(text) && !/'/.test(text) ? '"' : "'", semicolon: first && !text.endsWith(';') ? '' : ';' };
}

function isRequireStatement(statement: ts.Statement, source: ts.SourceFile): boolean {
  return ts.isVariableStatement(statement) && /^\s*(?:const|let|var)\s[^=]+=\s*require\(/.test(statement.getText(source));
}

function refused(reason: string): ConfigEdit {
  return { kind: 'refused', reason };
}

/** What withVisualUat's options get: the base branch and, where init can tell it, how to start the base's servers. */
export interface WrapOptions {
  baseBranch: string | null;
  baseWebServer?: BaseWebServer | (BaseWebServer | null)[];
}

function parsed(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
}

/** A string in the file's quotes. */
function quoted(value: string, quote: string): string {
  return `${quote}${value.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`)}${quote}`;
}

function optionsText({ baseBranch, baseWebServer }: WrapOptions, quote: string): string {
  const server = (entry: BaseWebServer | null) => (entry?.command ? `{ command: ${quoted(entry.command, quote)} }` : 'null');
  const fields = [
    ...(baseBranch ? [`baseBranch: ${quoted(baseBranch, quote)}`] : []),
    ...(baseWebServer
      ? [`baseWebServer: ${Array.isArray(baseWebServer) ? `[${baseWebServer.map(server).join(', ')}]` : server(baseWebServer)}`]
      : []),
  ];
  return fields.length ? `, { ${fields.join(', ')} }` : '';
}

/** The config wrapped in withVisualUat, or why it cannot be done safely. Its line endings and byte-order mark stay as they are. */
export function wrapConfig(fileName: string, text: string, options: WrapOptions): ConfigEdit {
  const { diagnostics } = ts.transpileModule(text, { fileName, reportDiagnostics: true, compilerOptions: { allowJs: true } });
  if (diagnostics?.length) return refused(`it does not parse (${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, ' ')})`);
  const source = parsed(fileName, text);
  if (mentionsWrapper(source)) return importsFromVisualUat(source) ? { kind: 'wired' } : refused(`it has a ${WRAPPER} of its own`);
  if (source.statements.some((statement) => reExportsDefault(statement)))
    return refused('its default export comes from another module: wire the file that defines the config');
  if (source.statements.some((statement) => hasDefaultModifier(statement)))
    return refused('it exports a function or a class, not a config object');
  const exported = source.statements.flatMap((statement) => {
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) return [{ statement, value: statement.expression, esm: true }];
    const value = moduleExportsValue(statement);
    return value ? [{ statement, value, esm: false }] : [];
  });
  if (exported.length !== 1)
    return refused(exported.length ? 'it exports a config more than once' : 'it has no `export default` or `module.exports =` of a config');
  const [{ value, esm }] = exported;
  if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return refused('it exports a function, not a config object');

  const { quote, semicolon } = style(source);
  const importLine = esm
    ? `import { ${WRAPPER} } from ${quote}visual-uat${quote}${semicolon}`
    : `const { ${WRAPPER} } = require(${quote}visual-uat${quote})${semicolon}`;
  const lastImport = [...source.statements]
    .reverse()
    .find((statement) => (esm ? ts.isImportDeclaration(statement) : isRequireStatement(statement, source)));
  const eol = /\r?\n/.exec(text)?.[0] ?? '\n';
  const start = text.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK.length : 0;
  const insertions: Insertion[] = [
    lastImport ? { at: lastImport.getEnd(), text: `${eol}${importLine}` } : { at: start, text: `${importLine}${eol}` },
    { at: value.getStart(source), text: `${WRAPPER}(` },
    { at: value.getEnd(), text: `${optionsText(options, quote)})` },
  ];
  return { kind: 'edit', text: applyInsertions(text, insertions), insertions };
}

export function applyInsertions(text: string, insertions: Insertion[]): string {
  return [...insertions]
    .sort((a, b) => b.at - a.at)
    .reduce((result, { at, text: inserted }) => result.slice(0, at) + inserted + result.slice(at), text);
}

function withoutCarriageReturn(line: string): string {
  return line.replace(/\r$/, '');
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
  const oldLines = text.split('\n').map(withoutCarriageReturn);
  return [...byLine.entries()]
    .sort(([a], [b]) => a - b)
    .map(([line, edits]) => {
      const start = lineStarts[line];
      const changed = applyInsertions(
        oldLines[line],
        edits.map((edit) => ({ at: edit.at - start, text: edit.text })),
      );
      return [
        `@@ line ${line + 1}`,
        `- ${oldLines[line]}`,
        ...changed.split('\n').map((added) => `+ ${withoutCarriageReturn(added)}`),
      ].join('\n');
    })
    .join('\n');
}

/** One webServer entry as Playwright evaluated the config. */
export interface ConfigWebServer {
  /** Its command, where it is a string. */
  command: string | null;
  /** The current app's port, of its `url` or `port`, else null. */
  port: number | null;
  /** Its `cwd`, where it is a string. */
  cwd: string | null;
  /** Whether its `env` sets PORT. */
  envSetsPort: boolean;
}

export type ConfigWebServers =
  | { kind: 'none' }
  | { kind: 'one' | 'array'; servers: ConfigWebServer[] }
  | { kind: 'unclear'; reason: string };

function portOf(server: WebServer): number | null {
  if (server.url && !URL.canParse(server.url)) return null;
  return serverPort(server);
}

function webServerOf(server: WebServer): ConfigWebServer {
  return {
    command: typeof server.command === 'string' ? server.command : null,
    port: portOf(server),
    cwd: typeof server.cwd === 'string' ? server.cwd : null,
    envSetsPort: !!server.env && Object.hasOwn(server.env, ENV.port.name),
  };
}

/** Whether the file names a webServer anywhere (`webServer: …`, `config.webServer = …`), found in its syntax tree. */
function namesWebServer(fileName: string, text: string): boolean {
  const visit = (node: ts.Node): boolean =>
    ((ts.isPropertyAssignment(node) || ts.isPropertyAccessExpression(node)) &&
      ts.isIdentifier(node.name) &&
      node.name.text === 'webServer') ||
    !!ts.forEachChild(node, (child) => visit(child) || undefined);
  return visit(parsed(fileName, text));
}

/**
 * The config's webServer entries as Playwright evaluated it (see cli-settings probeConfig): a
 * server set in a branch, built by a function or with a template literal is seen as a run sees
 * it. A config Playwright could not load, or that names a webServer it did not set here, is unclear.
 */
export function configWebServers(fileName: string, text: string, probed: ProbedConfig | { failed: string }): ConfigWebServers {
  if ('failed' in probed) return { kind: 'unclear', reason: `Playwright could not load the config here: ${probed.failed}` };
  const { webServer } = probed;
  if (!webServer || (Array.isArray(webServer) && webServer.length === 0)) {
    if (namesWebServer(fileName, text))
      return {
        kind: 'unclear',
        reason:
          'Playwright loads it here without one, though the file sets webServer under a condition; run init where that condition holds',
      };
    return { kind: 'none' };
  }
  return Array.isArray(webServer)
    ? { kind: 'array', servers: webServer.map(webServerOf) }
    : { kind: 'one', servers: [webServerOf(webServer)] };
}
