import { describe, expect, it } from 'vitest';
import { elementName, namingOf, sourcePath } from '../../../src/explain/words';
import { layoutRecord } from './records';

/**
 * How an element is named in the words: as its source names it. A CSS Module's class by the class
 * its module file writes (the build's hash left out), a utility-class element by its tag, text and
 * at most three classes that tell it apart, never by an id that changes from run to run.
 */

const NAV = 'html>body>div#root>nav._nav_1goyx_1';

describe('elementName', () => {
  it("names a CSS Module's class by its tag, its source selector and file, as Vite and postcss-modules generate it", () => {
    const naming = namingOf([], [{ file: 'src/components/nav-item.module.scss', classes: ['item', 'label'] }]);
    expect(elementName(`${NAV}>a._item_cs8t7_5>span._label_cs8t7_1`, naming)).toBe('span.label (nav-item.module.scss)');
    expect(elementName(`${NAV}>a._item_cs8t7_5._active_cs8t7_9`, naming)).toBe('a.item.active (nav-item.module.scss)');
  });

  it("reads the other recognised patterns back with the module's file: Next.js and CRA, Turbopack, Lightning CSS", () => {
    const naming = namingOf([], [{ file: 'src/Header.module.css', classes: ['navbar', 'title'] }]);
    expect(elementName('html>body>header.Header_navbar__x1Y2z', naming)).toBe('header.navbar (Header.module.css)');
    expect(elementName('html>body>header.Header-module__8aZ1qW__navbar', naming)).toBe('header.navbar (Header.module.css)');
    expect(elementName('html>body>header>h1.EgL3uq_title', naming)).toBe('h1.title (Header.module.css)');
  });

  it('never keeps a hashed class, even when no changed module names it (its file is then not known)', () => {
    expect(elementName(`${NAV}>a._item_cs8t7_5>span._label_cs8t7_1`)).toBe('span.label');
    expect(elementName('html>body>header.Header_navbar__x1Y2z')).toBe('header.navbar');
    expect(elementName('html>body>div#root>nav._menu_1goyx_41>a:2')).toBe('nav.menu a:nth-of-type(2)');
    // The same element whichever hash an edit of its module gave it.
    expect(sourcePath('html>body>div#root>nav._menu_1goyx_41>a._link_1goyx_7:2')).toBe(
      sourcePath('html>body>div#root>nav._menu_11ty5_41>a._link_11ty5_7:2'),
    );
    expect(sourcePath('html>body>div#root>nav._menu_1goyx_41>a._link_1goyx_7:2')).toBe('html>body>div#root>nav.menu>a.link:2');
  });

  it("never names an element by a CSS-in-JS library's generated classes: its written classes, the component its build names, or its tag", () => {
    // styled-components without its babel plugin: a component id and the hash of its CSS; the classes the source writes stay.
    expect(elementName('html>body>div#root>div.sc-gsDKAQ.jVRBrf')).toBe('#root div');
    expect(elementName('html>body>div#root>div.sc-gsDKAQ.hA-dBcX.card.featured')).toBe('.card.featured');
    // With its babel plugin (file and component), and emotion's label.
    expect(elementName('html>body>div#root>header.Navbar__Wrapper-sc-1x2y3z.kQxLzf')).toBe('Wrapper (Navbar)');
    expect(elementName('html>body>div#root>button.css-1x2y3z-PrimaryButton')).toBe('PrimaryButton');
    expect(elementName('html>body>div#root>section.css-9f8e7d')).toBe('#root section');
  });

  it("never names an element by a framework's scoping class: Svelte's, vite-plugin-svelte's in development, Astro's", () => {
    expect(elementName('html>body>main>section.about.svelte-1x2y3z>img.pic.svelte-1x2y3z')).toBe('img.pic');
    expect(elementName('html>body>div.layout.s-7IPF32Wcq3s8')).toBe('div.layout');
    expect(elementName('html>body>div.layout.s-7IPF32Wcq3s8>main.s-7IPF32Wcq3s8')).toBe('main');
    expect(elementName('html>body>section.column-card.s-V236-KtimaTE')).toBe('section.column-card');
    expect(elementName('html>body>nav.menu.astro-J7PV25F6')).toBe('nav.menu');
    // A class a template writes that only starts like one stays.
    expect(elementName('html>body>div.svelte-logo')).toBe('.svelte-logo');
    expect(elementName('html>body>div.s-card')).toBe('.s-card');
  });

  it('names a utility-class element by its tag, its text and at most three classes that tell it apart', () => {
    const classes =
      'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-colors bg-[#1E1A2E] text-white hover:bg-[#2B2540] h-10 px-4 py-2';
    const path = `html>body>main>div.flex.items-center.gap-2>button.${classes.split(' ').join('.')}`;
    const other = 'html>body>main>div.flex.items-center.gap-2>span.inline-flex.items-center.gap-2.text-sm';
    const record = layoutRecord([
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>main', box: [0, 0, 1280, 720] },
      { path: 'html>body>main>div.flex.items-center.gap-2', box: [0, 0, 1280, 40] },
      { path, box: [0, 0, 100, 40], text: 'Deploy now' },
      { path: other, box: [100, 0, 100, 40] },
    ]);
    const name = elementName(path, namingOf([record]), 'Deploy now');
    expect(name).toBe("button.justify-center.whitespace-nowrap.rounded-md 'Deploy now'");
    expect(elementName(other, namingOf([record]))).toBe('span.inline-flex.items-center.text-sm');
    expect(elementName('html>body>main>div.flex.items-center.gap-2', namingOf([record]))).toBe('.flex.items-center.gap-2');
  });

  it('never names an element by an id that changes from run to run: one that differs between the sides, or one that looks generated', () => {
    const base = layoutRecord([
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>div#pane-7f3a.editor', box: [0, 0, 1280, 720] },
    ]);
    const current = layoutRecord([
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>div#pane-c019.editor', box: [0, 0, 1280, 720] },
    ]);
    const naming = namingOf([base, current]);
    expect(elementName('html>body>div#pane-c019.editor', naming)).toBe('.editor');
    expect(elementName('html>body>div#viewport-1764309471123', naming)).toBe('body div');
    expect(elementName('html>body>div#radix-:r3:', naming)).toBe('body div');
    expect(elementName('html>body>section#pricing', naming)).toBe('#pricing');
  });
});
