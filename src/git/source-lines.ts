import type { ElementTarget, StyleTarget, VariableUse, Written } from './code-change';
import { readCssInJs } from './css-in-js-lines';
import { readJsx } from './jsx-lines';
import { readMarkup } from './markup-lines';
import { readStyles } from './style-lines';

/** What a source file's lines are part of, by line number (1-based), as its parser read it. */
export interface ReadSource {
  targets: Map<number, ElementTarget | StyleTarget>;
  uses: VariableUse[];
}

/** A CSS Module's file: its classes reach the page under generated names (explain/css-modules). */
export const MODULE_FILE = /\.module\.(css|scss|sass|less|pcss|styl)$/i;

export const isModuleFile = (file: string): boolean => MODULE_FILE.test(file);

/** The classes a read style sheet's rules write (`.label`, `.nav .item` → label, nav, item). */
export function classesWritten(read: ReadSource): string[] {
  const classes = new Set<string>();
  for (const target of read.targets.values())
    if (target.kind === 'style')
      for (const selector of target.selectors) for (const [, name] of selector.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) classes.add(name);
  return [...classes];
}

/** A component or template file: a changed option or prop in it shapes what its elements render. */
export const isComponentFile = (file: string): boolean => /\.(svelte|vue|astro|jsx|tsx)$/i.test(file);

/** The HTML elements the read sides of a template write (its components' tags aside), each once. */
export function elementsWritten(reads: readonly ReadSource[]): Written[] {
  const written = new Map<string, Written>();
  for (const target of reads.flatMap((read) => [...read.targets.values()]))
    if (target.kind === 'element' && /^[a-z]/.test(target.tag))
      written.set(`${target.tag}#${target.id}.${target.classes.join('.')}`, { tag: target.tag, id: target.id, classes: target.classes });
  return [...written.values()];
}

/** Why a style sheet's kind is not parsed (Sass's indented syntax, Stylus): a changed line in one proves nothing, and the words say so. */
export function unparsedKind(file: string): string | null {
  return /\.(sass|styl|stylus)$/i.test(file) ? 'is in an indented style syntax (Sass, Stylus) no parser here reads' : null;
}

/**
 * Reads a file's text with the parser its kind takes (style sheets, pages and templates, JSX, the
 * CSS-in-JS templates of scripts);
 * null for a kind none reads (data, content: their lines are matched by their text only).
 * Throws when the file does not parse.
 */
export function readSource(file: string, text: string): ReadSource | null {
  if (/\.(css|scss|pcss|postcss)$/i.test(file)) return readStyles(text, 'scss');
  if (/\.less$/i.test(file)) return readStyles(text, 'less');
  if (/\.(html?|svg)$/i.test(file)) return readMarkup(text, 'html');
  if (/\.(svelte|vue|astro)$/i.test(file)) return readMarkup(text, 'template');
  if (/\.(jsx|tsx|js|mjs|cjs)$/i.test(file)) {
    const styled = readCssInJs(text, file);
    return { targets: new Map<number, ElementTarget | StyleTarget>([...readJsx(text, file), ...styled.targets]), uses: styled.uses };
  }
  if (/\.(ts|mts|cts)$/i.test(file)) return readCssInJs(text, file);
  return null;
}
