import type ts from 'typescript';
import { typescript } from '../util/typescript';
import type { ImportBinding, ParsedModule, SourceGraph } from './source-graph';

/**
 * Which tests can capture a checkpoint, read from the test files before the baseline pass: the
 * pass only needs those, and a suite is mostly functional tests. It reads syntax trees and follows
 * imports as TypeScript resolves them (see source-graph.ts), and errs towards running a test: a
 * test is left out only when nothing it could reach can capture. The run checks the prediction
 * afterwards (see top-up.ts), so a miss costs time, never a comparison.
 *
 * - a file whose imports never lead to a capture: none of its tests can capture;
 * - a file whose captures appear only inside test calls: the tests whose own call has one;
 * - a file that captures anywhere else (a hook, a helper, a fixture, an import it cannot follow),
 *   or whose tests run in serial or ordered mode (a test may need the ones before it): all of its tests.
 */

/** Names that capture wherever they appear: the fixtures, the seed-style helper, `toHaveScreenshot`, oxtest. */
const CAPTURE_WORDS = new Set(['screenshotCheckpoint', 'takeCheckpoint', 'toHaveScreenshot', 'oxtest', 'defineOxTests']);

export interface TestLocation {
  file: string;
  line: number;
  column: number;
}

/**
 * How a test can capture a checkpoint: `direct`, its own call mentions a capture; `indirect`,
 * something else it may run does (a hook, a helper, an imported module), or its source could not
 * be read; `none`, nothing it can reach does.
 */
export type CaptureReach = 'direct' | 'indirect' | 'none';

/** What of a module can capture: the local names bound to a capture, and whether the module does anyway. */
interface Captures {
  names: Set<string>;
  /** An import whose bindings cannot be followed (a side effect, require, a dynamic import) leads to a capture. */
  whole: boolean;
}

export class CaptureScan {
  private readonly memo = new Map<string, boolean>();

  constructor(private readonly graph: SourceGraph) {}

  /**
   * Whether anything a module runs or exports can capture. On an import cycle, a module still
   * being read counts as capturing: a guess there may only run more tests.
   */
  moduleCaptures(file: string): boolean {
    const known = this.memo.get(file);
    if (known !== undefined) return known;
    this.memo.set(file, true);
    const parsed = this.graph.module(file);
    const captures = parsed ? this.capturesOf(parsed) : null;
    const result = !parsed || captures!.whole || mentions(parsed.source, captures!.names).length > 0;
    this.memo.set(file, result);
    return result;
  }

  /** For each test of one file (by location): how it can capture a checkpoint. */
  testsOf(file: string, tests: readonly TestLocation[]): CaptureReach[] {
    const all = (reach: CaptureReach) => tests.map(() => reach);
    const parsed = this.graph.module(file);
    if (!parsed) return all('indirect');
    const captures = this.capturesOf(parsed);
    const references = mentions(parsed.source, captures.names);
    if (!captures.whole && references.length === 0) return all('none');
    // A test of a serial or ordered group may need the ones before it: the whole file runs.
    if (hasOrderedTests(parsed.source)) return all('indirect');
    const calls = tests.map((test) => testCall(parsed.source, test));
    if (calls.some((call) => call === null)) return all('indirect');
    const inside = (position: number, call: ts.CallExpression) => position >= call.getStart() && position < call.end;
    const elsewhere = captures.whole || references.some((position) => !calls.some((call) => inside(position, call!)));
    return calls.map((call) => (references.some((position) => inside(position, call!)) ? 'direct' : elsewhere ? 'indirect' : 'none'));
  }

  private capturesOf(parsed: ParsedModule): Captures {
    const names = new Set(CAPTURE_WORDS);
    let whole = false;
    for (const binding of parsed.imports) {
      if (!this.bindingCaptures(binding)) continue;
      if (binding.local) names.add(binding.local);
      else whole = true;
    }
    return { names, whole };
  }

  private bindingCaptures({ imported, resolved }: ImportBinding): boolean {
    switch (resolved.kind) {
      case 'visual-uat':
        // The seed-style helper's module captures whatever is taken from it; the main entry through
        // its capture functions (or a namespace): its `test` alone captures nothing, its `expect`
        // through a `toHaveScreenshot` call, which counts where it is made.
        return resolved.subpath === '/playwright' || (resolved.subpath === '' && (imported === '*' || CAPTURE_WORDS.has(imported ?? '')));
      case 'file':
        return this.moduleCaptures(resolved.file);
      case 'package':
        return resolved.usesVisualUat;
      case 'builtin':
        return false;
      case 'unknown':
        return true;
    }
  }
}

/** Positions of the identifiers that name a capture, outside import declarations. */
function mentions(source: ts.SourceFile, names: ReadonlySet<string>): number[] {
  const ts = typescript();
  const found: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) return;
    if (ts.isIdentifier(node) && names.has(node.text)) found.push(node.getStart(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The describe modes in which a file's tests run in order in one worker, each after the ones before it. */
const ORDERED_MODES = new Set(['serial', 'default']);

/**
 * `test.describe.serial(…)`, or `test.describe.configure({ mode: 'serial' })` or `mode: 'default'`
 * (Playwright's way to run a describe in order inside a fullyParallel project) anywhere in the file.
 */
export function hasOrderedTests(source: ts.SourceFile): boolean {
  const ts = typescript();
  let ordered = false;
  const visit = (node: ts.Node): void => {
    if (ordered) return;
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'serial') ordered = true;
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText(source) === 'mode' &&
      ts.isStringLiteralLike(node.initializer) &&
      ORDERED_MODES.has(node.initializer.text)
    )
      ordered = true;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ordered;
}

/** The test call Playwright located at a line and column (its callee starts there, or `test.only`'s member does). */
export function testCall(source: ts.SourceFile, location: TestLocation): ts.CallExpression | null {
  const ts = typescript();
  let offset: number;
  try {
    offset = source.getPositionOfLineAndCharacter(location.line - 1, location.column - 1);
  } catch {
    return null;
  }
  let best: ts.CallExpression | null = null;
  const visit = (node: ts.Node): void => {
    if (offset < node.getStart(source) || offset >= node.end) return;
    if (ts.isCallExpression(node) && offset <= node.expression.end) best = node;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return best;
}
