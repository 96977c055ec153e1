import ts from 'typescript';
import type { StyleTarget, VariableUse } from './code-change';
import { readStyles } from './style-lines';

/**
 * The class a CSS-in-JS rule's selector gets here for the element its component renders: the page
 * carries a generated one instead (styled-components' `sc-…`, emotion's `css-…`), whose name the
 * source cannot give. explain/ reads it back as "a class a CSS-in-JS library generated".
 */
export const CSS_IN_JS_CLASS = 'css-in-js';

/** Tags whose templates style nothing by a selector, or nothing at all. */
const GLOBAL_TAGS = new Set(['createGlobalStyle', 'injectGlobal']);

/**
 * The selector a tagged template's rules apply to: `styled.article` → `article.css-in-js`,
 * `styled(Link)` → `.css-in-js`, `css` → `.css-in-js`; `''` for a global style sheet
 * (`createGlobalStyle`), whose selectors are its own; null for any other tag (`keyframes`, `html`).
 */
function selectorOf(tag: ts.Expression): string | null {
  if (ts.isIdentifier(tag)) {
    if (GLOBAL_TAGS.has(tag.text)) return '';
    return tag.text === 'css' ? `.${CSS_IN_JS_CLASS}` : null;
  }
  // `styled.div.attrs(…)`, `styled(Button).withConfig(…)`: the component the call configures.
  if (
    ts.isCallExpression(tag) &&
    ts.isPropertyAccessExpression(tag.expression) &&
    ['attrs', 'withConfig'].includes(tag.expression.name.text)
  )
    return selectorOf(tag.expression.expression);
  if (ts.isPropertyAccessExpression(tag) && ts.isIdentifier(tag.expression) && tag.expression.text === 'styled')
    return `${tag.name.text}.${CSS_IN_JS_CLASS}`;
  if (ts.isCallExpression(tag) && ts.isIdentifier(tag.expression) && tag.expression.text === 'styled') {
    const [target] = tag.arguments;
    return target && ts.isStringLiteral(target) ? `${target.text}.${CSS_IN_JS_CLASS}` : `.${CSS_IN_JS_CLASS}`;
  }
  return null;
}

/** The name a tagged template is given (`const StyledDiv = styled.div\`…\``): the component as its source names it; null when unnamed. */
function componentName(node: ts.TaggedTemplateExpression): string | null {
  const parent = node.parent;
  return ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name.text : null;
}

/** Whether a template's rule is its own element's (`div.css-in-js`, `div.css-in-js:hover`), not one nested in it (`.inner-nav`). */
const ownRule = (target: StyleTarget, selector: string) =>
  target.selectors.length > 0 &&
  target.selectors.every((rule) => rule === selector || (rule.startsWith(selector) && rule[selector.length] === ':'));

/** A template's CSS as written, each `${…}` a comment of as many lines, so every line keeps its number. */
function cssOf(template: ts.TemplateLiteral, source: ts.SourceFile): string {
  const start = template.getStart(source) + 1;
  let css = source.text.slice(start, template.getEnd() - 1);
  const spans = ts.isTemplateExpression(template) ? template.templateSpans : [];
  // From the last, so the earlier offsets hold: `${` before the expression to the `}` that opens the next literal.
  for (const span of [...spans].reverse()) {
    const [from, to] = [span.expression.getFullStart() - 2 - start, span.literal.getStart(source) + 1 - start];
    const blank = css.slice(from, to).replace(/[^\n]/g, ' ');
    css = `${css.slice(0, from)}/*${blank.slice(2, -2)}*/${css.slice(to)}`;
  }
  return css;
}

/**
 * Reads the CSS-in-JS templates of a script (styled-components', emotion's `styled.x` / `styled(x)` /
 * `css` / `createGlobalStyle` tagged templates) with the same CSS parser as a style sheet: for each
 * line in one, the rule it is part of and what it sets; and the declarations that use a variable.
 * A template that does not parse as CSS is left unread.
 */
export function readCssInJs(text: string, file: string): { targets: Map<number, StyleTarget>; uses: VariableUse[] } {
  const targets = new Map<number, StyleTarget>();
  const uses: VariableUse[] = [];
  if (!/`/.test(text)) return { targets, uses };
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    /\.tsx$/i.test(file) ? ts.ScriptKind.TSX : /\.ts$/i.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JSX,
  );
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node)) {
      const selector = selectorOf(node.tag);
      if (selector !== null) {
        const firstLine = source.getLineAndCharacterOfPosition(node.template.getStart(source)).line;
        const css = cssOf(node.template, source);
        try {
          // The rule opens on the template's first line, so each line of the template keeps its number (plus the first line's).
          const read = readStyles(selector ? `${selector}{${css}\n}` : css, 'scss');
          const component = selector ? componentName(node) : null;
          for (const [line, target] of read.targets)
            targets.set(line + firstLine, component && ownRule(target, selector!) ? { ...target, component } : target);
          uses.push(...read.uses);
        } catch {
          // Not CSS once its expressions are left out (a whole declaration built by a function): its lines prove nothing.
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { targets, uses };
}
