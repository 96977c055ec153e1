import { describe, expect, it } from 'vitest';
import { parseDiff } from '../../../src/git/diff';
import { readSource } from '../../../src/git/source-lines';

/** What each line of a source file is part of, as its parser reads it. */
const targetAt = (file: string, text: string, line: number) => readSource(file, text)?.targets.get(line) ?? null;

describe('style sheets', () => {
  it('resolves nesting through @include, @media, &-suffixes and @at-root, and says what each line sets', () => {
    const scss = [
      '.card {',
      '  @include shadow(2);',
      '  @media (min-width: 600px) {',
      '    padding: 24px;',
      '  }',
      '  &__title { font-size: 20px; }',
      '  @at-root .page & { margin: 0; }',
      '}',
    ].join('\n');
    expect(targetAt('a.scss', scss, 2)).toEqual({ kind: 'style', selectors: ['.card'], properties: ['*'], defines: null });
    expect(targetAt('a.scss', scss, 3)).toEqual({ kind: 'style', selectors: ['.card'], properties: ['padding'], defines: null });
    expect(targetAt('a.scss', scss, 4)).toEqual({ kind: 'style', selectors: ['.card'], properties: ['padding'], defines: null });
    expect(targetAt('a.scss', scss, 6)).toEqual({ kind: 'style', selectors: ['.card__title'], properties: ['font-size'], defines: null });
    expect(targetAt('a.scss', scss, 7)).toEqual({ kind: 'style', selectors: ['.page .card'], properties: ['margin'], defines: null });
    expect(targetAt('a.scss', scss, 8)).toBeNull();
  });

  it("reads a mixin's body and its uses, Less variables, and a keyframe as styling no element", () => {
    const scss = [
      '@mixin pill($pad) {',
      '  border-radius: 999px;',
      '}',
      '.tag { @include pill(4px); }',
      '@keyframes spin { to { transform: rotate(1turn); } }',
    ].join('\n');
    expect(targetAt('a.scss', scss, 2)).toEqual({ kind: 'style', selectors: [], properties: ['border-radius'], defines: '@mixin pill' });
    expect(readSource('a.scss', scss)?.uses).toEqual([{ name: '@mixin pill', selectors: ['.tag'], property: '*' }]);
    expect(targetAt('a.scss', scss, 5)).toEqual({ kind: 'style', selectors: [], properties: ['transform'], defines: null });
    const lessText = ['@brand: #e4572e;', '.btn {', '  color: @brand;', '}'].join('\n');
    expect(targetAt('a.less', lessText, 1)).toEqual({ kind: 'style', selectors: [], properties: [], defines: '@brand' });
    expect(readSource('a.less', lessText)?.uses).toEqual([{ name: '@brand', selectors: ['.btn'], property: 'color' }]);
    // Tailwind's @apply inside a layer: the rule's line and the @apply's both style `.btn`, in what its utilities set; with a class
    // that is no utility (a component class of the project's own), in anything.
    const tailwind = [
      '@layer components {',
      '  .btn {',
      '    @apply px-4 py-2 lg:mx-auto;',
      '  }',
      '  .cta { @apply btn shadow-md; }',
      '}',
    ];
    const at = (line: number) => targetAt('a.css', tailwind.join('\n'), line);
    expect(at(2)).toEqual({ kind: 'style', selectors: ['.btn'], properties: ['padding', 'margin'], defines: null });
    expect(at(3)).toEqual({ kind: 'style', selectors: ['.btn'], properties: ['padding', 'margin'], defines: null });
    expect(at(5)).toEqual({ kind: 'style', selectors: ['.cta'], properties: ['*'], defines: null });
  });

  it('says a line with several declarations sets each of them, not only its last', () => {
    const css = ['header { position: sticky; background-color: #0b6e4f; color: #fff; }', '.nav { --gap: 8px; margin: 0; }'].join('\n');
    expect(targetAt('a.css', css, 1)).toEqual({
      kind: 'style',
      selectors: ['header'],
      properties: ['position', 'background-color', 'color'],
      defines: null,
    });
    expect(targetAt('a.css', css, 2)).toEqual({ kind: 'style', selectors: ['.nav'], properties: ['margin'], defines: '--gap' });
  });
});

describe('templates and components', () => {
  it('places a Svelte line in its element past an arrow function, and reads its <style> block as a style sheet', () => {
    const svelte = [
      '<button class="btn {size}" on:click={() => (open = !open)}>',
      '  {#if open}Close{/if}',
      '  Menu',
      '</button>',
      '<style lang="scss">',
      '  .btn { &:hover { color: red; } }',
      '</style>',
    ].join('\n');
    const button = { kind: 'element', tag: 'button', id: null, classes: ['btn'], dynamicClasses: true, text: 'Close Menu', parent: null };
    expect(targetAt('a.svelte', svelte, 1)).toEqual(button);
    // A block decides which elements are there: it is no element's own text.
    expect(targetAt('a.svelte', svelte, 2)).toBeNull();
    expect(targetAt('a.svelte', svelte, 3)).toEqual(button);
    expect(targetAt('a.svelte', svelte, 6)).toEqual({ kind: 'style', selectors: ['.btn:hover'], properties: ['color'], defines: null });
  });

  it("reads Vue's :class as classes an expression adds, and a component's tag as no HTML element", () => {
    const vue = [
      '<template>',
      '  <ul class="menu">',
      '    <li :class="{ active }" class="item">Home</li>',
      '    <RouterLink to="/">Docs</RouterLink>',
      '  </ul>',
      '</template>',
    ].join('\n');
    expect(targetAt('a.vue', vue, 3)).toEqual({
      kind: 'element',
      tag: 'li',
      id: null,
      classes: ['item'],
      dynamicClasses: true,
      text: 'Home',
      parent: { tag: 'ul', classes: ['menu'], dynamicClasses: false },
    });
    expect(targetAt('a.vue', vue, 4)).toMatchObject({ tag: 'RouterLink', text: 'Docs' });
  });

  it("reads an Angular template's bindings, events, structural and attribute directives on the element's own line", () => {
    const html = [
      '<section class="menu-central">',
      '  <button mat-button [disabled]="busy" (click)="go()" *ngIf="ready">Home</button>',
      '  <input matInput placeholder="Name">',
      '  <span data-test aria-hidden hidden>Plain</span>',
      '</section>',
    ].join('\n');
    const parent = { tag: 'section', classes: ['menu-central'], dynamicClasses: false };
    expect(targetAt('navbar.component.html', html, 2)).toEqual({
      kind: 'element',
      tag: 'button',
      id: null,
      classes: [],
      dynamicClasses: true,
      text: 'Home',
      parent,
    });
    expect(targetAt('navbar.component.html', html, 3)).toMatchObject({ tag: 'input', dynamicClasses: true, parent });
    expect(targetAt('navbar.component.html', html, 4)).toMatchObject({ tag: 'span', dynamicClasses: false, text: 'Plain' });
    expect(targetAt('a.vue', '<template>\n  <p v-if="a">A</p>\n  <p class="note" v-else>B</p>\n</template>\n', 3)).toMatchObject({
      classes: ['note'],
      dynamicClasses: false,
    });
  });

  it('reads JSX: a className string whole, one an expression decides as dynamic, the text of an element', () => {
    const tsx = [
      'export const Card = ({ wide }) => (',
      '  <article id="card" className="rounded-lg bg-[#1E1A2E]">',
      '    <p className={wide ? "w-full" : "w-1/2"}>',
      '      Hello',
      '    </p>',
      '  </article>',
      ');',
    ].join('\n');
    expect(targetAt('a.tsx', tsx, 2)).toEqual({
      kind: 'element',
      tag: 'article',
      id: 'card',
      classes: ['rounded-lg', 'bg-[#1E1A2E]'],
      dynamicClasses: false,
      text: '',
      parent: null,
    });
    expect(targetAt('a.tsx', tsx, 4)).toEqual({
      kind: 'element',
      tag: 'p',
      id: null,
      classes: [],
      dynamicClasses: true,
      text: 'Hello',
      parent: { tag: 'article', classes: ['rounded-lg', 'bg-[#1E1A2E]'], dynamicClasses: false },
    });
  });

  it("reads a class helper's call (cn, clsx, twMerge) as its string arguments' classes, not those a condition guards", () => {
    const svelte = [
      '<header',
      '  class={cn(',
      "    'fixed z-20 flex px-6 py-4',",
      "    onScroll && 'bg-white/60 shadow-sm'",
      '  )}',
      '>',
      '  <a class={`link ${active}`} href="/">Home</a>',
      '</header>',
    ].join('\n');
    const header = { kind: 'element', tag: 'header', id: null, classes: ['fixed', 'z-20', 'flex', 'px-6', 'py-4'], dynamicClasses: true };
    expect(targetAt('+layout.svelte', svelte, 3)).toMatchObject(header);
    expect(targetAt('+layout.svelte', svelte, 4)).toMatchObject(header);
    expect(targetAt('+layout.svelte', svelte, 7)).toMatchObject({ tag: 'a', classes: ['link'], dynamicClasses: true });
    const tsx = [
      'export const Nav = ({ open }) => (',
      "  <nav className={clsx('nav sticky', open && 'nav--open')}>",
      '    Menu',
      '  </nav>',
      ');',
    ].join('\n');
    expect(targetAt('a.tsx', tsx, 2)).toMatchObject({ tag: 'nav', classes: ['nav', 'sticky'], dynamicClasses: true, text: 'Menu' });
  });
});

describe('CSS Modules in JSX', () => {
  it('reads the classes a class attribute names through a CSS Modules import, and only those', () => {
    const jsx = [
      "import styles from './card.module.css';",
      "import * as s from './nav.module.scss';",
      'export const Card = ({ props, open }) => (',
      '  <div className={styles.cardWrapper}>',
      "    <nav className={`${s['main-nav']} ${open ? s.open : ''}`} />",
      '    <p className={props.className}>hi</p>',
      '  </div>',
      ');',
    ].join('\n');
    expect(targetAt('a.jsx', jsx, 4)).toMatchObject({ tag: 'div', classes: [], dynamicClasses: true, moduleClasses: ['cardWrapper'] });
    expect(targetAt('a.jsx', jsx, 5)).toMatchObject({ tag: 'nav', dynamicClasses: true, moduleClasses: ['main-nav'] });
    expect(targetAt('a.jsx', jsx, 6)).not.toHaveProperty('moduleClasses');
  });
});

describe('CSS-in-JS', () => {
  it("reads styled-components' and emotion's tagged templates as rules on the element the component renders, their expressions left out, each line at its own number", () => {
    const jsx = [
      "import styled, { createGlobalStyle } from 'styled-components';",
      'const Frame = styled.article`',
      '  padding: ${(p) => (p.dense ? 8 : 16)}px;',
      '  &:hover { background: var(--hover); }',
      '`;',
      "const Pill = styled(Link).attrs({ role: 'note' })`border-radius: 999px;`;",
      'const Global = createGlobalStyle`body { margin: 0; }`;',
      'export const Card = () => <Frame>hi</Frame>;',
    ].join('\n');
    // A line of a template's own rule (its element's, a state of it included) names the component the template is given to.
    expect(targetAt('a.jsx', jsx, 2)).toEqual({
      kind: 'style',
      selectors: ['article.css-in-js', 'article.css-in-js:hover'],
      properties: ['padding', 'background'],
      defines: null,
      component: 'Frame',
    });
    expect(targetAt('a.jsx', jsx, 3)).toEqual({
      kind: 'style',
      selectors: ['article.css-in-js'],
      properties: ['padding'],
      defines: null,
      component: 'Frame',
    });
    expect(targetAt('a.jsx', jsx, 4)).toEqual({
      kind: 'style',
      selectors: ['article.css-in-js:hover'],
      properties: ['background'],
      defines: null,
      component: 'Frame',
    });
    expect(targetAt('a.jsx', jsx, 6)).toEqual({
      kind: 'style',
      selectors: ['.css-in-js'],
      properties: ['border-radius'],
      defines: null,
      component: 'Pill',
    });
    expect(targetAt('a.jsx', jsx, 7)).toEqual({ kind: 'style', selectors: ['body'], properties: ['margin'], defines: null });
    expect(targetAt('a.jsx', jsx, 8)).toEqual(expect.objectContaining({ kind: 'element', tag: 'Frame' }));
    expect(readSource('a.jsx', jsx)?.uses).toEqual([{ name: '--hover', selectors: ['article.css-in-js:hover'], property: 'background' }]);
    // A TypeScript module of styles (no JSX) is read too.
    expect(targetAt('styles.ts', 'export const Title = styled.h1<{ big: boolean }>`\n  font-size: 20px;\n`;', 2)).toEqual({
      kind: 'style',
      selectors: ['h1.css-in-js'],
      properties: ['font-size'],
      defines: null,
      component: 'Title',
    });
    // A rule nested in a template is another element's: no component names it.
    expect(targetAt('b.jsx', 'const Nav = styled.div`\n  .inner-nav {\n    padding: 1rem 0;\n  }\n`;', 3)).toEqual({
      kind: 'style',
      selectors: ['div.css-in-js .inner-nav'],
      properties: ['padding'],
      defines: null,
    });
  });
});

describe('patches', () => {
  it('says which files it could not read: a style sheet that does not parse, one past the budget', () => {
    const patch = (file: string, lines: string[]) => [`diff --git a/${file} b/${file}`, '@@ -1 +1 @@', ...lines].join('\n');
    const broken = parseDiff(patch('a.scss', ['+.card {', '+  padding: 8px;']), 'c1 Cards');
    expect(broken[0]).toMatchObject({ file: 'a.scss', unread: expect.stringMatching(/^does not parse \(Unclosed block\)$/) });
    expect(broken[0].lines.every((line) => line.target === null)).toBe(true);
    const both = parseDiff([patch('a.css', ['+a { color: red; }']), patch('b.css', ['+b { color: red; }'])].join('\n'), 'c1 Links', 30);
    expect(both.map((change) => change.unread)).toEqual([null, "comes past the first 0 MiB of the branch's diffs: not read"]);
  });
});
