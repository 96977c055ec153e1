import type { ElementTarget, StyleTarget, VariableUse } from '../types';
import { readCssInJs } from './css-in-js-lines';
import { readJsx } from './jsx-lines';
import { readMarkup } from './markup-lines';
import { readStyles } from './style-lines';

/** What a source file's lines are part of, by line number (1-based), as its parser read it. */
export interface ReadSource {
  targets: Map<number, ElementTarget | StyleTarget>;
  uses: VariableUse[];
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
  if (/\.html?$/i.test(file)) return readMarkup(text, 'html');
  if (/\.(svelte|vue|astro)$/i.test(file)) return readMarkup(text, 'template');
  if (/\.(jsx|tsx|js|mjs|cjs)$/i.test(file)) {
    const styled = readCssInJs(text, file);
    return { targets: new Map<number, ElementTarget | StyleTarget>([...readJsx(text, file), ...styled.targets]), uses: styled.uses };
  }
  if (/\.(ts|mts|cts)$/i.test(file)) return readCssInJs(text, file);
  return null;
}
