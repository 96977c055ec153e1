import type ts from 'typescript';
import { typescript } from '../util/typescript';

/** A class attribute as written: the tokens every render has, and whether an expression may add more. */
export interface WrittenClasses {
  classes: string[];
  dynamicClasses: boolean;
}

const tokens = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The classes an expression always gives: a string's; a template's text before its first `${`; the
 * string arguments of a class helper's call (`cn('fixed px-6', open && 'shadow')`, clsx, twMerge),
 * not those a condition guards. Dynamic unless it is one string.
 */
export function expressionClasses(expression: ts.Expression | undefined): WrittenClasses {
  const ts = typescript();
  if (!expression) return { classes: [], dynamicClasses: true };
  if (ts.isParenthesizedExpression(expression)) return expressionClasses(expression.expression);
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
    return { classes: tokens(expression.text), dynamicClasses: false };
  // `${a} b`: only the words the template closes before its first expression are whole.
  if (ts.isTemplateExpression(expression)) return { classes: tokens(expression.head.text.replace(/\S+$/, '')), dynamicClasses: true };
  if (ts.isCallExpression(expression))
    return {
      classes: expression.arguments.flatMap((argument) =>
        ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument) ? tokens(argument.text) : [],
      ),
      dynamicClasses: true,
    };
  return { classes: [], dynamicClasses: true };
}

/** The classes a template's `class={…}` expression (Svelte, Astro) always gives, read as TypeScript. */
export function templateExpressionClasses(source: string): WrittenClasses {
  const ts = typescript();
  const file = ts.createSourceFile('class.ts', `(${source})`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const statement = file.statements[0];
  return expressionClasses(statement && ts.isExpressionStatement(statement) ? statement.expression : undefined);
}
