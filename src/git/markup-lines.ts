import type { ElementTarget, StyleTarget, VariableUse } from './code-change';
import { lazy } from '../util/lazy';
import { templateExpressionClasses } from './class-expression';
import { readStyles, type StyleSyntax } from './style-lines';

/** Loaded when a diff first has a page or template: a run whose diffs have none does not load it. */
const htmlparser2 = lazy(() => require('htmlparser2') as typeof import('htmlparser2'));

/** Templates whose `{…}` are expressions (Svelte, Astro; Vue's `{{…}}`), not text. */
export type MarkupKind = 'html' | 'template';

/**
 * What a template's lines are part of, by line number (1-based), and the declarations of its `<style>` blocks that use a variable or mixin.
 */
export interface ReadMarkup {
  targets: Map<number, ElementTarget | StyleTarget>;
  uses: VariableUse[];
}

/** What stands for an expression's inside once masked: it keeps every offset and line of the file. */
const MASK = '\u2026';
const EXPRESSION = /\{[^{}]*\}/g;

/**
 * A template with the inside of each `{…}` outside `<script>` and `<style>` masked: an arrow
 * function's `>` in `on:click={() => …}` would end the tag for an HTML parser.
 */
function masked(text: string): string {
  const raw = /<(script|style)\b[\s\S]*?<\/\1\s*>/gi;
  const blocks = [...text.matchAll(raw)].map((match) => [match.index, match.index + match[0].length]);
  const out = text.split('');
  let depth = 0;
  let block = 0;
  for (let i = 0; i < text.length; i++) {
    while (block < blocks.length && i >= blocks[block][1]) block++;
    if (block < blocks.length && i >= blocks[block][0]) continue;
    if (text[i] === '{') depth++;
    else if (text[i] === '}') depth = Math.max(0, depth - 1);
    else if (depth > 0 && text[i] !== '\n') out[i] = MASK;
  }
  return out.join('');
}

/** The element a template's element sits in, as its parent on the page: only an HTML element is one (a component renders what it likes). */
export function parentOf(parent: ElementTarget | null): ElementTarget['parent'] {
  return parent && /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(parent.tag)
    ? { tag: parent.tag, classes: parent.classes, dynamicClasses: parent.dynamicClasses }
    : null;
}
const words = (value: string) => value.replace(EXPRESSION, ' ').split(/\s+/).filter(Boolean);

/** The inside of a tag's `class={…}` (`cn('fixed px-6', open && 'shadow')`), braces balanced; null: none. */
function classExpression(tag: string): string | null {
  const start = tag.match(/\sclass(?:Name)?=\{/);
  if (!start) return null;
  let depth = 0;
  for (let i = start.index! + start[0].length - 1; i < tag.length; i++) {
    if (tag[i] === '{') depth++;
    else if (tag[i] === '}' && --depth === 0) return tag.slice(start.index! + start[0].length, i);
  }
  return null;
}

/**
 * An attribute written bare whose name is no HTML attribute's nor a Vue directive's (`mat-button`, `matInput`, `cdkDrag`; not `v-else`):
 * an Angular attribute directive, which gives its element classes at run time (`mat-button-base`) that no line writes.
 */
const isAttributeDirective = (name: string) => !/^(data|aria|v)-/.test(name) && /[a-z](-[a-z]|[A-Z])/.test(name);

/**
 * The element an opening tag writes; in a template a capitalised tag is a component, in a page every tag is HTML's. `written`: the tag as
 * the file has it, its expressions unmasked.
 */
function elementOf(
  tag: string,
  attributes: Record<string, string>,
  parent: ElementTarget | null,
  kind: MarkupKind,
  written: string,
): ElementTarget {
  const classValue = attributes.class ?? attributes.className ?? '';
  const expression = kind === 'template' ? classExpression(written) : null;
  const dynamicClasses =
    classValue.includes('{') ||
    Object.keys(attributes).some(
      (name) =>
        /^(class:|:class$|v-bind:class$|\[class|\[ngClass)/.test(name) ||
        (name === 'class' && classValue.includes('{')) ||
        (attributes[name] === '' && isAttributeDirective(name)),
    );
  const id = attributes.id && !attributes.id.includes('{') ? attributes.id : null;
  return {
    kind: 'element',
    tag: kind === 'html' ? tag.toLowerCase() : tag,
    id,
    classes: expression === null ? words(classValue) : templateExpressionClasses(expression).classes,
    dynamicClasses,
    text: '',
    parent: parentOf(parent),
  };
}

/**
 * Reads a template or page with an HTML parser (htmlparser2): for each line, the element whose tag,
 * attributes or own text it holds; the lines of a `<style>` block are read as a style sheet.
 */
export function readMarkup(text: string, kind: MarkupKind): ReadMarkup {
  const source = kind === 'template' ? masked(text) : text;
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  const lineAt = (offset: number) => {
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const targets = new Map<number, ElementTarget | StyleTarget>();
  const uses: VariableUse[] = [];
  const open: { tag: string; target: ElementTarget; styleSyntax: StyleSyntax | null; bodyStart: number }[] = [];
  const parser = new (htmlparser2().Parser)(
    {
      onopentag(tag, attributes) {
        const parent = open.length ? open[open.length - 1].target : null;
        const target = elementOf(tag, attributes, parent, kind, text.slice(parser.startIndex, parser.endIndex + 1));
        for (let line = lineAt(parser.startIndex); line <= lineAt(parser.endIndex); line++) targets.set(line, target);
        const lang = (attributes.lang ?? '').toLowerCase();
        const styleSyntax = tag.toLowerCase() === 'style' ? (lang === 'less' ? 'less' : 'scss') : null;
        open.push({ tag, target, styleSyntax, bodyStart: parser.endIndex + 1 });
      },
      ontext(data) {
        const top = open[open.length - 1];
        if (!top || ['script', 'style'].includes(top.tag.toLowerCase())) return;
        const own = (kind === 'template' ? data.replace(EXPRESSION, ' ') : data).replace(/\s+/g, ' ').trim();
        if (own) top.target.text = `${top.target.text} ${own}`.trim();
        let offset = parser.startIndex;
        for (const piece of data.split('\n')) {
          // A line of a Svelte block (`{#if …}`, `{/each}`) is no element's text: it decides which are there.
          const block = /^\s*\{[#:/@]/.test(text.slice(offset, offset + piece.length));
          if (piece.trim() && !block) targets.set(lineAt(offset), top.target);
          offset += piece.length + 1;
        }
      },
      onclosetag() {
        const closed = open.pop();
        if (!closed?.styleSyntax) return;
        const body = text.slice(closed.bodyStart, parser.startIndex);
        const read = readStyles(body, closed.styleSyntax);
        const offset = lineAt(closed.bodyStart) - 1;
        for (const [line, target] of read.targets) targets.set(line + offset, target);
        uses.push(...read.uses);
      },
    },
    { lowerCaseTags: false, lowerCaseAttributeNames: false, recognizeSelfClosing: true, decodeEntities: true },
  );
  parser.write(source);
  parser.end();
  return { targets, uses };
}
