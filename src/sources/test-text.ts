import crypto from 'node:crypto';
import type ts from 'typescript';
import { typescript } from '../util/typescript';
import { hasOrderedTests, testCall, type TestLocation } from './capture-scan';

/**
 * What of a spec file a test's base render depends on, as one digest (see baseline-store testSource).
 *
 * - Its tokens, not its bytes: a comment or a re-indent changes no test's behaviour, so it renders
 *   nothing again. Each token counts with its exact text (strings and template parts included) and
 *   with whether a line break precedes it, since a line break can end a statement.
 * - In a suite whose tests are isolated (fullyParallel: any test may run in any worker, in any
 *   order, so none may depend on another), the other tests of the file are left out: editing one
 *   test renders that test again, not its neighbours. The code around the tests (imports, helpers,
 *   hooks, describes, `test.use`) stays in every test's digest. A file whose tests run in order
 *   (`describe.serial`, `mode: 'serial'` or `mode: 'default'`), or a test whose call cannot be found
 *   at its location, keeps the whole file.
 */
export function specDigest(source: ts.SourceFile, test: TestLocation | null, isolated: boolean): string {
  const ts = typescript();
  const own = test && isolated && !hasOrderedTests(source) ? testCall(source, test) : null;
  const others = own ? otherTests(source, own) : new Set<ts.Node>();
  const hash = crypto.createHash('sha256');
  let previousEnd = 0;
  const visit = (node: ts.Node): void => {
    if (others.has(node)) return;
    const children = node.getChildren(source);
    if (children.length === 0 && node.kind !== ts.SyntaxKind.SyntaxList) {
      const start = node.getStart(source);
      const lineBreak = /[\n\r\u2028\u2029]/.test(source.text.slice(previousEnd, start));
      previousEnd = node.end;
      hash.update(`${node.kind}${lineBreak ? '\n' : ' '}${node.getText(source)}\u0000`);
      return;
    }
    for (const child of children) visit(child);
  };
  visit(source);
  return hash.digest('hex');
}

/** Playwright's names for a test declared with a modifier: `test.only(title, body)` and so on. */
const TEST_MODIFIERS = new Set(['only', 'skip', 'fixme', 'fail']);

/**
 * The statements that declare the file's other tests: calls on the same `test` as the test's own
 * call (bare or with a modifier) whose last argument is its body, a function. A hook, a describe
 * or `test.use` is no test and stays.
 */
function otherTests(source: ts.SourceFile, own: ts.CallExpression): Set<ts.Node> {
  const ts = typescript();
  const root = testRoot(own.expression);
  const found = new Set<ts.Node>();
  if (!root) return found;
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      node !== own &&
      testRoot(node.expression) === root &&
      isBody(node.arguments[node.arguments.length - 1])
    ) {
      // The whole statement goes, its semicolon too, so adding or removing a test leaves no trace.
      found.add(ts.isExpressionStatement(node.parent) ? node.parent : node);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `test` for `test(…)` and `test.only(…)`; null for anything else (`test.describe(…)`, `test.beforeEach(…)`). */
function testRoot(callee: ts.Expression): string | null {
  const ts = typescript();
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && TEST_MODIFIERS.has(callee.name.text))
    return callee.expression.text;
  return null;
}

function isBody(node: ts.Expression | undefined): boolean {
  const ts = typescript();
  return !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}
