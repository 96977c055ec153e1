import type { AtRule, ChildNode, Container, Declaration, Node, Root, Rule } from 'postcss';
import type { StyleTarget, VariableUse } from './code-change';
import { lazy } from '../util/lazy';
import { appliedProperties } from './utility-classes';

/** The parsers, loaded when a diff first has a style sheet: a run whose diffs have none loads none. */
const postcss = lazy(() => require('postcss') as typeof import('postcss'));
const less = lazy(() => require('postcss-less') as typeof import('postcss-less'));
const scss = lazy(() => require('postcss-scss') as typeof import('postcss-scss'));

/** The parser a style sheet is read with: SCSS's also reads plain CSS and PostCSS nesting. */
export type StyleSyntax = 'scss' | 'less';

/** What a style sheet's lines are part of, by line number (1-based), and its declarations that use a variable or mixin. */
export interface ReadStyles {
  targets: Map<number, StyleTarget>;
  uses: VariableUse[];
}

/** At-rules whose rules style elements under a condition: a change to their line changes every rule inside. */
const CONDITIONS = new Set(['media', 'supports', 'container', 'layer', 'scope', 'document']);
/** At-rules whose body styles no element by a selector. */
const NO_ELEMENT = new Set([
  'keyframes',
  '-webkit-keyframes',
  'font-face',
  'page',
  'property',
  'counter-style',
  'font-feature-values',
  'function',
]);
/** At-rules that set whatever another place says: the rule they sit in may change in any property. */
const ANY = new Set(['include', 'extend', 'apply']);

const isVariable = (name: string) => name.startsWith('--') || name.startsWith('$');

/** `card($pad)`, `theme.card` → `@mixin card`. */
const mixinName = (params: string) => `@mixin ${(params.match(/^[\w.-]+/)?.[0] ?? params).split('.').pop()}`;

function parse(text: string, syntax: StyleSyntax): Root {
  return syntax === 'less' ? (less().parse(text) as Root) : scss().parse(text);
}

/** Where a node sits: the rule whose selectors it takes (nesting resolved), and the mixin whose body it is in. */
interface Place {
  selectors: string[];
  mixin: string | null;
}

/**
 * The selectors a rule applies to, nesting resolved as Sass, Less and CSS nesting do: `&` stands for
 * each selector of the rule around it, a selector without `&` is a descendant of it; at-rules in
 * between (`@media`, `@include … { }`) keep the rule around them, `@at-root` starts anew.
 */
function resolvedSelectors(rule: Rule, memo: Map<Rule, string[]>): string[] {
  const known = memo.get(rule);
  if (known) return known;
  let outer: Rule | null = null;
  for (let parent = rule.parent; parent && parent.type !== 'root'; parent = parent.parent) {
    if (parent.type === 'rule') {
      outer = parent as Rule;
      break;
    }
    if (parent.type === 'atrule' && (parent as AtRule).name === 'at-root') break;
  }
  const own = rule.selectors.map((selector) => selector.trim());
  const selectors = outer
    ? resolvedSelectors(outer, memo).flatMap((around) =>
        own.map((selector) => (selector.includes('&') ? selector.replaceAll('&', around) : `${around} ${selector}`)),
      )
    : own.map((selector) => selector.replaceAll('&', '').trim());
  memo.set(rule, selectors);
  return selectors;
}

function placeOf(node: Node, memo: Map<Rule, string[]>): Place {
  let mixin: string | null = null;
  let rule: Rule | null = null;
  // Sass's `@at-root .page & { … }` is a rule of its own, its selector in the at-rule's params.
  let atRoot: string[] | null = null;
  for (let parent = node.parent; parent && parent.type !== 'root'; parent = parent.parent) {
    if (parent.type === 'atrule') {
      const { name, params } = parent as AtRule;
      if (NO_ELEMENT.has(name)) return { selectors: [], mixin };
      if (name === 'mixin') mixin ??= mixinName(params);
      if (name === 'at-root' && params.trim() && !rule && !atRoot) atRoot = postcss().list.comma(params);
    } else if (parent.type === 'rule') rule ??= parent as Rule;
  }
  const around = rule ? resolvedSelectors(rule, memo) : [];
  if (!atRoot) return { selectors: around, mixin };
  const own = atRoot;
  return { selectors: around.length ? around.flatMap((outer) => own.map((selector) => selector.replaceAll('&', outer))) : own, mixin };
}

/** The line numbers a node's own header takes: a rule's selector or an at-rule's name and params, up to its `{`. */
function headerLines(node: Rule | AtRule): number[] {
  const start = node.source?.start?.line;
  if (start === undefined) return [];
  const written =
    node.type === 'rule'
      ? ((node.raws.selector as { raw?: string } | undefined)?.raw ?? node.selector)
      : `@${node.name}${node.raws.afterName ?? ''}${node.params}`;
  const span = `${written}${node.raws.between ?? ''}`.split('\n').length;
  return Array.from({ length: span }, (_, i) => start + i);
}

function lines(node: Node): number[] {
  const [start, end] = [node.source?.start?.line, node.source?.end?.line];
  if (start === undefined) return [];
  return Array.from({ length: (end ?? start) - start + 1 }, (_, i) => start + i);
}

/** What an `@include`, `@extend` or `@apply` sets: anything (`*`), or, for an `@apply` of utilities, theirs (`@apply mx-auto` a margin). */
const setBy = (rule: AtRule) =>
  (rule.name === 'apply' &&
    appliedProperties(
      rule.params
        .replace(/!important/g, '')
        .trim()
        .split(/\s+/),
    )) || ['*'];

/** Every property set inside a container, variables left out. */
function propertiesIn(container: Container): string[] {
  const properties = new Set<string>();
  container.walkDecls((decl) => {
    if (!isVariable(decl.prop)) properties.add(decl.prop);
  });
  container.walkAtRules((rule) => {
    if (ANY.has(rule.name)) for (const property of setBy(rule)) properties.add(property);
  });
  return [...properties];
}

function selectorsIn(container: Container, around: string[], memo: Map<Rule, string[]>): string[] {
  // Its own selectors when it styles by itself (a declaration, an `@apply`), not only through the rules inside it.
  const selectors = new Set<string>(
    container.nodes?.some((node) => node.type === 'decl' || (node.type === 'atrule' && !(node as AtRule).nodes)) ? around : [],
  );
  container.walkRules((rule) => {
    for (const selector of resolvedSelectors(rule, memo)) selectors.add(selector);
  });
  return [...selectors];
}

/** The variables a value reads: `var(--brand)`, `$brand`, and in Less `@brand`. */
function variablesRead(value: string, syntax: StyleSyntax): string[] {
  const names = [...value.matchAll(/var\(\s*(--[\w-]+)/g), ...value.matchAll(/(\$[\w-]+)/g)].map((match) => match[1]);
  if (syntax === 'less') names.push(...[...value.matchAll(/(@[\w-]+)/g)].map((match) => match[1]));
  return [...new Set(names)];
}

/**
 * Reads a style sheet with a CSS parser (postcss with its SCSS or Less syntax): for each line, the
 * rule it is part of with its selectors resolved through nesting, and what it sets or defines; and
 * each declaration that uses a variable or a mixin. Throws the parser's error when it does not parse.
 */
export function readStyles(text: string, syntax: StyleSyntax): ReadStyles {
  const root = parse(text, syntax);
  const memo = new Map<Rule, string[]>();
  const targets = new Map<number, StyleTarget>();
  const uses: VariableUse[] = [];
  const mark = (at: number[], target: StyleTarget) => at.forEach((line) => targets.set(line, target));
  // A line may hold several declarations (`header { background: #111; color: #fff; }`): the line sets each of them.
  const declaredOn = new Map<number, Node['parent']>();
  const markDeclaration = (at: number[], target: StyleTarget, parent: Node['parent']) =>
    at.forEach((line) => {
      const before = targets.get(line);
      const sibling = declaredOn.get(line) === parent && before?.kind === 'style';
      declaredOn.set(line, parent);
      targets.set(
        line,
        sibling
          ? { ...target, properties: [...new Set([...before.properties, ...target.properties])], defines: before.defines ?? target.defines }
          : target,
      );
    });
  // Parents before their children: a declaration's lines overwrite those of the block it sits in.
  root.walk((node: ChildNode) => {
    const place = placeOf(node, memo);
    if (node.type === 'decl') {
      const decl = node as Declaration;
      const variable = isVariable(decl.prop);
      // Less's `&:extend(.x);` reads as a declaration: it takes whatever `.x` sets.
      const properties = variable ? [] : decl.prop.startsWith('&') ? ['*'] : [decl.prop];
      markDeclaration(
        lines(decl),
        { kind: 'style', selectors: place.selectors, properties, defines: variable ? decl.prop : place.mixin },
        decl.parent,
      );
      for (const name of variablesRead(decl.value, syntax)) uses.push({ name, selectors: place.selectors, property: decl.prop });
    } else if (node.type === 'rule') {
      const rule = node as Rule;
      const selectors = NO_ELEMENT.has((rule.parent as AtRule | undefined)?.name ?? '')
        ? []
        : selectorsIn(rule, resolvedSelectors(rule, memo), memo);
      mark(headerLines(rule), { kind: 'style', selectors, properties: propertiesIn(rule), defines: place.mixin });
    } else if (node.type === 'atrule') {
      const rule = node as AtRule & { variable?: boolean; mixin?: boolean; value?: string };
      if (rule.variable) {
        // Less: `@brand: #123;`
        mark(lines(rule), { kind: 'style', selectors: place.selectors, properties: [], defines: `@${rule.name}` });
        for (const name of variablesRead(rule.value ?? '', syntax))
          uses.push({ name, selectors: place.selectors, property: `@${rule.name}` });
      } else if (ANY.has(rule.name) || rule.mixin) {
        mark(rule.nodes ? headerLines(rule) : lines(rule), {
          kind: 'style',
          selectors: place.selectors,
          properties: setBy(rule),
          defines: place.mixin,
        });
        if (rule.name === 'include') uses.push({ name: mixinName(rule.params), selectors: place.selectors, property: '*' });
        for (const name of variablesRead(rule.params, syntax)) uses.push({ name, selectors: place.selectors, property: '*' });
      } else if (rule.name === 'mixin' && rule.nodes) {
        mark(headerLines(rule), { kind: 'style', selectors: [], properties: propertiesIn(rule), defines: mixinName(rule.params) });
      } else if (CONDITIONS.has(rule.name) && rule.nodes) {
        mark(headerLines(rule), {
          kind: 'style',
          selectors: selectorsIn(rule, place.selectors, memo),
          properties: propertiesIn(rule),
          defines: place.mixin,
        });
      }
    }
  });
  return { targets, uses };
}
