import type ts from 'typescript';
import { typescript } from '../util/typescript';
import type { ElementTarget } from './code-change';
import { expressionClasses, type WrittenClasses } from './class-expression';
import { parentOf } from './markup-lines';

type Opening = ts.JsxOpeningElement | ts.JsxSelfClosingElement;

/** A class attribute's tokens as written (a string, a template, a class helper's call); dynamic when an expression decides any. */
function classesOf(initializer: ts.JsxAttributeValue | undefined): WrittenClasses {
  const ts = typescript();
  if (!initializer) return { classes: [], dynamicClasses: false };
  if (ts.isStringLiteral(initializer)) return expressionClasses(initializer);
  return expressionClasses(ts.isJsxExpression(initializer) ? initializer.expression : undefined);
}

/** A CSS Module's import (`import styles from './card.module.css'`): what its classes are read through. */
const MODULE_IMPORT = /\.module\.(?:css|scss|sass|less|styl)$/;

/** The names a module's CSS Modules imports are bound to (`styles`, `s`). */
function moduleBindings(source: ts.SourceFile): Set<string> {
  const ts = typescript();
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!MODULE_IMPORT.test(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) names.add(clause.name.text);
    if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.add(clause.namedBindings.name.text);
  }
  return names;
}

/**
 * The local classes a class attribute names through a CSS Modules import whatever else decides it
 * (`styles.cardWrapper`, `styles['card-wrapper']`, `${styles.a} ${styles.b}`); a class picked by a
 * condition (`ok ? styles.a : styles.b`) is not one it surely has.
 */
function moduleClassesOf(initializer: ts.JsxAttributeValue | undefined, bindings: ReadonlySet<string>): string[] {
  const ts = typescript();
  const expression = initializer && ts.isJsxExpression(initializer) ? initializer.expression : undefined;
  const local = (node: ts.Expression): string[] => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && bindings.has(node.expression.text))
      return [node.name.text];
    if (
      ts.isElementAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      bindings.has(node.expression.text) &&
      ts.isStringLiteral(node.argumentExpression)
    )
      return [node.argumentExpression.text];
    return [];
  };
  if (!expression || bindings.size === 0) return [];
  if (ts.isTemplateExpression(expression)) return expression.templateSpans.flatMap((span) => local(span.expression));
  return local(expression);
}

function elementOf(opening: Opening, parent: ElementTarget | null, text: string, bindings: ReadonlySet<string>): ElementTarget {
  const ts = typescript();
  const tag = opening.tagName.getText();
  let classes: string[] = [];
  let moduleClasses: string[] = [];
  let dynamicClasses = false;
  let id: string | null = null;
  for (const attribute of opening.attributes.properties) {
    if (ts.isJsxSpreadAttribute(attribute)) {
      dynamicClasses = true;
      continue;
    }
    const name = attribute.name.getText();
    if (name === 'className' || name === 'class') {
      ({ classes, dynamicClasses } = classesOf(attribute.initializer));
      moduleClasses = moduleClassesOf(attribute.initializer, bindings);
    } else if (name === 'id' && attribute.initializer && ts.isStringLiteral(attribute.initializer)) id = attribute.initializer.text;
  }
  return {
    kind: 'element',
    tag,
    id,
    classes,
    dynamicClasses,
    ...(moduleClasses.length ? { moduleClasses } : {}),
    text,
    parent: parentOf(parent),
  };
}

/**
 * Reads a JSX or TSX module with TypeScript's parser: for each line of an element's opening tag,
 * its attributes or its own text (or an expression in it), that element.
 */
export function readJsx(text: string, file: string): Map<number, ElementTarget> {
  const ts = typescript();
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    /\.tsx$/i.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.JSX,
  );
  const targets = new Map<number, ElementTarget>();
  const bindings = moduleBindings(source);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const mark = (node: ts.Node, target: ElementTarget) => {
    for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++) targets.set(line, target);
  };
  const visit = (node: ts.Node, parent: ElementTarget | null) => {
    if (ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node)) {
      const opening = ts.isJsxElement(node) ? node.openingElement : node;
      const children = ts.isJsxElement(node) ? node.children : ts.factory.createNodeArray<ts.JsxChild>();
      const own = children
        .filter(ts.isJsxText)
        .map((child) => child.text.replace(/\s+/g, ' ').trim())
        .filter(Boolean)
        .join(' ');
      const target = elementOf(opening, parent, own, bindings);
      mark(opening, target);
      for (const child of children) {
        if (ts.isJsxText(child) && child.text.trim()) {
          // A text's own lines: not the line break and indent before it, nor the ones after it.
          const [first, last] = [
            child.pos + (child.text.length - child.text.trimStart().length),
            child.end - (child.text.length - child.text.trimEnd().length),
          ];
          for (let line = lineOf(first); line <= lineOf(last); line++) targets.set(line, target);
        } else if (ts.isJsxExpression(child)) mark(child, target);
      }
      for (const child of children) visit(child, target);
      return;
    }
    ts.forEachChild(node, (child) => visit(child, parent));
  };
  visit(source, null);
  return targets;
}
