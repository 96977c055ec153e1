/** What a changed line of the branch is about: the rule, element or variable it sits in (read by git/, used by explain/). */

/**
 * What a changed line of a style sheet is part of, as a CSS parser read the file on the line's side
 * of the change (`git/style-lines.ts`).
 */
export interface StyleTarget {
  kind: 'style';
  /**
   * The selectors of the rule it sits in, nesting resolved (`.nav a:hover`); none outside a rule (a variable, a mixin's body, a keyframe).
   */
  selectors: string[];
  /**
   * What it sets: its declaration's property; every property of its rule on a selector line; `*` for an `@include`, `@extend` or `@apply`.
   */
  properties: string[];
  /**
   * The variable (`--brand`, `$brand`, `@brand`) or mixin (`@mixin card`) it defines, if it is in one: what that styles is decided by its
   * uses.
   */
  defines: string | null;
  /**
   * For a line of a CSS-in-JS template's own rule (not one nested in it): the component the template is given to (`StyledDiv`), which names
   * the element that carries its generated classes.
   */
  component?: string;
}

/**
 * The element a changed line of a template or component is the tag, an attribute or the text of (`git/markup-lines.ts`,
 * `git/jsx-lines.ts`).
 */
export interface ElementTarget {
  kind: 'element';
  /**
   * The tag as written: an HTML element's in lower case; a component's (`Button`, `Nav.Item`) as it is, which names no element of the page.
   */
  tag: string;
  id: string | null;
  /** Its classes as written, each a whole token (`bg-[#1E1A2E]`); those an expression adds are not known. */
  classes: string[];
  /** Whether an expression may add classes (`class={…}`, `class:active`, `:class`, `className={cn(…)}`). */
  dynamicClasses: boolean;
  /** The local classes it names through a CSS Modules import (`className={styles.cardWrapper}` → `cardWrapper`), each surely its own. */
  moduleClasses?: string[];
  /** Its own text as written, expressions left out, spaces collapsed. */
  text: string;
  /** The HTML element it sits in within the same file, if any: on the page it is the element's parent. */
  parent: { tag: string; classes: string[]; dynamicClasses: boolean } | null;
}

/** One changed line of a file between base and the working tree. */
export interface ChangedLine {
  text: string;
  added: boolean;
  /** The rule or element it is part of, as a parser read the file; null: none (a blank line, a script, a file kind no parser reads). */
  target: StyleTarget | ElementTarget | null;
}

/** A declaration that uses a variable or a mixin (`color: var(--brand)`, `@include card`): where a change to the variable shows. */
export interface VariableUse {
  /** `--brand`, `$brand`, `@brand`, `@mixin card`. */
  name: string;
  /** The selectors of its rule, nesting resolved. */
  selectors: string[];
  /** The property it sets (`*` for a mixin's), or the variable it defines in turn (`--link: var(--brand)`). */
  property: string;
}

/**
 * What one commit (or the uncommitted working tree) changed in one file; with no lines, a style sheet
 * the branch did not change, read for its uses of a variable or mixin a changed line defines.
 */
export interface CodeChange {
  file: string;
  /** `<short sha> <subject>`; null for the working tree's uncommitted changes. */
  commit: string | null;
  lines: ChangedLine[];
  /** The file's declarations (both sides of the change) that use a variable or a mixin. */
  uses: VariableUse[];
  /** Why its lines were not all read by a parser, as words after its name (`does not parse (…)`); null: read whole. */
  unread: string | null;
  /** A CSS Module's classes, as its rules write them on either side: what the page's generated names are read back to. */
  classes?: string[];
  /** A component's HTML elements as its template writes them on either side: where an option changed in its script shows. */
  rendered?: Written[];
}

/** An element as a template writes it: its tag, id and classes. */
export type Written = Pick<ElementTarget, 'tag' | 'id' | 'classes'>;
