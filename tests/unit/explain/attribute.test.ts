import { describe, expect, it } from 'vitest';
import { explainChange, type ElementChange } from '../../../src/explain';
import { elementName, stepParts } from '../../../src/explain/words';
import type { CodeChange } from '../../../src/git/code-change';
import type { LayoutRecord, Region, RegionKind } from '../../../src/types';
import { layoutRecord, type Drawn as DrawnBox } from './records';
import { branch } from './branch';

/**
 * The attribution on realistic branches: real files committed to a real repository, read back by
 * the reporter's own `codeChanges` (whole-file patches, parsed), against layout records as the
 * browser writes them. Each case names the element, the property, the file and the commit.
 */

/** One element of a page: its path, its computed styles that matter here, its text. */
type Drawn = [path: string, style?: Record<string, string>, text?: string];

const STYLE = { display: 'block', color: 'rgb(29, 36, 51)', 'background-color': 'rgba(0, 0, 0, 0)', padding: '0px', gap: 'normal' };

/** A layout record as the browser writes it: parents found from the paths, boxes stacked in the captured area. */
function page(drawn: Drawn[]): LayoutRecord {
  const paths = drawn.map(([p]) => p);
  const elements = drawn.map(([p, , text], i) => ({
    path: p,
    parent: paths.reduce((found, other, j) => (j < i && p.startsWith(`${other}>`) ? j : found), -1),
    box: [0, i * 20, 800, 20] as [number, number, number, number],
    text: text ?? '',
    style: i,
  }));
  return {
    version: 1,
    width: 800,
    height: 600,
    elements,
    styles: drawn.map(([, style]) => ({ ...STYLE, ...style })),
    truncated: false,
    hidden: [],
  };
}

const ALL = [{ x: 0, y: 0, width: 800, height: 600 }];

function changeOf(changes: ElementChange[], element: string): ElementChange {
  const found = changes.find((change) => change.element === element);
  if (!found) throw new Error(`no change of ${element} among ${changes.map((change) => change.element).join(', ')}`);
  return found;
}

/** The commit line `codeChanges` gives a subject (`<short sha> <subject>`). */
const commitOf = (code: CodeChange[], subject: string) => code.find((change) => change.commit?.endsWith(` ${subject}`))?.commit;

/** A capture's changed regions as its run recorded them: x, y, width, height, kind. */
const regionsOf = (...rows: [number, number, number, number, RegionKind][]): Region[] =>
  rows.map(([x, y, width, height, kind]) => ({ x, y, width, height, kind }));

describe('attribution: nested SCSS', () => {
  const sheet = (background: string, hover: string) => `@use 'mixins' as *;

$ink: #1d2433;

.site-header {
  display: flex;
  @include breakpoint(md) {
    padding: 0 24px;
    .logo { height: 32px; }
  }
  .nav-link {
    color: $ink;
    &:hover {
      color: ${hover};
    }
  }
  background-color: ${background};
}
`;

  it('names the rule after an @include block, and a &:hover rule, each with its commit', async () => {
    const code = await branch({ 'src/styles/global.scss': sheet('#1e1a2e', '#2a6df4') }, [
      { subject: 'Header: lighter background', files: { 'src/styles/global.scss': sheet('#2b2540', '#2a6df4') } },
      { subject: 'Nav: warmer hover', files: { 'src/styles/global.scss': sheet('#2b2540', '#ff5a5f') } },
    ]);
    const header = 'html>body>header.site-header';
    const base = page([
      ['html'],
      ['html>body'],
      [header, { display: 'flex', 'background-color': 'rgb(30, 26, 46)' }],
      [`${header}>a.nav-link`, {}, 'Docs'],
      ['html>body>footer>a.nav-link', {}, 'Blog'],
    ]);
    // The pointer rests on the header's link in the current capture: its hover colour shows.
    const current = page([
      ['html'],
      ['html>body'],
      [header, { display: 'flex', 'background-color': 'rgb(43, 37, 64)' }],
      [`${header}>a.nav-link`, { color: 'rgb(255, 90, 95)' }, 'Docs'],
      ['html>body>footer>a.nav-link', { color: 'rgb(255, 90, 95)' }, 'Blog'],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    const background = changeOf(changes, '.site-header');
    expect(background.properties.map((p) => p.property)).toEqual(['background-color']);
    expect(background.cause).toEqual({
      file: 'src/styles/global.scss',
      commit: commitOf(code, 'Header: lighter background'),
      line: 'background-color: #2b2540;',
    });

    const [inHeader, inFooter] = changes.filter((change) => change.element === '.nav-link');
    expect(inHeader.path).toBe(`${header}>a.nav-link`);
    expect(inHeader.properties.map((p) => p.property)).toEqual(['color']);
    expect(inHeader.cause).toEqual({
      file: 'src/styles/global.scss',
      commit: commitOf(code, 'Nav: warmer hover'),
      line: 'color: #ff5a5f;',
    });
    // `.site-header .nav-link:hover` is not the footer's link: the diff does not name it.
    expect(inFooter.cause).toBeNull();
    expect(inFooter.words).toMatch(/ — no changed file mentions this element$/);
  });
});

describe('attribution: CSS Modules', () => {
  const module = (padding: string) => `.navbar {
  display: flex;
  padding: ${padding};

  &.gray {
    background: #f4f4f6;
  }
}

.link {
  color: #333;
}
`;

  it("reads Vite's generated names back to the module's rule, its hash changing with the file", async () => {
    const code = await branch({ 'src/components/header.module.scss': module('0 40px') }, [
      { subject: 'Header: roomier navbar', files: { 'src/components/header.module.scss': module('0 80px') } },
    ]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>header._navbar_1goyx_1._gray_1goyx_5', { display: 'flex', padding: '0px 40px' }],
      ['html>body>div#root>header._navbar_1goyx_1._gray_1goyx_5>a._link_1goyx_11', {}, 'Docs'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>header._navbar_11ty5_1._gray_11ty5_5', { display: 'flex', padding: '0px 80px' }],
      ['html>body>div#root>header._navbar_11ty5_1._gray_11ty5_5>a._link_11ty5_11', {}, 'Docs'],
    ]);
    const { changes } = explainChange(base, current, ALL, code);
    const navbar = changes.find((change) => change.properties.some((p) => p.property === 'padding'));
    expect(navbar?.path).toBe('html>body>div#root>header._navbar_11ty5_1._gray_11ty5_5');
    expect(navbar?.cause).toEqual({
      file: 'src/components/header.module.scss',
      commit: commitOf(code, 'Header: roomier navbar'),
      line: 'padding: 0 80px;',
    });
    expect(navbar?.words).toMatch(
      /padding 0px 40px → 0px 80px — src\/components\/header\.module\.scss \(commit [0-9a-f]+ Header: roomier navbar\)$/,
    );
    // Named as the module writes it, never by the hash a reviewer cannot search for.
    expect(navbar?.element).toBe('header.navbar.gray (header.module.scss)');
    expect(navbar?.words).toMatch(/^header\.navbar\.gray \(header\.module\.scss\): padding/);
    // Its link only took the module's new hash: nothing of it renders otherwise, so it is no change (explain/visible.ts).
    expect(changes.find((change) => change.path.endsWith('a._link_11ty5_11'))).toBeUndefined();
  });

  it('reads back the names of Next.js (webpack) and css-loader, and says so when a hash alone cannot be read', async () => {
    const code = await branch({ 'src/components/header.module.scss': module('0 40px') }, [
      { subject: 'Header: roomier navbar', files: { 'src/components/header.module.scss': module('0 80px') } },
    ]);
    const explained = (className: string) => {
      const [before, after] = [{ padding: '0px 40px' }, { padding: '0px 80px' }].map((style) =>
        page([['html'], ['html>body'], [`html>body>header.${className}`, style]]),
      );
      return explainChange(before, after, ALL, code).changes[0];
    };
    expect(explained('header_navbar__a1B2c').cause?.file).toBe('src/components/header.module.scss');
    expect(explained('header-module__navbar___a1B2c').cause?.file).toBe('src/components/header.module.scss');
    // Another module's `navbar` (Next.js keeps the file's name) is not this one.
    expect(explained('footer_navbar__a1B2c').cause).toBeNull();
    const hashed = explained('Xk3f9q');
    expect(hashed.cause).toBeNull();
    expect(hashed.words).toMatch(/ — not attributed: the changed rules in src\/components\/header\.module\.scss match no element here$/);
    // An element with readable classes is not one a hash-only pattern made: the module is no lead for it.
    expect(explained('sidebar').words).not.toMatch(/header\.module\.scss/);
  });
});

describe('attribution: templates and utility classes', () => {
  const navbar = (gap: string) => `<script>
  export let open = false;
</script>

<nav class="flex items-center ${gap} bg-[#1E1A2E] px-6">
  <a href="/" class="text-white">Home</a>
  <button class="flex rounded px-3" on:click={() => (open = !open)}>Menu</button>
</nav>
`;
  const footer = (size: string) => `<footer class="mt-8">
  <div class="flex justify-between ${size}">
    <span>© 2026 Acme</span>
  </div>
</footer>
`;

  it('credits a class change to the component whose line is that element, not to another that shares `flex`', async () => {
    const code = await branch({ 'src/lib/Navbar.svelte': navbar('gap-4'), 'src/lib/Footer.svelte': footer('text-sm') }, [
      { subject: 'Navbar: wider gaps', files: { 'src/lib/Navbar.svelte': navbar('gap-6') } },
      { subject: 'Footer: smaller print', files: { 'src/lib/Footer.svelte': footer('text-xs') } },
    ]);
    const nav = (gap: string) => `html>body>div>nav.flex.items-center.${gap}.bg-[#1E1A2E].px-6.svelte-1x2y3z`;
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div'],
      [nav('gap-4'), { display: 'flex', gap: '16px' }],
      ['html>body>div>main>div.flex.items-center', { display: 'flex', gap: '8px' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div'],
      [nav('gap-6'), { display: 'flex', gap: '24px' }],
      ['html>body>div>main>div.flex.items-center', { display: 'flex', gap: '12px' }],
    ]);
    const [navChange, cardChange] = explainChange(base, current, ALL, code).changes;

    expect(navChange.path).toBe(nav('gap-6'));
    // The class attribute is no change of its own: what it renders is (the gap).
    expect(navChange.properties.map((p) => p.property)).toEqual(['gap']);
    expect(navChange.cause).toEqual({
      file: 'src/lib/Navbar.svelte',
      commit: commitOf(code, 'Navbar: wider gaps'),
      line: '<nav class="flex items-center gap-6 bg-[#1E1A2E] px-6">',
    });
    // An element of another component that only shares `flex` with the changed lines is not theirs.
    expect(cardChange.path).toBe('html>body>div>main>div.flex.items-center');
    expect(cardChange.cause).toBeNull();
    expect(cardChange.words).toMatch(
      / — not attributed: src\/lib\/Footer\.svelte changes a line with `flex`, but not this element's own rule, tag, attributes or text$/,
    );
  });

  it('keeps an arbitrary-value class whole: `bg-[#1E1A2E]` is one class, never an id `#1E1A2E]`', async () => {
    const hero = (colour: string) => `export function Hero() {
  return (
    <section className="bg-[${colour}] p-4">
      <h1 className="text-3xl">Ship faster</h1>
    </section>
  );
}
`;
    const code = await branch({ 'src/Hero.tsx': hero('#1E1A2E') }, [
      { subject: 'Hero: lighter band', files: { 'src/Hero.tsx': hero('#2B2540') } },
    ]);
    const section = (colour: string) => `html>body>div#root>section.bg-[${colour}].p-4`;
    const base = page([['html'], ['html>body'], ['html>body>div#root'], [section('#1E1A2E'), { 'background-color': 'rgb(30, 26, 46)' }]]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      [section('#2B2540'), { 'background-color': 'rgb(43, 37, 64)' }],
    ]);
    const [change] = explainChange(base, current, ALL, code).changes;

    expect(stepParts(section('#2B2540'))).toEqual({ tag: 'section', id: null, classes: ['bg-[#2B2540]', 'p-4'] });
    expect(elementName(section('#2B2540'))).toBe('.bg-[#2B2540].p-4');
    expect(stepParts('html>body>div.py-0.5.w-1/2.md:flex.[&>svg]:size-4').classes).toEqual([
      'py-0.5',
      'w-1/2',
      'md:flex',
      '[&>svg]:size-4',
    ]);
    expect(change.words).toBe(
      `.bg-[#2B2540].p-4: background-color #1e1a2e → #2b2540 — src/Hero.tsx (commit ${commitOf(code, 'Hero: lighter band')})`,
    );
    expect(change.cause?.line).toBe('<section className="bg-[#2B2540] p-4">');
  });
});

describe('attribution: markup deleted and inserted', () => {
  const home = (promo: string) => `<!doctype html>
<html>
<body>
  <header class="top"><a href="/">Acme</a></header>
${promo}  <main class="page">
    <h1>Welcome</h1>
  </main>
  <script src="/reveal.js"></script>
</body>
</html>
`;
  const promo = `  <section class="promo">
    <h2>Spring sale</h2>
    <p>30% off every annual plan</p>
  </section>
`;
  // A script reveals the banner once it scrolls into view: the page's element has a class no line writes.
  const drawn = (withPromo: boolean) =>
    page([
      ['html'],
      ['html>body'],
      ['html>body>header.top'],
      ...(withPromo
        ? ([['html>body>section.promo.is-visible'], ['html>body>section.promo.is-visible>h2', {}, 'Spring sale']] as Drawn[])
        : []),
      ['html>body>main.page'],
      ['html>body>main.page>h1', {}, 'Welcome'],
    ]);

  it('credits a removed element to the commit that deleted its tag, whatever class a script added to it on the page', async () => {
    const code = await branch({ 'index.html': home(promo) }, [
      { subject: 'Home: the spring sale is over', files: { 'index.html': home('') } },
      { subject: 'Home: a warmer header', files: { 'index.html': home('').replace('class="top"', 'class="top warm"') } },
    ]);
    const [removed] = explainChange(drawn(true), drawn(false), ALL, code).changes;
    expect(removed.element).toBe('.promo.is-visible');
    expect(removed.cause).toEqual({
      file: 'index.html',
      commit: commitOf(code, 'Home: the spring sale is over'),
      line: '<section class="promo">',
    });
  });

  it('credits an inserted element to the commit that added its tag, and not a line that only names its class', async () => {
    const code = await branch({ 'index.html': home(''), 'src/legacy.html': '<div class="banner">old</div>\n' }, [
      { subject: 'Home: a spring sale banner', files: { 'index.html': home(promo) } },
      { subject: 'Legacy: promo wording', files: { 'src/legacy.html': '<div class="banner promo">old</div>\n' } },
    ]);
    const [added] = explainChange(drawn(false), drawn(true), ALL, code).changes;
    expect(added.cause).toEqual({
      file: 'index.html',
      commit: commitOf(code, 'Home: a spring sale banner'),
      line: '<section class="promo">',
    });
  });

  it("credits an Angular template's `<button mat-button>` to its line, though the directive adds classes no line writes", async () => {
    const navbar = (end: string) => `<mat-toolbar>
  <ul class="menu-end">
${end}
  </ul>
</mat-toolbar>
`;
    const code = await branch({ 'src/app/navbar/navbar.component.html': navbar('    <li>Log in</li>') }, [
      {
        subject: 'code cleaner navbar',
        files: { 'src/app/navbar/navbar.component.html': navbar('    <button mat-button (click)="login()" *ngIf="!user">Log in</button>') },
      },
    ]);
    const drawnNavbar = (login: string) =>
      page([['mat-toolbar'], ['mat-toolbar>ul.menu-end'], [`mat-toolbar>ul.menu-end>${login}`, {}, 'Log in']]);
    const changes = explainChange(
      drawnNavbar('li'),
      drawnNavbar('button.mat-focus-indicator.mat-button.mat-button-base'),
      ALL,
      code,
    ).changes;
    const added = changes.find((change) => change.element.includes('mat-button'))!;
    expect(added.cause).toEqual({
      file: 'src/app/navbar/navbar.component.html',
      commit: commitOf(code, 'code cleaner navbar'),
      line: '<button mat-button (click)="login()" *ngIf="!user">Log in</button>',
    });
  });

  it('says an item inserted before a sibling of the same tag as an insertion, the sibling moved on, not as the sibling’s new text', async () => {
    const nav = (items: string[]) => `<template>
  <ul class="nav-links">
${items.map((item) => `    <li><a href="#${item.toLowerCase()}">${item}</a></li>`).join('\n')}
  </ul>
</template>
`;
    const code = await branch({ 'src/components/NavBar.vue': nav(['Home', 'Projects', 'Skills', 'Contact']) }, [
      {
        subject: 'feat: addition of "About" to the navbar',
        files: { 'src/components/NavBar.vue': nav(['Home', 'Projects', 'Skills', 'About', 'Contact']) },
      },
    ]);
    const drawn = (items: string[]) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>ul.nav-links'],
        ...items.flatMap((item, i): Drawn[] => [
          [`html>body>ul.nav-links>li:${i + 1}`],
          [`html>body>ul.nav-links>li:${i + 1}>a`, {}, item],
        ]),
      ]);
    const { changes } = explainChange(
      drawn(['Home', 'Projects', 'Skills', 'Contact']),
      drawn(['Home', 'Projects', 'Skills', 'About', 'Contact']),
      ALL,
      code,
    );
    expect(changes.filter((change) => change.properties.some((p) => p.property === 'text'))).toEqual([]);
    const added = changes.find((change) => change.kind === 'added');
    expect(added?.path).toBe('html>body>ul.nav-links>li:4>a');
    // The list's parent restyled too (every path under it differs): its items are paired by place, the same text first.
    const under = (nav: string, items: string[]) =>
      page([
        ['html'],
        ['html>body'],
        [`html>body>nav.${nav}`],
        ...items.map((item, i): Drawn => [`html>body>nav.${nav}>li:${i + 1}`, {}, item]),
      ]);
    const moved = explainChange(under('dark', ['Docs', 'Blog']), under('violet', ['Docs', 'Changelog', 'Blog']), ALL, code).changes;
    expect(moved.filter((change) => change.properties.some((p) => p.property === 'text'))).toEqual([]);
    expect(moved.filter((change) => change.kind === 'added').map((change) => change.path)).toEqual(['html>body>nav.violet>li:2']);
    expect(added?.cause?.commit).toBe(commitOf(code, 'feat: addition of "About" to the navbar'));
  });
});

describe('attribution: geometry follows its cause', () => {
  const route = (hero: string, background: string) => `<script>
  import Gallery from './Gallery.svelte';
</script>

<main class="${background} min-h-screen">
${hero}  <Gallery />
</main>
`;
  const hero = `  <section class="hero h-40">
    <h1>Ship faster</h1>
  </section>
`;

  it('credits the height a removed hero took from its page to the commit that removed it, never to a later one that only recoloured the page', async () => {
    const code = await branch({ 'src/routes/+page.svelte': route(hero, 'bg-white') }, [
      { subject: 'Home: no hero', files: { 'src/routes/+page.svelte': route('', 'bg-white') } },
      { subject: 'Home: a softer background', files: { 'src/routes/+page.svelte': route('', 'bg-gray-50') } },
    ]);
    const main = (background: string) => `html>body>div>main.${background}.min-h-screen.svelte-1kq9e2`;
    const drawn = (withHero: boolean, background: string, colour: string) => {
      const record = page([
        ['html'],
        ['html>body'],
        ['html>body>div'],
        [main(background), { 'background-color': colour }],
        ...(withHero
          ? ([
              [`${main(background)}>section.hero.h-40.svelte-1kq9e2`],
              [`${main(background)}>section.hero.h-40.svelte-1kq9e2>h1`, {}, 'Ship faster'],
            ] as Drawn[])
          : []),
        [`${main(background)}>div.gallery`],
      ]);
      // The page is as tall as what it holds: 160 px less without the hero.
      record.elements[3].box = [0, 0, 800, withHero ? 900 : 740];
      return record;
    };
    const { changes } = explainChange(
      drawn(true, 'bg-white', 'rgb(255, 255, 255)'),
      drawn(false, 'bg-gray-50', 'rgb(249, 250, 251)'),
      ALL,
      code,
    );
    const recoloured = changes.find((change) => change.path === main('bg-gray-50'))!;
    expect(recoloured.properties.map((p) => p.property)).toEqual(['background-color']);
    expect(recoloured.cause?.commit).toBe(commitOf(code, 'Home: a softer background'));
    expect(changes.find((change) => change.properties.some((p) => p.property === 'height'))).toBeUndefined();
    expect(changes.find((change) => change.kind === 'removed')).toMatchObject({
      path: `${main('bg-white')}>section.hero.h-40.svelte-1kq9e2`,
      cause: { commit: commitOf(code, 'Home: no hero') },
    });
  });

  it('says a new size apart from a colour that cannot make it, with its own cause', async () => {
    const sheet = (background: string, padding: string) => `.card {\n  background-color: ${background};\n  padding: ${padding};\n}\n`;
    const code = await branch({ 'src/card.css': sheet('#fff', '8px') }, [
      { subject: 'Cards: roomier', files: { 'src/card.css': sheet('#fff', '16px') } },
      { subject: 'Cards: warmer', files: { 'src/card.css': sheet('#fffbeb', '16px') } },
    ]);
    const drawn = (colour: string, height: number) => {
      const record = page([['html'], ['html>body'], ['html>body>div.card', { 'background-color': colour }]]);
      record.elements[2].box = [0, 40, 800, height];
      return record;
    };
    const { changes } = explainChange(drawn('rgb(255, 255, 255)', 40), drawn('rgb(255, 251, 235)', 56), ALL, code);
    expect(changes.map((change) => [change.properties.map((p) => p.property), change.cause?.commit])).toEqual([
      [['background-color'], commitOf(code, 'Cards: warmer')],
      [['height'], commitOf(code, 'Cards: roomier')],
    ]);
  });
});

describe('attribution: the line that renders an element', () => {
  it("credits a component's `class` prop to the element it renders, its own classes beside the prop's", async () => {
    const view = (padding: string) => `<script>
  import Button from '$lib/Button.svelte';
</script>

<div class="actions">
  <Button class="${padding} py-2">Save</Button>
</div>
`;
    const code = await branch({ 'src/routes/+page.svelte': view('px-4') }, [
      { subject: 'Actions: roomier save button', files: { 'src/routes/+page.svelte': view('px-6') } },
    ]);
    const button = (padding: string) => `html>body>div.actions>button.inline-flex.items-center.rounded-md.${padding}.py-2.svelte-1abc`;
    const [base, current] = [
      [button('px-4'), '8px 16px'],
      [button('px-6'), '8px 24px'],
    ].map(([path, padding]) => page([['html'], ['html>body'], ['html>body>div.actions'], [path, { padding }, 'Save']]));
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.properties.map((p) => p.property)).toEqual(['padding']);
    expect(change.cause).toEqual({
      file: 'src/routes/+page.svelte',
      commit: commitOf(code, 'Actions: roomier save button'),
      line: '<Button class="px-6 py-2">Save</Button>',
    });
  });

  it('credits a `class={cn(…)}` line to the element it renders, the classes a condition guards left aside', async () => {
    const layout = (padding: string) => `<script>
  import { cn } from '$lib/utils';
  let onScroll = $state(false);
</script>

<header
  class={cn(
    'fixed z-20 flex w-full items-center ${padding} py-4',
    onScroll && 'bg-white/60 shadow-sm'
  )}
>
  <a href="/">TE</a>
</header>
`;
    const code = await branch({ 'src/routes/+layout.svelte': layout('px-12') }, [
      { subject: 'Layout: a narrower header on phones', files: { 'src/routes/+layout.svelte': layout('px-6') } },
    ]);
    const header = (padding: string) => `html>body>div>header.fixed.z-20.flex.w-full.items-center.${padding}.py-4.s-7IPF32Wcq3s8`;
    const [base, current] = [
      [header('px-12'), '16px 48px'],
      [header('px-6'), '16px 24px'],
    ].map(([path, padding]) => page([['html'], ['html>body'], ['html>body>div'], [path, { padding }], [`${path}>a`, {}, 'TE']]));
    const change = changeOf(explainChange(base, current, ALL, code).changes, 'header.fixed.z-20.px-6');
    expect(change.cause).toEqual({
      file: 'src/routes/+layout.svelte',
      commit: commitOf(code, 'Layout: a narrower header on phones'),
      line: "'fixed z-20 flex w-full items-center px-6 py-4',",
    });
  });

  it('credits the component tag that renders an element named after it (`<Badge>` renders `span.badge`)', async () => {
    const view = (tone: string) => `<script>
  import Badge from '$lib/Badge.svelte';
</script>

<h2>Plans <Badge tone="${tone}" /></h2>
`;
    const code = await branch({ 'src/routes/pricing/+page.svelte': view('new') }, [
      { subject: 'Pricing: a sale badge', files: { 'src/routes/pricing/+page.svelte': view('sale') } },
    ]);
    const [base, current] = ['rgb(224, 242, 254)', 'rgb(254, 226, 226)'].map((background) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>h2', {}, 'Plans'],
        ['html>body>h2>span.badge.svelte-9xk2', { 'background-color': background }],
      ]),
    );
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.properties.map((p) => p.property)).toEqual(['background-color']);
    expect(change.cause).toEqual({
      file: 'src/routes/pricing/+page.svelte',
      commit: commitOf(code, 'Pricing: a sale badge'),
      line: '<h2>Plans <Badge tone="sale" /></h2>',
    });
  });

  it('takes a utility class many elements share, on a changed line, for no evidence: it neither proves the element nor names that file', async () => {
    const menu = (gap: string) => `<script>
  export let open = false;
</script>

<ul class="items-center ${gap} {open ? 'flex' : 'hidden'}">
  <li>Docs</li>
</ul>
`;
    const code = await branch({ 'src/lib/Menu.svelte': menu('gap-2') }, [
      { subject: 'Menu: wider gaps', files: { 'src/lib/Menu.svelte': menu('gap-4') } },
    ]);
    const shared: Drawn[] = [
      ['html'],
      ['html>body'],
      ['html>body>header.flex.items-center'],
      ['html>body>main'],
      ['html>body>main>div.flex.items-center'],
    ];
    const base = page([...shared, ['html>body>main>ul.flex.items-center'], ['html>body>footer.flex.items-center']]);
    const current = page([...shared, ['html>body>footer.flex.items-center']]);
    const [removed] = explainChange(base, current, ALL, code).changes;
    expect(removed.path).toBe('html>body>main>ul.flex.items-center');
    expect(removed.cause).toBeNull();
    expect(removed.words).not.toMatch(/Menu\.svelte/);
  });

  it("credits an editor option changed in the component that renders the element's container, and names no unrelated file when nothing proves a cause", async () => {
    const editor = (glyphs: boolean, digits: number) => `<script>
  import { onMount } from 'svelte';
  let container;
  onMount(() => {
    monaco.editor.create(container, {
      glyphMargin: ${glyphs},
      lineNumbersMinChars: ${digits},
    });
  });
</script>

<div class="desktop-editor" bind:this={container}></div>

<style>
  .desktop-editor { height: 100%; }
</style>
`;
    const popup = (angle: string) => `<div class="ai-popup"><slot /></div>

<style>
  .ai-popup {
    --gradient-angle: ${angle};
    background: linear-gradient(var(--gradient-angle), #fff, #eee);
  }
</style>
`;
    const code = await branch(
      { 'src/lib/components/DesktopEditor.svelte': editor(false, 3), 'src/lib/components/AIPromptPopup.svelte': popup('45deg') },
      [
        { subject: 'Editor: glyph margin and wider line numbers', files: { 'src/lib/components/DesktopEditor.svelte': editor(true, 5) } },
        { subject: 'Popup: steeper gradient', files: { 'src/lib/components/AIPromptPopup.svelte': popup('60deg') } },
      ],
    );
    const container = 'html>body>div.app>div.desktop-editor.svelte-1abc>div.monaco-editor';
    const drawn = (gutter: number, sidebar: number): LayoutRecord => {
      const record = page([
        ['html'],
        ['html>body'],
        ['html>body>div.app'],
        ['html>body>div.app>aside.sidebar'],
        ['html>body>div.app>div.desktop-editor.svelte-1abc'],
        [container],
        [`${container}>div.margin`],
      ]);
      record.elements[3].box = [0, 0, sidebar, 600];
      record.elements[6].box = [300, 0, gutter, 600];
      return record;
    };
    const { changes } = explainChange(drawn(40, 240), drawn(64, 250), ALL, code);
    const gutter = changes.find((change) => change.path.endsWith('>div.margin'))!;
    expect(gutter.properties).toEqual([{ property: 'width', before: '40', after: '64' }]);
    expect(gutter.cause).toMatchObject({
      file: 'src/lib/components/DesktopEditor.svelte',
      commit: commitOf(code, 'Editor: glyph margin and wider line numbers'),
    });
    const sidebar = changes.find((change) => change.path.endsWith('>aside.sidebar'))!;
    expect(sidebar.cause).toBeNull();
    expect(sidebar.words).not.toMatch(/AIPromptPopup|gradient-angle/);
  });

  it('credits a picture to the SVG file it shows, and reads an SVG file as markup', async () => {
    const logo = (width: number) => `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="32" viewBox="0 0 ${width} 32">
  <g fill="#1e1a2e"><rect width="${width}" height="32" rx="6" /></g>
</svg>
`;
    const code = await branch({ 'static/logo.svg': logo(120) }, [
      { subject: 'Logo: the wide mark', files: { 'static/logo.svg': logo(160) } },
    ]);
    expect(code[0].lines.find((line) => line.added && line.text.includes('<g'))?.target).toMatchObject({
      kind: 'element',
      tag: 'rect',
      parent: { tag: 'g' },
    });
    const drawn = (width: number): LayoutRecord => {
      const record = page([
        ['html'],
        ['html>body'],
        ['html>body>header'],
        ['html>body>header>img.logo', { src: '/logo.svg', image: 'loaded' }],
      ]);
      record.elements[3].box = [0, 0, width, 32];
      return record;
    };
    const [change] = explainChange(drawn(120), drawn(160), ALL, code).changes;
    expect(change.properties).toEqual([{ property: 'width', before: '120', after: '160' }]);
    expect(change.cause).toMatchObject({ file: 'static/logo.svg', commit: commitOf(code, 'Logo: the wide mark') });
  });
});

describe('attribution: text', () => {
  it("credits a button's new text to the line that holds it whole, not to one that only shares its words", async () => {
    const locale = (cta: string) => `{\n  "hero": {\n    "cta": "${cta}",\n    "note": "No card needed"\n  }\n}\n`;
    const code = await branch({ 'src/locales/en.json': locale('Get started'), 'content/about.md': '# About\n\nWe help teams ship.\n' }, [
      { subject: 'Hero: clearer call to action', files: { 'src/locales/en.json': locale('Start free trial') } },
      {
        subject: 'About: trials',
        files: { 'content/about.md': '# About\n\nWe help teams ship. Start free trials from the pricing page.\n' },
      },
    ]);
    const [before, after] = ['Get started', 'Start free trial'].map((text) =>
      page([['html'], ['html>body'], ['html>body>section.hero>button.cta', {}, text]]),
    );
    const [change] = explainChange(before, after, ALL, code).changes;
    expect(change.properties).toEqual([{ property: 'text', before: 'Get started', after: 'Start free trial' }]);
    expect(change.cause).toEqual({
      file: 'src/locales/en.json',
      commit: commitOf(code, 'Hero: clearer call to action'),
      line: '"cta": "Start free trial",',
    });
  });
});

describe('attribution: custom properties', () => {
  const tokens = (brand: string) => `:root {
  --brand: ${brand};
  --link: var(--brand);
}
`;
  const buttons = (padding: string) => `.btn-primary {
  padding: ${padding};
  background-color: var(--brand);
}

nav a {
  color: var(--link);
}
`;

  it('names the elements a changed token styles through the rules read on the branch that use it, and says so where none does', async () => {
    const code = await branch({ 'src/styles/tokens.css': tokens('#2a6df4'), 'src/styles/buttons.css': buttons('8px 16px') }, [
      { subject: 'Buttons: roomier', files: { 'src/styles/buttons.css': buttons('10px 20px') } },
      { subject: 'Brand: warmer', files: { 'src/styles/tokens.css': tokens('#e4572e') } },
    ]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>button.btn-primary', { 'background-color': 'rgb(42, 109, 244)' }],
      ['html>body>nav>a', { color: 'rgb(42, 109, 244)' }],
      ['html>body>span.badge', { color: 'rgb(42, 109, 244)' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>button.btn-primary', { 'background-color': 'rgb(228, 87, 46)' }],
      ['html>body>nav>a', { color: 'rgb(228, 87, 46)' }],
      ['html>body>span.badge', { color: 'rgb(228, 87, 46)' }],
    ]);
    const { changes } = explainChange(base, current, ALL, code);
    const brand = commitOf(code, 'Brand: warmer');

    expect(changeOf(changes, '.btn-primary').cause).toEqual({ file: 'src/styles/tokens.css', commit: brand, line: '--brand: #e4572e;' });
    // Through `--link: var(--brand)`.
    expect(changeOf(changes, 'nav a').cause).toEqual({ file: 'src/styles/tokens.css', commit: brand, line: '--brand: #e4572e;' });
    const badge = changeOf(changes, '.badge');
    expect(badge.cause).toBeNull();
    expect(badge.words).toMatch(
      / — not attributed: src\/styles\/tokens\.css changes --brand, and no rule read on the branch applies it to this element \(the layout record does not say which elements use a variable or mixin\)$/,
    );
  });
  it('names the elements a changed token styles through rules in style sheets the branch did not change', async () => {
    const code = await branch({ 'src/styles/tokens.css': tokens('#2a6df4'), 'src/styles/buttons.css': buttons('8px 16px') }, [
      { subject: 'Brand: warmer', files: { 'src/styles/tokens.css': tokens('#e4572e') } },
    ]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>button.btn-primary', { 'background-color': 'rgb(42, 109, 244)' }],
      ['html>body>nav>a', { color: 'rgb(42, 109, 244)' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>button.btn-primary', { 'background-color': 'rgb(228, 87, 46)' }],
      ['html>body>nav>a', { color: 'rgb(228, 87, 46)' }],
    ]);
    const { changes } = explainChange(base, current, ALL, code);
    const brand = commitOf(code, 'Brand: warmer');

    expect(changeOf(changes, '.btn-primary').cause).toEqual({ file: 'src/styles/tokens.css', commit: brand, line: '--brand: #e4572e;' });
    expect(changeOf(changes, 'nav a').cause).toEqual({ file: 'src/styles/tokens.css', commit: brand, line: '--brand: #e4572e;' });
    expect(code.filter((change) => change.file === 'src/styles/buttons.css').map((change) => change.lines)).toEqual([[]]);
  });
});

describe('attribution: CSS-in-JS', () => {
  const card = (padding: string) => `import styled from 'styled-components';

const Frame = styled.article\`
  margin: 16px;
  padding: ${padding};
\`;

export default function Card({ title }) {
  return <Frame><strong>{title}</strong></Frame>;
}
`;

  it("credits a styled component's changed declaration on the element with the library's generated class, and not on a plain element of the same tag", async () => {
    const code = await branch({ 'src/Card.jsx': card('16px') }, [{ subject: 'Cards: roomier', files: { 'src/Card.jsx': card('24px') } }]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>article.sc-bdnzMm.fpmuDm', { padding: '16px' }],
      ['html>body>article.post', { padding: '16px' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>article.sc-bdnzMm.kQxLzf', { padding: '24px' }],
      ['html>body>article.post', { padding: '24px' }],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    // Named as its source names it: the component its template is given to, never the library's generated classes.
    expect(changeOf(changes, 'Frame (Card.jsx)').cause).toEqual({
      file: 'src/Card.jsx',
      commit: commitOf(code, 'Cards: roomier'),
      line: 'padding: 24px;',
      component: 'Frame',
    });
    expect(changeOf(changes, '.post').cause).toBeNull();
  });

  const home = (colour: string, position: string) => `import styled from 'styled-components';

export const StyledDiv = styled.div\`
  position: ${position};
  .text-container {
    p {
      color: ${colour};
    }
  }
\`;
`;

  it('pairs styled components across the sides though their generated classes changed with their CSS and the order they were made in', async () => {
    const code = await branch({ 'src/Home.style.jsx': home('#000', 'static') }, [
      { subject: 'css', files: { 'src/Home.style.jsx': home('#696969', 'absolute') } },
    ]);
    // The navbar's component id is the hero's on the other side (ids count the components made), and each hash follows its CSS.
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div.sc-bdvvtL.eDLYbF'],
      ['html>body>div#root>div.sc-bdvvtL.eDLYbF>nav.inner-nav'],
      ['html>body>div#root>div.sc-gsDKAQ.cVkeIL', { position: 'static' }],
      ['html>body>div#root>div.sc-gsDKAQ.cVkeIL>section.homepage-container'],
      ['html>body>div#root>div.sc-gsDKAQ.cVkeIL>section.homepage-container>div.text-container'],
      ['html>body>div#root>div.sc-gsDKAQ.cVkeIL>section.homepage-container>div.text-container>p', { color: 'rgb(0, 0, 0)' }, 'Millions'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div.sc-gsDKAQ.hA-dBcX'],
      ['html>body>div#root>div.sc-gsDKAQ.hA-dBcX>nav.inner-nav'],
      ['html>body>div#root>div.sc-bdvvtL.jVRBrf', { position: 'absolute' }],
      ['html>body>div#root>div.sc-bdvvtL.jVRBrf>section.homepage-container'],
      ['html>body>div#root>div.sc-bdvvtL.jVRBrf>section.homepage-container>div.text-container'],
      [
        'html>body>div#root>div.sc-bdvvtL.jVRBrf>section.homepage-container>div.text-container>p',
        { color: 'rgb(105, 105, 105)' },
        'Millions',
      ],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    expect(changes.map((change) => change.kind)).toEqual(['changed', 'changed']);
    expect(changeOf(changes, '.text-container p').words).toBe(
      `.text-container p: color #000 → #696969 — src/Home.style.jsx (commit ${commitOf(code, 'css')})`,
    );
    expect(changeOf(changes, 'StyledDiv (Home.style.jsx)').properties).toEqual([
      { property: 'position', before: 'static', after: 'absolute' },
    ]);
    expect(changes.map((change) => change.words).join('\n')).not.toMatch(/sc-|cVkeIL|jVRBrf/);
  });

  it('pairs a styled component with the one that holds what it holds, when another of its tag came into the capture before it', async () => {
    const code = await branch({ 'src/Home.style.jsx': home('#000', 'static') }, [
      { subject: 'css', files: { 'src/Home.style.jsx': home('#696969', 'static') } },
    ]);
    const hero = (hash: string) => `html>body>div#root>div.sc-gsDKAQ.${hash}`;
    const text = '>section.homepage-container>div.text-container>p';
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      [hero('cVkeIL')],
      [`${hero('cVkeIL')}${text}`, { color: 'rgb(0, 0, 0)' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div.sc-bdvvtL.eDLYbF'],
      ['html>body>div#root>div.sc-bdvvtL.eDLYbF>nav.inner-nav'],
      [hero('jVRBrf')],
      [`${hero('jVRBrf')}${text}`, { color: 'rgb(105, 105, 105)' }],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    expect(changes.map((change) => `${change.kind} ${change.path}`)).toEqual([
      'added html>body>div#root>div.sc-bdvvtL.eDLYbF',
      `changed ${hero('jVRBrf')}${text}`,
    ]);
  });
});

describe('attribution: emotion', () => {
  const card = (padding: string) => `import styled from '@emotion/styled';

export const Panel = styled.section\`
  padding: ${padding};
\`;
`;

  it("pairs and names an emotion component without the class made from its styles' hash, which changed with them", async () => {
    const code = await branch({ 'src/Panel.jsx': card('16px') }, [{ subject: 'Panel: roomier', files: { 'src/Panel.jsx': card('24px') } }]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>main'],
      ['html>body>main>section.css-1q2w3e', { padding: '16px' }],
      ['html>body>main>section.css-1q2w3e>h2', {}, 'Plans'],
      ['html>body>main>button.css-9i8u7y-PrimaryButton', { padding: '8px' }, 'Buy'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>main'],
      ['html>body>main>section.css-4r5t6y', { padding: '24px' }],
      ['html>body>main>section.css-4r5t6y>h2', {}, 'Plans'],
      ['html>body>main>button.css-0o9i8u-PrimaryButton', { padding: '12px' }, 'Buy'],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    expect(changes.map((change) => `${change.kind} ${change.element}`)).toEqual(['changed Panel (Panel.jsx)', 'changed PrimaryButton']);
    expect(changes[0].cause).toEqual({
      file: 'src/Panel.jsx',
      commit: commitOf(code, 'Panel: roomier'),
      line: 'padding: 24px;',
      component: 'Panel',
    });
    expect(changes.map((change) => change.words).join('\n')).not.toMatch(/css-/);
  });
});

describe('attribution: scoped component styles', () => {
  const home = (radius: string) => `<section class="about">
  <img class="pic" src="/me.jpg" alt="me" />
</section>

<style>
  .pic {
    border-radius: ${radius};
  }
</style>
`;

  // Svelte's scoping class is the hash of the component's CSS (a new one on each edit); vite-plugin-svelte's in development, of its file's name.
  it.each([
    ['Svelte', 'svelte-1x2y3z', 'svelte-9k8j7h'],
    ['vite-plugin-svelte in development', 's-fL3EmgvQ81YT', 's-fL3EmgvQ81YT'],
  ])("pairs and names a %s component's element as its template writes it, without the scoping class", async (_, before, after) => {
    const code = await branch({ 'src/Home.svelte': home('12px') }, [
      { subject: 'rounder photo', files: { 'src/Home.svelte': home('18px') } },
    ]);
    const side = (scope: string, radius: string) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>main'],
        [`html>body>main>section.about.${scope}`],
        [`html>body>main>section.about.${scope}>img.pic.${scope}`, { 'border-radius': radius }],
      ]);
    const { changes } = explainChange(side(before, '12px'), side(after, '18px'), ALL, code);

    expect(changes.map((change) => `${change.kind} ${change.element}`)).toEqual(['changed img.pic']);
    expect(changes[0].words).toBe(`img.pic: border-radius 12px → 18px — src/Home.svelte (commit ${commitOf(code, 'rounder photo')})`);
  });
});

describe('attribution: markup rendered from data', () => {
  const card = (wrapped: boolean) => `import styles from './card.module.css';

export const Card = ({ project }) => (
${wrapped ? '  <div className={styles.cardWrapper}>\n' : ''}    <div className={styles.container}>
      <img className={styles.image} src={project.imageSrc} alt="" />
    </div>
${wrapped ? '  </div>\n' : ''});
`;
  const data = (image: string) => `[\n  {\n    "title": "Cartoon DB",\n    "imageSrc": "projects/${image}"\n  }\n]\n`;
  const sheet = '.cardWrapper {\n  padding: 8px;\n}\n.container {\n  display: flex;\n}\n.image {\n  width: 100%;\n}\n';

  it("compares what a new wrapper holds with what sat in its place, and credits a picture's new address to the data line that writes it", async () => {
    const code = await branch(
      { 'src/Card.jsx': card(false), 'src/card.module.css': sheet, 'src/data/projects.json': data('project.png') },
      [
        {
          subject: 'Cards: wrapped, with photos',
          files: { 'src/Card.jsx': card(true), 'src/card.module.css': `${sheet}\n`, 'src/data/projects.json': data('cartoonDB.png') },
        },
      ],
    );
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div._container_ab12c_4'],
      ['html>body>div#root>div._container_ab12c_4>img._image_ab12c_7', { src: '/assets/projects/project.png' }],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div._cardWrapper_xy34z_1', { padding: '8px' }],
      ['html>body>div#root>div._cardWrapper_xy34z_1>div._container_xy34z_4'],
      ['html>body>div#root>div._cardWrapper_xy34z_1>div._container_xy34z_4>img._image_xy34z_7', { src: '/assets/projects/cartoonDB.png' }],
    ]);
    const { changes } = explainChange(base, current, ALL, code);
    const commit = commitOf(code, 'Cards: wrapped, with photos');

    expect(changes.map((change) => `${change.kind} ${change.element}`)).toEqual([
      'added div.cardWrapper (card.module.css)',
      'changed img.image (card.module.css)',
    ]);
    expect(changes[0].cause).toEqual({ file: 'src/Card.jsx', commit, line: '<div className={styles.cardWrapper}>' });
    expect(changes[1].properties).toEqual([
      { property: 'src', before: '/assets/projects/project.png', after: '/assets/projects/cartoonDB.png' },
    ]);
    expect(changes[1].cause).toEqual({ file: 'src/data/projects.json', commit, line: '"imageSrc": "projects/cartoonDB.png"' });
  });
});

describe('attribution: markup rendered from data, added', () => {
  const skills = (names: string[]) => `[\n${names.map((name) => `  {\n    "title": "${name}"\n  }`).join(',\n')}\n]\n`;
  const list = `import styles from './experience.module.css';
import skills from './skills.json';

export const Experience = () => (
  <div className={styles.skills}>
    {skills.map((skill) => (
      <div className={styles.skill} key={skill.title}>
        <p>{skill.title}</p>
      </div>
    ))}
  </div>
);
`;
  const card = `import styles from './card.module.css';

export const Card = ({ title }) => (
  <div className={styles.card}>
    <p>{title}</p>
  </div>
);
`;

  it('credits an element a data file adds to the line that holds a text inside it, not to a template that only shares its tag', async () => {
    const code = await branch({ 'src/Experience.jsx': list, 'src/skills.json': skills(['React']), 'src/Card.jsx': card }, [
      {
        subject: 'Skills: Python too',
        files: {
          'src/skills.json': skills(['React', 'Python']),
          'src/Card.jsx': card.replace('<p>{title}</p>', '<p>{title}</p>\n    <div className={styles.links} />'),
        },
      },
    ]);
    const tile = (n: number) => `html>body>div#root>div._skills_11tww_26>div._skill_11tww_30:${n}`;
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div._skills_11tww_26'],
      [tile(1)],
      [`${tile(1)}>p`, {}, 'React'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>div#root'],
      ['html>body>div#root>div._skills_11tww_26'],
      [tile(1)],
      [`${tile(1)}>p`, {}, 'React'],
      [tile(2)],
      [`${tile(2)}>p`, {}, 'Python'],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    expect(changes.map((change) => `${change.kind} ${change.element}`)).toEqual(['added div.skill']);
    expect(changes[0].cause).toEqual({ file: 'src/skills.json', commit: commitOf(code, 'Skills: Python too'), line: '"title": "Python"' });
  });
});

describe('attribution: one element, two commits', () => {
  const sheet = (colour: string, size: string) => `.text-container p {\n  color: ${colour};\n  font-size: ${size};\n}\n`;

  it('says an element whose properties two commits changed once per commit, each with its own properties', async () => {
    const code = await branch({ 'src/home.css': sheet('#000', '16px') }, [
      { subject: 'css', files: { 'src/home.css': sheet('#696969', '16px') } },
      { subject: 'small css change', files: { 'src/home.css': sheet('#696969', '19.2px') } },
    ]);
    const path = 'html>body>section>div.text-container>p';
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>section'],
      ['html>body>section>div.text-container'],
      [path, { 'font-size': '16px' }, 'Millions'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>section'],
      ['html>body>section>div.text-container'],
      [path, { color: 'rgb(105, 105, 105)', 'font-size': '19.2px' }, 'Millions'],
    ]);
    const { changes } = explainChange(base, current, ALL, code);

    expect(changes.map((change) => change.words)).toEqual([
      `.text-container p: color #1d2433 → #696969 — src/home.css (commit ${commitOf(code, 'css')})`,
      `.text-container p: font-size 16px → 19.2px — src/home.css (commit ${commitOf(code, 'small css change')})`,
    ]);
  });
});

describe('attribution: a component option', () => {
  const app = (width: number) => `import Meter from './Meter.jsx';

export default function App() {
  return (
    <section className="usage">
      <Meter width={${width}} />
    </section>
  );
}
`;

  it("credits a widget's new size to the changed tag of the component it is named after, when that tag sets the size as a prop", async () => {
    const code = await branch({ 'src/App.jsx': app(120) }, [{ subject: 'Usage: a wider meter', files: { 'src/App.jsx': app(180) } }]);
    const base = page([
      ['html'],
      ['html>body'],
      ['html>body>section.usage'],
      ['html>body>section.usage>div.meter'],
      ['html>body>div.gauge'],
    ]);
    const current = page([
      ['html'],
      ['html>body'],
      ['html>body>section.usage'],
      ['html>body>section.usage>div.meter'],
      ['html>body>div.gauge'],
    ]);
    current.elements[3].box = [0, 60, 180, 12];
    base.elements[3].box = [0, 60, 120, 12];
    current.elements[4].box = [0, 80, 300, 12];
    base.elements[4].box = [0, 80, 200, 12];
    const { changes } = explainChange(base, current, ALL, code);

    expect(changeOf(changes, '.meter').cause).toEqual({
      file: 'src/App.jsx',
      commit: commitOf(code, 'Usage: a wider meter'),
      line: '<Meter width={180} />',
    });
    // Not named after the component: its new width proves nothing here.
    expect(changeOf(changes, '.gauge').cause).toBeNull();
  });
});

describe('attribution: what is not read', () => {
  it('says a style sheet it could not parse was not read, instead of "no changed file mentions"', async () => {
    const code = await branch({ 'src/theme.sass': '.card\n  padding: 8px\n' }, [
      { subject: 'Cards: roomier', files: { 'src/theme.sass': '.card\n  padding: 12px\n' } },
    ]);
    const [before, after] = ['8px', '12px'].map((padding) => page([['html'], ['html>body'], ['html>body>div.panel', { padding }]]));
    expect(explainChange(before, after, ALL, code).changes[0].words).toMatch(
      / — not attributed: src\/theme\.sass is in an indented style syntax \(Sass, Stylus\) no parser here reads$/,
    );
  });

  it('says a file too large to read was not read', async () => {
    const bundle = (padding: string) => `${'.x{color:red}'.repeat(90_000)}\n.panel{padding:${padding}}\n`;
    const code = await branch({ 'public/vendor.css': bundle('8px') }, [
      { subject: 'Vendor: update', files: { 'public/vendor.css': bundle('12px') } },
    ]);
    const [before, after] = ['8px', '12px'].map((padding) => page([['html'], ['html>body'], ['html>body>div.card', { padding }]]));
    expect(code).toEqual([{ file: 'public/vendor.css', commit: null, lines: [], uses: [], unread: 'is larger than 1 MiB: not read' }]);
    expect(explainChange(before, after, ALL, code).changes[0].words).toMatch(
      / — not attributed: public\/vendor\.css is larger than 1 MiB: not read$/,
    );
  });

  it('never offers a large picture file it could not read as the cause of a text colour', async () => {
    const picture = (seed: number) => Buffer.alloc(1_100_000, seed).toString('latin1');
    const code = await branch({ 'static/gallery/fighter.webp': picture(1) }, [
      { subject: 'Gallery: a new photo', files: { 'static/gallery/fighter.webp': picture(2) } },
    ]);
    const [before, after] = ['rgb(23, 45, 147)', 'rgb(104, 126, 235)'].map((color) =>
      page([['html'], ['html>body'], ['html>body>p.subtitle', { color }]]),
    );
    expect(code.map((change) => change.unread)).toEqual(['is larger than 1 MiB: not read']);
    const words = explainChange(before, after, ALL, code).changes[0].words;
    expect(words).toMatch(/^\.subtitle: color #172d93 → #687eeb/);
    expect(words).not.toContain('fighter.webp');
  });
});

describe('attribution: two commits on one line', () => {
  it('credits a text to the commit that changed it, not a later one that changed only the same line’s link', async () => {
    const navbar = (href: string, title: string) => `import styles from './navbar.module.css';

export const Navbar = () => (
  <nav className={styles.navbar}>
    <a href="${href}" className={styles.title}>${title}</a>
  </nav>
);
`;
    const code = await branch({ 'src/components/navbar.jsx': navbar('/', 'Portfolio') }, [
      { subject: 'Navbar: my name as the title', files: { 'src/components/navbar.jsx': navbar('/', 'Eryn Craig') } },
      { subject: 'fixing small error', files: { 'src/components/navbar.jsx': navbar('#hero', 'Eryn Craig') } },
    ]);
    const [base, current] = ['Portfolio', 'Eryn Craig'].map((title) =>
      page([['html'], ['html>body'], ['html>body>nav.navbar'], ['html>body>nav.navbar>a.title', {}, title]]),
    );
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.properties.map((p) => p.property)).toEqual(['text']);
    expect(change.cause?.commit).toBe(commitOf(code, 'Navbar: my name as the title'));
  });

  it('credits a margin to the commit whose rule made it, never to one that dropped a declaration an earlier commit of the branch added', async () => {
    const sheet = (main: string) => `.navbar__item {
  margin: 0;
  &--main {
    padding: 0;${main}
  }
}
`;
    const code = await branch({ 'src/Navbar.scss': '.navbar__item {\n  margin-right: 3rem;\n}\n' }, [
      { subject: 'navbar dropdown, button animations', files: { 'src/Navbar.scss': sheet('\n    margin-left: 2rem;') } },
      { subject: 'minor fix', files: { 'src/Navbar.scss': sheet('') } },
    ]);
    const item = 'html>body>nav>ul>li.navbar__item.navbar__item--main';
    const [base, current] = ['0px 30px 0px 0px', '0px'].map((margin) =>
      page([['html'], ['html>body'], ['html>body>nav'], ['html>body>nav>ul'], [item, { margin }]]),
    );
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.properties.map((p) => p.property)).toEqual(['margin']);
    expect(change.cause?.commit).toBe(commitOf(code, 'navbar dropdown, button animations'));
  });
});

describe('attribution: a name that grows', () => {
  it('credits a text that grew (`Lumen` → `Lumen Cloud`) to the commit that grew it, not to a later one that gave the same line a tooltip', async () => {
    const navbar = (brand: string, title: string) =>
      `export const Navbar = () => (\n  <nav className="flex bg-[#4C1D95]">\n    <strong className="text-lg"${title}>${brand}</strong>\n  </nav>\n);\n`;
    const code = await branch({ 'src/Navbar.jsx': navbar('Lumen', '') }, [
      { subject: "Navbar: the brand's full name", files: { 'src/Navbar.jsx': navbar('Lumen Cloud', '') } },
      { subject: 'Navbar: a tooltip on the brand', files: { 'src/Navbar.jsx': navbar('Lumen Cloud', ' title="Lumen Cloud home"') } },
    ]);
    const [base, current] = ['Lumen', 'Lumen Cloud'].map((brand) =>
      page([['html'], ['html>body'], ['html>body>nav.flex.bg-[#4C1D95]'], ['html>body>nav.flex.bg-[#4C1D95]>strong.text-lg', {}, brand]]),
    );
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.cause?.commit).toBe(commitOf(code, "Navbar: the brand's full name"));
  });
});

describe('attribution: a picture on a grid of cards', () => {
  it("credits an image's new picture to the line of its tag that writes it, though its classes are on every card", async () => {
    const cards = (pictures: string[]) => `<div class="grid">
${pictures.map((src) => `  <div class="card">\n    <img\n      src="${src}"\n      class="h-full w-full object-cover"\n    />\n  </div>`).join('\n')}
</div>
`;
    const layout = (padding: string) =>
      `<script>\n  let onScroll = false;\n</script>\n\n<main class="min-h-screen ${padding}"><slot /></main>\n`;
    const code = await branch(
      {
        'src/routes/+page.svelte': cards(['/laptop-1.webp', '/phone-1.webp', '/laptop-2.webp']),
        'src/routes/+layout.svelte': layout('p-4'),
      },
      [
        {
          subject: 'Projects: new pictures',
          files: { 'src/routes/+page.svelte': cards(['adshotel.webp', 'tools.webp', 'simply-ai.webp']) },
        },
        {
          subject: 'Layout: roomier',
          files: { 'src/routes/+layout.svelte': layout('p-6').replace('onScroll = false', 'onScroll = scrollY > 0') },
        },
      ],
    );
    const img = (i: number) => `html>body>main.min-h-screen>div.grid>div.card:${i}>img.h-full.w-full.object-cover`;
    const [base, current] = [
      ['/laptop-1.webp', '/phone-1.webp', '/laptop-2.webp'],
      ['/adshotel.webp', '/tools.webp', '/simply-ai.webp'],
    ].map((pictures) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>main.min-h-screen'],
        ['html>body>main.min-h-screen>div.grid'],
        ...pictures.flatMap((src, i): Drawn[] => [[`html>body>main.min-h-screen>div.grid>div.card:${i + 1}`], [img(i + 1), { src }]]),
      ]),
    );
    const changes = explainChange(base, current, ALL, code).changes.filter((change) => change.properties.some((p) => p.property === 'src'));
    expect(changes).toHaveLength(3);
    for (const change of changes) {
      expect(change.cause?.file).toBe('src/routes/+page.svelte');
      expect(change.cause?.commit).toBe(commitOf(code, 'Projects: new pictures'));
    }
  });
});

describe('attribution: a text written in one component, a prop in another', () => {
  it('credits a changed sentence to the component that writes it, not to a card whose same tag shows a prop', async () => {
    const hero = (years: number) => `import styles from './hero.module.css';

export const Hero = () => (
  <div className={styles.hero}>
    <p className={styles.description}>I’m a full-stack developer with ${years} years
      of experience using React and NodeJS.</p>
  </div>
);
`;
    const card = (wrapper: string) => `import styles from './project-card.module.css';

export const ProjectCard = ({ description }) => (
  <div className={styles.${wrapper}}>
    <p className={styles.description}>{description}</p>
  </div>
);
`;
    const code = await branch({ 'src/components/Hero/hero.jsx': hero(5), 'src/components/Projects/project-card.jsx': card('card') }, [
      {
        subject: 'finalized secure email form and styling',
        files: {
          'src/components/Hero/hero.jsx': hero(3),
          'src/components/Projects/project-card.jsx': card('cardWrapper').replace('<p', '<p '),
        },
      },
    ]);
    const [base, current] = [5, 3].map((years) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>div._hero_1hepq_3'],
        [
          'html>body>div._hero_1hepq_3>p._description_1hepq_33',
          {},
          `I’m a full-stack developer with ${years} years of experience using React and NodeJS.`,
        ],
      ]),
    );
    const [change] = explainChange(base, current, ALL, code).changes;
    expect(change.properties.map((p) => p.property)).toEqual(['text']);
    expect(change.cause?.file).toBe('src/components/Hero/hero.jsx');
  });
});

describe('attribution: a theme colour a utility class reads', () => {
  const config = (frog: string, darkFrog: string) => `/** @type {import('tailwindcss').Config} */
module.exports = {
  content: ['./src/**/*.{html,js,svelte,ts}'],
  theme: {
    extend: {
      colors: {${darkFrog}
        frog: {
          800: '${frog}',
          900: '#0D1B59'
        }
      }
    }
  }
};
`;
  it('credits a colour to the commit whose palette entry writes the value it now shows, not "no changed file mentions"', async () => {
    // As on a SvelteKit + Tailwind portfolio: `text-frog-800` on the card's subtitle, its palette entry changed twice.
    const code = await branch({ 'tailwind.config.cjs': config('#172d93', '') }, [
      { subject: 'modal', files: { 'tailwind.config.cjs': config('#0063da', '') } },
      {
        subject: 'reduce exp',
        files: { 'tailwind.config.cjs': config('#687eeb', "\n        darkFrog: {\n          800: '#f7f7f7',\n        },") },
      },
    ]);
    const subtitle = 'html>body>section#Experience>div.special-card>p.special-card__subtitle.text-frog-800';
    const [before, after] = ['rgb(23, 45, 147)', 'rgb(104, 126, 235)'].map((color) =>
      page([
        ['html'],
        ['html>body'],
        ['html>body>section#Experience'],
        ['html>body>section#Experience>div.special-card'],
        [subtitle, { color }],
      ]),
    );
    const [change] = explainChange(before, after, ALL, code).changes;
    expect(change.words).toMatch(
      /^\.special-card__subtitle\.text-frog-800: color #172d93 → #687eeb — tailwind\.config\.cjs \(commit \w+ reduce exp\)$/,
    );
    // A colour the line does not write proves nothing: an element now #0063da is not this commit's.
    const other = page([
      ['html'],
      ['html>body'],
      ['html>body>section#Experience'],
      ['html>body>section#Experience>div.special-card'],
      [subtitle, { color: 'rgb(0, 99, 218)' }],
    ]);
    expect(explainChange(before, other, ALL, code).changes[0].cause).toBeNull();
  });
});

describe('attribution: Vue and Svelte templates (real commits, issue #48)', () => {
  it('credits a colour to the template line that gave the element its class, not to the palette entry the class reads', async () => {
    // As on a Vue 3 + Tailwind portfolio: one commit adds `forth` to the palette and `text-forth` to the name's class list.
    const app = (name: string) =>
      `<template>\n  <div class="flex flex-col gap-[15px] mt-[39px]">\n    <div class="${name}">賴世原 Tim</div>\n  </div>\n</template>\n`;
    const config = (colours: string) =>
      `export default {\n  theme: {\n    extend: {\n      colors: {\n        main: '#3A5267',${colours}\n      }\n    }\n  }\n};\n`;
    const code = await branch({ 'src/App.vue': app('text-center text-3xl font-black'), 'tailwind.config.js': config('') }, [
      {
        subject: 'feat: a fourth main colour',
        files: {
          'src/App.vue': app('text-center text-3xl font-black text-forth'),
          'tailwind.config.js': config("\n        forth: '#4F4F4F'"),
        },
      },
    ]);
    const column = 'html>body>div#app>div.flex.flex-col.gap-[15px].mt-[39px]';
    const [before, after] = [
      ['text-center.text-3xl.font-black', 'rgb(0, 0, 0)'],
      ['text-center.text-3xl.font-black.text-forth', 'rgb(79, 79, 79)'],
    ].map(([classes, color]) =>
      page([['html'], ['html>body'], ['html>body>div#app'], [column], [`${column}>div.${classes}`, { color }, '賴世原 Tim']]),
    );
    const [change] = explainChange(before, after, ALL, code).changes;
    expect(change.words).toMatch(/: color #000 → #4f4f4f — src\/App\.vue \(commit \w+ feat: a fourth main colour\)$/);
  });

  it('credits a padding to the template line that gave the element `px-8`, and its margin to the rule of the class it also gained', async () => {
    // As on a SvelteKit + Tailwind portfolio: the header's inner box swaps `max-w-7xl` for a project class and `px-8` in one commit.
    const header = (classes: string) =>
      `<header id="Header">\n  <div class="${classes}">\n    <a href="/" class="text-xl uppercase font-extrabold">Alex</a>\n  </div>\n</header>\n`;
    const styles = (rule: string) => `.special-card__subtitle {\n  @apply font-bold;\n}\n${rule}`;
    const code = await branch(
      {
        'src/lib/components/header/header.svelte': header('max-w-7xl flex justify-between w-full items-center h-full'),
        'src/styles/style.css': styles(''),
      },
      [
        {
          subject: 'Final style',
          files: {
            'src/lib/components/header/header.svelte': header('main-container flex justify-between w-full items-center h-full px-8'),
            'src/styles/style.css': styles('.main-container {\n  @apply container mx-auto;\n}\n'),
          },
        },
      ],
    );
    const inner = (classes: string, style: Record<string, string>) =>
      page([['html'], ['html>body'], ['html>body>header#Header'], [`html>body>header#Header>div.${classes}`, style]]);
    const before = inner('max-w-7xl.flex.justify-between.w-full.items-center.h-full', { 'max-width': '1280px', margin: '0px' });
    const after = inner('main-container.flex.justify-between.w-full.items-center.h-full.px-8', {
      'max-width': '1280px',
      margin: '0px 216px',
      padding: '0px 32px',
    });
    const words = explainChange(before, after, ALL, code).changes.map((change) =>
      change.words.replace(/^[^:]*: /, '').replace(/\(commit \w+ /, '('),
    );
    expect(words).toEqual([
      'padding 0px → 0px 32px — src/lib/components/header/header.svelte (Final style)',
      'margin 0px → 0px 216px — src/styles/style.css (Final style)',
    ]);
  });

  it('credits the width a box took from the size utility its line gave it, not to its bolder caption', async () => {
    // As on a Vue 3 + Tailwind portfolio: bare `<div>`s of two lines became a `v-for` of `<div class="w-[75px]">`.
    const app = (figures: string) => `<template>\n  <div class="flex justify-center gap-4 m-4">\n${figures}  </div>\n</template>\n`;
    const code = await branch({ 'src/App.vue': app('    <div>\n      <div>6Y+</div>\n      <div>工作經驗</div>\n    </div>\n') }, [
      {
        subject: 'feat: figures from data',
        files: {
          'src/App.vue': app(
            '    <div class="w-[75px]" v-for="item in personalData" :key="item">\n' +
              '      <div>{{ item.content }}</div>\n      <div class="text-forth font-black">{{ item.title }}</div>\n    </div>\n',
          ),
        },
      },
    ]);
    const row = 'html>body>div#app>div.flex.justify-center.gap-4.m-4';
    const figure = (box: string, caption: string, [x, width]: [number, number], weight: string): DrawnBox[] => [
      { path: 'html', box: [0, 0, 1280, 200] },
      { path: 'html>body', box: [0, 0, 1280, 200] },
      { path: 'html>body>div#app', box: [0, 0, 1280, 200] },
      { path: row, box: [0, 100, 1280, 48], style: { display: 'flex', 'justify-content': 'center', gap: '16px' } },
      { path: `${row}>${box}`, box: [x, 100, width, 48] },
      { path: `${row}>${box}>div${caption ? ':1' : ''}`, box: [x, 100, width, 24], text: '6Y+' },
      { path: `${row}>${box}>div${caption || ':2'}`, box: [x, 124, width, 24], text: '工作經驗', style: { 'font-weight': weight } },
    ];
    const [before, after] = [
      layoutRecord(figure('div', '', [621, 38], '400')),
      layoutRecord(figure('div.w-[75px]', '.text-forth.font-black', [602, 75], '900')),
    ];
    const { changes } = explainChange(before, after, [{ x: 602, y: 100, width: 75, height: 48 }], code);
    const wrapper = changes.find((change) => change.path === `${row}>div.w-[75px]`);
    expect(wrapper?.words).toMatch(/^\.w-\[75px\]: width 38 → 75 px — src\/App\.vue \(commit \w+ feat: figures from data\)$/);
  });

  it('credits the items a loop lists to the line whose loop now reads another list, and not to one that only restyled the loop', async () => {
    // As on a Vue 3 + Tailwind skills page: three columns render their lists alike; the back-end column read the UI list by mistake.
    const column = (list: string, margin = 'm-2') =>
      `    <div class="h-[200px] flex flex-col flex-wrap">\n      <div class="flex flex-col gap-2 ${margin}" v-for="item in ${list}" :key="item">\n` +
      '        <div class="flex items-center gap-2">{{ item }}</div>\n      </div>\n    </div>\n';
    const skills = (back: string, margin?: string) =>
      `<template>\n  <div class="flex gap-12">\n${column('frontEndData')}${column('uiData')}${column(back, margin)}  </div>\n</template>\n` +
      `<script setup>\nconst frontEndData = ['HTML', 'CSS', 'Vue', 'Sass'];\nconst backEndData = ['MySQL', 'PHP'];\n` +
      `const uiData = ['Figma', 'Wireframe', 'Prototype', 'Mockup'];\n</script>\n`;
    const skillsPage = (lists: string[][]): LayoutRecord => {
      const row = 'html>body>div#app>div.flex.gap-12';
      return page([
        ['html'],
        ['html>body'],
        ['html>body>div#app'],
        [row],
        ...lists.flatMap((list, c): Drawn[] => {
          const box = `${row}>div:${c + 1}>div.h-[200px].flex.flex-col.flex-wrap`;
          return [
            [`${row}>div:${c + 1}`],
            [box],
            ...list.flatMap((item, i): Drawn[] => [
              [`${box}>div.flex.flex-col.gap-2.m-2:${i + 1}`],
              [`${box}>div.flex.flex-col.gap-2.m-2:${i + 1}>div.flex.items-center.gap-2`, {}, item],
            ]),
          ];
        }),
      ]);
    };
    const lists = (back: string[]) => [['HTML', 'CSS', 'Vue', 'Sass'], ['Figma', 'Wireframe', 'Prototype', 'Mockup'], back];
    const code = await branch({ 'src/components/Skill.vue': skills('uiData') }, [
      { subject: 'fix: the back-end column lists backEndData', files: { 'src/components/Skill.vue': skills('backEndData') } },
    ]);
    const { changes } = explainChange(skillsPage(lists(lists([])[1])), skillsPage(lists(['MySQL', 'PHP'])), ALL, code);
    expect(changes.map((change) => change.words.split(' — ')[0])).toEqual([
      'div.flex-col.gap-2.m-2 removed (800×20)',
      ".flex.items-center.gap-2: text 'Figma' → 'MySQL'",
      ".flex.items-center.gap-2: text 'Wireframe' → 'PHP'",
    ]);
    for (const change of changes) expect(change.cause?.file).toBe('src/components/Skill.vue');
    // A commit that only gave the loop another margin did not change what it lists.
    const restyled = await branch({ 'src/components/Skill.vue': skills('backEndData') }, [
      { subject: 'style: more room', files: { 'src/components/Skill.vue': skills('backEndData', 'm-3') } },
    ]);
    const text = explainChange(skillsPage(lists(['MySQL'])), skillsPage(lists(['MariaDB'])), ALL, restyled).changes[0];
    expect(text.cause).toBeNull();
  });

  it('credits a logo taken out of the nav to the commit that moved it, not to the one that wrapped it in a link inside the nav', async () => {
    // As on a SvelteKit 2 portfolio: one commit wraps the nav's logo in a link, the next moves the logo out of the nav into the header.
    const header = (logo: string, inNav: string) =>
      `<script>\n  import Logo from '$lib/assets/logo.svg';\n</script>\n\n<header>\n${logo}    <nav class="effect">\n${inNav}` +
      '        <ul>\n            <li><a href="/">Home</a></li>\n        </ul>\n    </nav>\n</header>\n';
    const logo = '<img alt="personal logo" src={Logo}>';
    const code = await branch({ 'src/routes/components/Header.svelte': header('', `        ${logo}\n`) }, [
      { subject: 'added skill tree', files: { 'src/routes/components/Header.svelte': header('', `        <a href="/">${logo}</a>\n`) } },
      { subject: 'changed styling of navbar', files: { 'src/routes/components/Header.svelte': header(`    ${logo}\n`, '') } },
    ]);
    const scoped = 's-KroOyJhIMy1q';
    const [top, nav] = [`html>body>div>header.${scoped}`, `html>body>div>header.${scoped}>nav.effect.${scoped}`];
    const drawn = (logoAt: string, navX: number): DrawnBox[] => [
      { path: 'html', box: [0, 0, 1440, 201] },
      { path: 'html>body', box: [0, 0, 1440, 201] },
      { path: 'html>body>div', box: [0, 0, 1440, 201] },
      { path: top, box: [0, 0, 1440, 201] },
      ...(logoAt === top ? [{ path: `${top}>img.${scoped}`, box: [0, 16, 210, 185] as DrawnBox['box'] }] : []),
      { path: nav, box: [navX, 0, 1440 - navX, 201] },
      ...(logoAt === nav ? [{ path: `${nav}>img.${scoped}`, box: [0, 16, 210, 185] as DrawnBox['box'] }] : []),
      { path: `${nav}>ul`, box: [navX + 402, 80, 400, 40] },
    ];
    const { changes } = explainChange(layoutRecord(drawn(nav, 0)), layoutRecord(drawn(top, 690)), ALL, code);
    expect(changes.map((change) => `${change.kind} ${change.element} — ${change.cause?.commit?.replace(/^\w+ /, '')}`)).toEqual([
      'added header img — changed styling of navbar',
      'removed nav.effect img — changed styling of navbar',
    ]);
  });
});

describe('attribution: a home page whose nav became sticky and whose two columns became one line (real commits, issue #48)', () => {
  // DiegoBravoTorres/react-css-modules at 1280 px: "tap intro" replaces two react-bootstrap columns by one paragraph; "Sticky nav"
  // makes the nav `position: fixed`, so the page slides up 71 px under it. Boxes, classes and regions as that run recorded them.
  const home = (intro: boolean) => `import React, { Component } from 'react';
import { Row, Col } from 'react-bootstrap';
import styles from './home.module.css';

class Home extends Component {
  render() {
    return (
      <div>
        <div className={styles.secondary}>
          <Col md={12} sm={12} xs={12}>
            <h2>Just Keep Tapping</h2>
          </Col>
${
  intro
    ? `          <Row>
            <p>
              Tap, get the ingredient list and instructions
            </p>
          </Row>`
    : `          <Row>
            <Col md={6} sm={12} xs={12}>
              <p>
                <strong>Tap 1 </strong> Get the ingredient list
              </p>
            </Col>
            <Col md={6} sm={12} xs={12}>
              <p>
                <strong>Tap 2 </strong>Get the instructions
              </p>
            </Col>
          </Row>`
}
        </div>
        <div className={styles.sections}>
          <h2>Start Mixing</h2>
        </div>
      </div>
    );
  }
}

export default Home;
`;
  const nav = (sticky: boolean) => `.navbar {
  display: flex;
  background-color: #f8f9fa;
  text-align: center;
${sticky ? '  position: fixed;\n  width: 100%;\n  top: 0;\n  z-index: 10000;\n' : ''}}
`;
  const root = 'html>body>div#root>div.App_App__B2Ebb>div';
  const secondary = `${root}>div.home_secondary__9fQd2`;
  const column = (n: number) => `${secondary}>div.row>div.col-md-6.col-sm-12.col-12:${n}`;
  // The wrapper round the nav keeps no box once the nav is fixed: the current record has the nav, not its parent.
  const page = (after: boolean): LayoutRecord => {
    const up = after ? 71 : 0;
    const drawn: DrawnBox[] = [
      { path: 'html', box: [0, 0, 1280, 941 - up] },
      { path: 'html>body', box: [0, 0, 1280, 941 - up] },
      { path: 'html>body>div#root', box: [0, 0, 1280, 941 - up] },
      { path: 'html>body>div#root>div.App_App__B2Ebb', box: [0, 0, 1280, 941 - up] },
      { path: root, box: [0, 0, 1280, 941 - up] },
      ...(after ? [] : [{ path: `${root}>div.App`, box: [0, 0, 1280, 71] } as DrawnBox]),
      {
        path: `${root}>div.App>div.nav_navbar__4sQ6A`,
        box: [0, 0, 1280, 71],
        style: { display: 'flex', ...(after ? { position: 'fixed', 'z-index': '10000' } : {}) },
      },
      { path: `${root}>div.App>div.nav_navbar__4sQ6A>img.nav_title__xMF9t`, box: [545, 10, 176, 50] },
      { path: `${root}>div.container`, box: [70, 71 - up, 1140, 390] },
      { path: secondary, box: [0, 461 - up, 1280, 147] },
      { path: `${secondary}>div.col-md-12.col-sm-12.col-12`, box: [100, 491 - up, 1080, 36] },
      { path: `${secondary}>div.col-md-12.col-sm-12.col-12>h2`, box: [100, 491 - up, 1080, 36], text: 'Just Keep Tapping' },
      { path: `${secondary}>div.row`, box: [88, 535 - up, 1104, 43], style: { display: 'flex' } },
      ...(after
        ? [
            {
              path: `${secondary}>div.row>p`,
              box: [98, 474, 1104, 23],
              text: 'Tap, get the ingredient list and instructions',
              style: { padding: '0px 12px', 'max-width': '100%' },
            } as DrawnBox,
          ]
        : [1, 2].flatMap((n): DrawnBox[] => [
            { path: column(n), box: [88 + (n - 1) * 552, 535, 552, 43] },
            {
              path: `${column(n)}>p`,
              box: [110 + (n - 1) * 552, 545, 508, 23],
              text: n === 1 ? 'Get the ingredient list' : 'Get the instructions',
            },
            { path: `${column(n)}>p>strong`, box: [272 + (n - 1) * 558, 547, 42, 17], text: `Tap ${n}`, style: { display: 'inline' } },
          ])),
      { path: `${root}>div.home_sections__NawSL`, box: [0, 607 - up, 1280, 208] },
      { path: `${root}>div.home_sections__NawSL>h2`, box: [100, 677 - up, 1080, 76], text: 'Start Mixing' },
      { path: `${root}>div.nav_footer__AD3CK`, box: [0, 892 - up, 1280, 50], text: 'Site by Diego Bravo Torres' },
    ];
    return layoutRecord(drawn, 1280, after ? 900 : 941);
  };
  // The diff's regions: the 71 rows the page lost (drawn where they went), the new line's words, rows gained at the page's foot.
  const regions = regionsOf(
    [0, 86, 1280, 71, 'removed'],
    [514, 480, 275, 12, 'modified'],
    [276, 481, 179, 12, 'modified'],
    [834, 481, 167, 12, 'modified'],
    [0, 832, 1280, 29, 'added'],
  );
  const replayed = () =>
    branch({ 'src/components/home/home.js': home(false), 'src/components/nav/nav.module.css': nav(false) }, [
      { subject: 'tap intro', files: { 'src/components/home/home.js': home(true) } },
      { subject: 'Sticky nav', files: { 'src/components/nav/nav.module.css': nav(true) } },
    ]);

  it('says the new line added and both columns removed, where the page slid up under the nav: a removed box meets regions where its rows were compared', async () => {
    const code = await replayed();
    const { changes } = explainChange(page(false), page(true), regions, code);
    const intro = `src/components/home/home.js (commit ${commitOf(code, 'tap intro')})`;
    expect(changes.filter((change) => change.path.includes('home_secondary')).map((change) => change.words)).toEqual([
      `.row p added (1104×23) in .row — ${intro}`,
      `.col-md-6.col-sm-12.col-12 removed (552×43) — ${intro}`,
      `.col-md-6.col-sm-12.col-12 removed (552×43) — ${intro}`,
    ]);
  });

  it('says the nav made fixed and the page it let slide up 71 px, from its rule; its wrapper, left with no box, neither came nor went', async () => {
    const code = await replayed();
    const explanation = explainChange(page(false), page(true), regions, code);
    const navbar = explanation.changes.find((change) => change.path.endsWith('div.nav_navbar__4sQ6A'));
    expect(navbar?.words).toBe(
      `div.navbar (nav.module.css): position static → fixed, z-index auto → 10000; what is below it moved up 71 px — src/components/nav/nav.module.css (commit ${commitOf(code, 'Sticky nav')})`,
    );
    expect(navbar?.regions).toEqual([0, 4]);
    expect(explanation.changes.map((change) => change.element)).not.toContain('.App');
    expect(explanation.unexplained).toEqual([]);
  });
});

describe('attribution: a responsive rewrite that renders a new small navbar in place of the wide one (real commits, issue #48)', () => {
  // Jiaying330/Disney-Home-page at 900 px: "responsive" makes Navbar return <NavbarSmall /> at ≤1100 px (its <nav className="navbar">
  // unchanged below), NavbarSmall.jsx new; "responsive navbar finished" adds a menu inside the small nav, behind `{checked && (`.
  const navbar = (small: boolean) => `import React, { useState } from "react";
import "./Navbar.scss";
${small ? 'import NavbarSmall from "./NavbarSmall";\n' : ''}
export default function Navbar() {
${small ? '  const [width] = useState(window.innerWidth);\n  if (width <= 1100) {\n    return <NavbarSmall />;\n  }\n' : ''}  return (
    <nav className="navbar">
      <div className="navbar__left">
        <ul className="navbar__list">
          <li className="navbar__item">Disney+</li>
        </ul>
      </div>
      <div className="navbar__right">
        <button className="navbar__search">Search</button>
      </div>
    </nav>
  );
}
`;
  const small = (menu: boolean) => `import React, { useState } from "react";
import "./NavbarSmall.scss";

export default function NavbarSmall() {
  const [checked] = useState(false);
  return (
    <nav className="navbar-small">
      <ul className="navbar-small__list">
        <li className="navbar-small__item">Disney+</li>
      </ul>
${menu ? '      {checked && (\n        <div className="navbar-small__menu">\n          <a href="#">Movies</a>\n        </div>\n      )}\n' : ''}    </nav>
  );
}
`;
  const page = (after: boolean): LayoutRecord =>
    layoutRecord(
      [
        { path: 'html', box: [after ? 0 : -20, 0, 900, after ? 5124 : 4084] },
        { path: 'html>body', box: [after ? 0 : -20, 0, 900, after ? 5124 : 4084] },
        { path: 'html>body>div#root', box: [after ? 0 : -20, 0, 900, after ? 5124 : 4084] },
        ...(after
          ? ([
              { path: 'html>body>div#root>nav.navbar-small', box: [0, 0, 900, 60], style: { position: 'relative' } },
              { path: 'html>body>div#root>nav.navbar-small>ul.navbar-small__list', box: [20, 5, 860, 50], style: { display: 'flex' } },
              {
                path: 'html>body>div#root>nav.navbar-small>ul.navbar-small__list>li.navbar-small__item',
                box: [390, 18, 120, 24],
                text: 'Disney+',
              },
            ] satisfies DrawnBox[])
          : ([
              { path: 'html>body>div#root>nav.navbar', box: [0, 0, 860, 61], style: { display: 'flex' } },
              { path: 'html>body>div#root>nav.navbar>div.navbar__left', box: [0, 0, 432, 61] },
              { path: 'html>body>div#root>nav.navbar>div.navbar__left>ul.navbar__list', box: [0, 0, 432, 61], style: { display: 'flex' } },
              {
                path: 'html>body>div#root>nav.navbar>div.navbar__left>ul.navbar__list>li.navbar__item',
                box: [0, 0, 100, 60],
                text: 'Disney+',
              },
              { path: 'html>body>div#root>nav.navbar>div.navbar__right', box: [493, 0, 367, 61] },
              { path: 'html>body>div#root>nav.navbar>div.navbar__right>button.navbar__search', box: [700, 15, 160, 30], text: 'Search' },
            ] satisfies DrawnBox[])),
      ],
      after ? 900 : 860,
      after ? 60 : 61,
    );
  // The navbar capture's regions: a new column at the right, the rest of the bar redrawn.
  const regions = regionsOf([860, 0, 40, 60, 'added'], [1, 5, 859, 46, 'modified']);

  it('says the wide nav removed by the early return of its component and the small one added by its new file, not one nav restyled', async () => {
    const code = await branch({ 'src/components/Navbar.jsx': navbar(false) }, [
      { subject: 'responsive', files: { 'src/components/Navbar.jsx': navbar(true), 'src/components/NavbarSmall.jsx': small(false) } },
      { subject: 'responsive navbar finished', files: { 'src/components/NavbarSmall.jsx': small(true) } },
    ]);
    const { changes } = explainChange(page(false), page(true), regions, code);
    const responsive = `commit ${commitOf(code, 'responsive')}`;
    expect(changes.map((change) => change.words)).toEqual([
      `.navbar-small added (900×60) in #root — src/components/NavbarSmall.jsx (${responsive})`,
      `.navbar removed (860×61) — src/components/Navbar.jsx (${responsive})`,
    ]);
  });
});

describe('attribution: new sizes a media query sets outright (real commits, issue #48)', () => {
  // Jiaying330/Disney-Home-page's hero at 900 px: "responsive" adds `@media (max-width: 930px)` rules that set the hero's height, the
  // image's width and height, the overlay's height; "responsive navbar finished" then changes only the image's transform.
  const sheet = (transform: string | null) => `.hero {
  position: relative;
  height: 43vh;

  &__img {
    position: absolute;
    height: 100%;
  }

  &__overlay {
    position: absolute;
    width: 100%;
    height: 100%;
  }

  &__descriptions-container {
    display: flex;
    width: 50%;
  }
}
${
  transform
    ? `
@media (max-width: 930px) {
  .hero {
    height: 100vh;

    &__img {
      height: 60%;
      width: 100vw;
      left: 0;
      transform: ${transform};
    }

    &__overlay {
      height: 60%;
      bottom: 0;
    }
  }
}
`
    : ''
}`;
  const hero = (after: boolean): LayoutRecord =>
    layoutRecord(
      [
        { path: 'html', box: [0, -130, 900, after ? 5124 : 4084] },
        { path: 'html>body', box: [0, -130, 900, after ? 5124 : 4084] },
        { path: 'html>body>div#root', box: [0, -130, 900, after ? 5124 : 4084] },
        { path: 'html>body>div#root>section.hero', box: [0, 0, 900, after ? 1000 : 387], style: { position: 'relative' } },
        {
          path: 'html>body>div#root>section.hero>img.hero__img',
          box: after ? [0, -130, 900, 600] : [410, 0, 581, 387],
          style: { position: 'absolute', transform: after ? 'matrix(1, 0, 0, 1, 0, -30)' : 'matrix(1, 0, 0, 1, 90, 0)' },
        },
        {
          path: 'html>body>div#root>section.hero>div.hero__overlay',
          box: after ? [0, 400, 900, 600] : [0, 0, 900, 387],
          style: { position: 'absolute' },
        },
        {
          path: 'html>body>div#root>section.hero>div.hero__overlay>div.hero__descriptions-container',
          box: after ? [0, 400, 450, 600] : [0, 0, 450, 387],
          style: { display: 'flex' },
        },
      ],
      900,
      after ? 1000 : 387,
    );
  const regions = regionsOf([0, 0, 900, 613, 'added'], [115, 613, 785, 387, 'modified']);

  it("says the hero's and the overlay's new heights, and the image's new size apart from the later commit's transform", async () => {
    const code = await branch({ 'src/components/Hero.scss': sheet(null) }, [
      { subject: 'responsive', files: { 'src/components/Hero.scss': sheet('translateY(-5rem)') } },
      { subject: 'responsive navbar finished', files: { 'src/components/Hero.scss': sheet('translateY(-3rem)') } },
    ]);
    const { changes } = explainChange(hero(false), hero(true), regions, code);
    const [responsive, finished] = ['responsive', 'responsive navbar finished'].map(
      (subject) => `src/components/Hero.scss (commit ${commitOf(code, subject)})`,
    );
    expect(changes.map((change) => change.words)).toEqual([
      `.hero__img: transform matrix(1, 0, 0, 1, 90, 0) → matrix(1, 0, 0, 1, 0, -30) — ${finished}`,
      `.hero__img: width 581 → 900 px, height 387 → 600 px — ${responsive}`,
      `.hero: height 387 → 1000 px — ${responsive}`,
      `.hero__overlay: height 387 → 600 px — ${responsive}`,
    ]);
  });
});

describe('attribution: a picture a list gained', () => {
  const gallery = (images: string[], img: string) => `<script lang="ts">
  const EXAMPLE_IMAGES = [
${images.map((image) => `    '${image}'`).join(',\n')}
  ];
</script>

<section id="Gallery" class="flex flex-col lg:flex-row gap-8 px-8 py-12">
  {#each EXAMPLE_IMAGES as image}
    ${img}
  {/each}
</section>
`;
  it('credits an added picture to the commit that added it to the list, not to a later one that rewrote the loop’s tag', async () => {
    // As on a SvelteKit portfolio: "Added images" adds fighter.webp to the list the `{#each}` renders; "modal" drops a class from its <img>.
    const halo = '/assets/images/halo/halo.webp';
    const fighter = '/assets/images/gallery/fighter.webp';
    const code = await branch(
      { 'src/lib/features/gallery/gallery.svelte': gallery([halo], '<img src={image} alt="" class="special-card__image fade-in" />') },
      [
        {
          subject: 'Added images',
          files: {
            'src/lib/features/gallery/gallery.svelte': gallery(
              [halo, fighter],
              '<img src={image} alt="" class="special-card__image fade-in" />',
            ),
            // Larger than 1 MiB, as the real picture: listed unread, so its own line proves nothing.
            'static/assets/images/gallery/fighter.webp': Buffer.alloc(1_100_000, 7).toString('latin1'),
          },
        },
        {
          subject: 'modal',
          files: {
            'src/lib/features/gallery/gallery.svelte': gallery([halo, fighter], '<img src={image} alt="" class="special-card__image" />'),
          },
        },
      ],
    );
    const section = 'html>body>section#Gallery.flex.flex-col.lg:flex-row.gap-8.px-8.py-12';
    const img = (src: string, at = ''): Drawn => [`${section}>img.special-card__image${at}`, { src }];
    const before = page([['html'], ['html>body'], [section], img(halo)]);
    const after = page([['html'], ['html>body'], [section], img(halo, ':1'), img(fighter, ':2')]);
    const added = explainChange(before, after, ALL, code).changes.find((change) => change.kind === 'added');
    expect(added?.cause?.commit).toBe(commitOf(code, 'Added images'));
  });
});
