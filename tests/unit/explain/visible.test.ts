import { describe, expect, it } from 'vitest';
import { explainChange } from '../../../src/explain';
import { matchElements } from '../../../src/explain/match';
import { pairMoved } from '../../../src/explain/moved';
import type { Region } from '../../../src/types';
import { layoutRecord, type Drawn } from './records';

/** Each change's words without its cause: what the element did. */
const what = (
  base: Drawn[],
  current: Drawn[],
  regions: Region[],
  origins = { base: null as string | null, current: null as string | null },
) =>
  explainChange(layoutRecord(base), layoutRecord(current), regions, [], {}, origins).changes.map((change) => change.words.split(' — ')[0]);

/** A React + Vite header styled with a CSS Module: its class names carry the module's hash, which changes with any edit of the module. */
function moduleHeader(hash: string, padding = 40): Drawn[] {
  const header = `html>body>div#root>header._navbar_${hash}_1._gray_${hash}_18`;
  return [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720], style: { 'font-family': 'Inter, sans-serif' } },
    { path: 'html>body>div#root', box: [0, 0, 1280, 720] },
    {
      path: header,
      box: [0, 0, 1280, 64],
      style: {
        display: 'flex',
        'justify-content': 'space-between',
        'align-items': 'center',
        padding: `0px ${padding}px`,
        'background-color': 'rgb(243, 244, 246)',
      },
    },
    { path: `${header}>a._logo_${hash}_5`, box: [padding, 20, 72, 24], text: 'Acme', style: { 'font-weight': '700', 'font-size': '20px' } },
    { path: `${header}>nav._links_${hash}_9`, box: [1240 - padding - 200, 20, 200, 24], style: { display: 'flex', gap: '24px' } },
    ...['Docs', 'Blog', 'About'].map(
      (text, i): Drawn => ({
        path: `${header}>nav._links_${hash}_9>a._link_${hash}_12:${i + 1}`,
        box: [1240 - padding - 200 + i * 72, 20, 48, 24],
        text,
      }),
    ),
    { path: 'html>body>div#root>main._hero_8f2ka_1', box: [0, 64, 1280, 400] },
    {
      path: 'html>body>div#root>main._hero_8f2ka_1>h1._title_8f2ka_4',
      box: [40, 120, 600, 58],
      text: 'Build faster',
      style: { 'font-size': '48px' },
    },
  ];
}

/** A SvelteKit + Tailwind layout: utility classes in every path, an arbitrary value among them. */
function tailwindLayout(height: string, button = { text: 'Sign in', width: 64 }): Drawn[] {
  const root = `html>body>div>div.flex.${height}.flex-col`;
  const nav = `${root}>nav.flex.items-center.gap-4.bg-[#1E1A2E].px-6`;
  return [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720] },
    { path: 'html>body>div', box: [0, 0, 1280, 720], style: { display: 'contents' } },
    { path: root, box: [0, 0, 1280, 720], style: { display: 'flex', 'flex-direction': 'column' } },
    {
      path: nav,
      box: [0, 0, 1280, 56],
      style: { display: 'flex', 'align-items': 'center', gap: '16px', padding: '0px 24px', 'background-color': 'rgb(30, 26, 46)' },
    },
    {
      path: `${nav}>a.font-semibold.text-white`,
      box: [24, 18, 44, 20],
      text: 'Home',
      style: { color: 'rgb(255, 255, 255)', 'font-weight': '600' },
    },
    {
      path: `${nav}>button.rounded.bg-indigo-500.px-3.py-1`,
      box: [84, 14, button.width, 28],
      text: button.text,
      style: { 'background-color': 'rgb(99, 102, 241)', padding: '4px 12px', 'border-radius': '4px' },
    },
    { path: `${root}>main.flex-1`, box: [0, 56, 1280, 664] },
  ];
}

/** A blog's hero: its background picture comes from the app's own server, whose port differs between base and current. */
function hero(background: string, titleSize = 48, titleHeight = 58): Drawn[] {
  return [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720] },
    { path: 'html>body>header.hero', box: [0, 0, 1280, 480], style: { 'background-image': `url("${background}")`, padding: '160px 80px' } },
    {
      path: 'html>body>header.hero>h1.hero-title',
      box: [80, 160, 800, titleHeight],
      text: 'Field notes',
      style: { 'font-size': `${titleSize}px`, color: 'rgb(255, 255, 255)' },
    },
    {
      path: 'html>body>header.hero>img.avatar',
      box: [80, 260, 64, 64],
      style: { src: '/images/me.jpg', image: 'loaded', 'border-radius': '50%' },
    },
  ];
}

const BASE_ORIGIN = 'http://127.0.0.1:39507';
const CURRENT_ORIGIN = 'http://127.0.0.1:4321';
const ORIGINS = { base: BASE_ORIGIN, current: CURRENT_ORIGIN };

describe('only visible changes are changes', () => {
  it('lists nothing for CSS Modules hash churn alone: every class of the module renamed, nothing rendered differently', () => {
    const explanation = explainChange(
      layoutRecord(moduleHeader('1goyx')),
      layoutRecord(moduleHeader('11ty5')),
      [{ x: 0, y: 0, width: 1280, height: 64 }],
      [],
    );
    expect(explanation.changes).toEqual([]);
    expect(explanation.summary).toBe('');
  });

  it('lists the one element whose padding the module edit changed, without the churned class names', () => {
    expect(what(moduleHeader('1goyx'), moduleHeader('11ty5', 80), [{ x: 0, y: 0, width: 1280, height: 64 }])).toEqual([
      'header.navbar.gray: padding 0px 40px → 0px 80px',
    ]);
  });

  it('lists nothing for a utility class renamed to one with the same computed styles (h-[100dvh] → h-dvh)', () => {
    expect(what(tailwindLayout('h-[100dvh]'), tailwindLayout('h-dvh'), [{ x: 0, y: 0, width: 1280, height: 720 }])).toEqual([]);
  });

  it('lists the button whose text changed beside the renamed class, and only it', () => {
    const current = tailwindLayout('h-dvh', { text: 'Log in', width: 56 });
    expect(what(tailwindLayout('h-[100dvh]'), current, [{ x: 84, y: 14, width: 64, height: 28 }])).toEqual([
      "button.rounded.bg-indigo-500.px-3 'Log in': text 'Sign in' → 'Log in'; width 64 → 56 px",
    ]);
  });

  it('lists the colour of a border only where a side draws the border: it follows the text colour (currentColor) everywhere else', () => {
    const title = (colour: string, border: Record<string, string> = {}): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      {
        path: 'html>body>h1.title',
        box: [48, 24, 904, 38],
        text: 'Weekly sales',
        style: { color: colour, 'border-color': colour, ...border },
      },
    ];
    const region = [{ x: 48, y: 24, width: 200, height: 38 }];
    expect(what(title('rgb(255, 255, 255)'), title('rgb(255, 209, 102)'), region)).toEqual(['.title: color #fff → #ffd166']);
    const framed = { 'border-style': 'solid', 'border-width': '1px' };
    expect(what(title('rgb(255, 255, 255)', framed), title('rgb(255, 209, 102)', framed), region)).toEqual([
      '.title: color #fff → #ffd166, border-color #fff → #ffd166',
    ]);
  });

  it('leaves out a colour that moved a level per channel: the section whose padding changed is said by its padding alone', () => {
    // As on a SvelteKit + Tailwind portfolio: bg-smoke-300 (#f8f8f6) → bg-darkFrog-800 (#f7f7f7) beside px-8 → px-12.
    const section = (background: string, padding: string, height: number): Drawn[] => [
      { path: 'html', box: [0, 0, 960, 1000] },
      { path: 'html>body', box: [0, 0, 960, 1000] },
      { path: 'html>body>main>section#Experience', box: [24, 0, 912, height], style: { 'background-color': background, padding } },
    ];
    const region = [{ x: 24, y: 0, width: 912, height: 831 }];
    expect(what(section('rgb(248, 248, 246)', '36px 24px', 831), section('rgb(247, 247, 247)', '36px', 813), region)).toEqual([
      '#Experience: padding 36px 24px → 36px; height 831 → 813 px',
    ]);
    expect(what(section('rgb(248, 248, 246)', '36px', 813), section('rgb(238, 238, 238)', '36px', 813), region)).toEqual([
      '#Experience: background-color #f8f8f6 → #eee',
    ]);
  });

  it('leaves out a z-index that stacks the element as before: a hero image from -1 to -9 is still behind everything', () => {
    // As on a Create React App with styled-components: the hero image's z-index -1 → -9, a submenu opened above it.
    const page = (hero: string, other: Record<string, string>): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 720] },
      { path: 'html>body', box: [0, 0, 1280, 720] },
      { path: 'html>body>div#root>img.hero', box: [0, 0, 1280, 720], style: { position: 'absolute', 'z-index': hero } },
      { path: 'html>body>div#root>nav', box: [0, 0, 1280, 80], style: { position: 'relative', ...other } },
    ];
    const region = [{ x: 0, y: 0, width: 1280, height: 720 }];
    expect(what(page('-1', { 'z-index': '10' }), page('-9', { 'z-index': '10' }), region)).toEqual([]);
    // Another element stacked between the two values: the image now goes behind it.
    expect(what(page('-1', { 'z-index': '-5' }), page('-9', { 'z-index': '-5' }), region)).toEqual(['.hero: z-index -1 → -9']);
    expect(what(page('-1', {}), page('1', {}), region)).toEqual(['.hero: z-index -1 → 1']);
  });

  it('leaves out a transform that is the same share of a box that grew (translateX(-15%) of a wider image): its new size says it', () => {
    // Jiaying330/Disney-Home-page's hero logo, 315 → 806 px wide at 900 px: its translation is 15 % of its width on both sides.
    const logo = (width: number, height: number, x: number): Drawn[] => [
      { path: 'html', box: [0, 0, 900, 1000] },
      { path: 'html>body', box: [0, 0, 900, 1000] },
      {
        path: 'html>body>img.hero__descriptions-img',
        box: [41, 480, width, height],
        style: { display: 'inline', transform: `matrix(1, 0, 0, 1, ${x}, 0)` },
      },
    ];
    const regions: Region[] = [{ x: 0, y: 400, width: 900, height: 600, kind: 'modified' }];
    expect(what(logo(315, 128, -47.25), logo(806, 327, -120.959), regions)).toEqual([
      '.hero__descriptions-img: width 315 → 806 px, height 128 → 327 px',
    ]);
    expect(what(logo(315, 128, -47.25), logo(315, 128, -30), regions)).toEqual([
      '.hero__descriptions-img: transform matrix(1, 0, 0, 1, -47.25, 0) → matrix(1, 0, 0, 1, -30, 0)',
    ]);
  });

  it("compares a background picture's URL without the base and current servers' origins: only the title's font size changed", () => {
    const base = hero(`${BASE_ORIGIN}/images/hero.jpg`);
    const current = hero(`${CURRENT_ORIGIN}/images/hero.jpg`, 56, 67);
    expect(what(base, current, [{ x: 80, y: 160, width: 800, height: 67 }], ORIGINS)).toEqual([
      '.hero-title: font-size 48px → 56px; height 58 → 67 px',
    ]);
  });

  it('treats any local spelling of a server’s host on its port as its origin', () => {
    expect(
      what(
        hero('http://localhost:39507/images/hero.jpg'),
        hero(`${CURRENT_ORIGIN}/images/hero.jpg`),
        [{ x: 0, y: 0, width: 1280, height: 480 }],
        ORIGINS,
      ),
    ).toEqual([]);
  });

  it('still lists a picture that changed, its URL as a path', () => {
    const current = hero(`${CURRENT_ORIGIN}/images/hero-2.jpg`);
    expect(what(hero(`${BASE_ORIGIN}/images/hero.jpg`), current, [{ x: 0, y: 0, width: 1280, height: 480 }], ORIGINS)).toEqual([
      '.hero: background-image url("/images/hero.jpg") → url("/images/hero-2.jpg")',
    ]);
  });
});

/** A code editor whose gutter a component option widened (68 → 79 px); the content beside it only moves. */
function editor(gutter: number, titleSize = 24, titleHeight = 29): Drawn[] {
  const lines = ['const a = 1;', 'const b = 2;', 'export { a, b };'];
  return [
    { path: 'html', box: [0, 0, 1280, 720] },
    { path: 'html>body', box: [0, 0, 1280, 720] },
    { path: 'html>body>h1.title', box: [16, 8, 300, titleHeight], text: 'notes.ts', style: { 'font-size': `${titleSize}px` } },
    {
      path: 'html>body>div.editor',
      box: [16, 60, 800, 400],
      style: { position: 'relative', overflow: 'hidden', 'font-family': 'monospace' },
    },
    { path: 'html>body>div.editor>div.gutter', box: [16, 60, gutter, 400], style: { 'background-color': 'rgb(245, 245, 245)' } },
    ...lines.map(
      (_, i): Drawn => ({
        path: `html>body>div.editor>div.gutter>div.line-number${i === 2 ? '.current-line' : `:${i + 1}`}`,
        box: [16, 60 + i * 19, gutter, 19],
        text: String(i + 1),
        style: { 'text-align': 'right' },
      }),
    ),
    { path: 'html>body>div.editor>div.content', box: [16 + gutter, 60, 732, 400], style: { position: 'absolute' } },
    ...lines.map(
      (text, i): Drawn => ({ path: `html>body>div.editor>div.content>div.line:${i + 1}`, box: [16 + gutter, 60 + i * 19, 732, 19], text }),
    ),
  ];
}

describe('a resize is a change of the element that resized', () => {
  it('names a widened gutter once, by its new width, beside the title restyled in another region', () => {
    const regions = [
      { x: 16, y: 8, width: 300, height: 34 },
      { x: 16, y: 60, width: 800, height: 57 },
    ];
    expect(what(editor(68), editor(79, 28, 34), regions)).toEqual([
      '.title: font-size 24px → 28px; height 29 → 34 px',
      '.gutter: width 68 → 79 px',
    ]);
  });

  it('names the cards a taller neighbour stretched, where nothing else explains their regions; not the row that grew with them', () => {
    const plans = (proBorder: number, height: number): Drawn[] => [
      { path: 'html', box: [0, 0, 800, 320] },
      { path: 'html>body', box: [0, 0, 800, 320] },
      { path: 'html>body>div.plans', box: [20, 20, 760, height], style: { display: 'flex', gap: '16px', 'align-items': 'stretch' } },
      ...(['plan:1', 'plan.pro', 'plan:2'] as const).flatMap((name, i): Drawn[] => {
        const border = name === 'plan.pro' ? proBorder : 1;
        const card = `html>body>div.plans>div.card.${name}`;
        const style = {
          'border-style': 'solid',
          'border-width': `${border}px`,
          'border-color': name === 'plan.pro' && border === 2 ? 'rgb(37, 99, 235)' : 'rgb(229, 231, 235)',
          display: 'flex',
          'flex-direction': 'column',
          'justify-content': 'center',
        };
        return [
          { path: card, box: [20 + i * 258, 20, 244, height], style },
          {
            path: `${card}>h3`,
            box: [40 + i * 258, 43 + (height - 256) / 2, 94, 33],
            text: ['Free', 'Pro', 'Team'][i],
            style: { 'font-size': '24px' },
          },
        ];
      }),
    ];
    const regions = [
      { x: 20, y: 43, width: 100, height: 36 },
      { x: 278, y: 20, width: 244, height: 258 },
      { x: 536, y: 43, width: 100, height: 36 },
    ];
    expect(what(plans(1, 256), plans(2, 258), regions)).toEqual([
      '.card.plan.pro: border-color #e5e7eb → #2563eb, border-width 1px → 2px; height 256 → 258 px',
      '.card.plan: height 256 → 258 px',
      '.card.plan: height 256 → 258 px',
    ]);
  });

  it("names a widget widened in an element capture, not the page's html that grew past the image's edges with a change elsewhere", () => {
    const usage = (meter: number, page: [number, number]): Drawn[] => [
      { path: 'html', box: [0, page[0], 1280, page[1]] },
      { path: 'html>body', box: [0, page[0], 1280, page[1]] },
      { path: 'html>body>section.usage', box: [0, 0, 1280, 12] },
      { path: 'html>body>section.usage>div.meter', box: [32, 0, meter, 12], style: { 'background-color': 'rgb(229, 231, 235)' } },
    ];
    const [base, current] = [layoutRecord(usage(120, [-217, 424]), 1280, 12), layoutRecord(usage(180, [-249, 389]), 1280, 12)];
    const words = explainChange(base, current, [{ x: 152, y: 0, width: 60, height: 12 }], []).changes.map(
      (change) => change.words.split(' — ')[0],
    );
    expect(words).toEqual(['.meter: width 120 → 180 px']);
  });

  it('pairs an element matching left removed and added, where both boxes overlap, as one element', () => {
    const base = layoutRecord(editor(68));
    const current = layoutRecord(editor(79));
    const line = (record: typeof base) => record.elements.findIndex((element) => element.path.endsWith('.current-line'));
    const [b, c] = [line(base), line(current)];
    const matched = matchElements(base, current).matched.filter((pair) => pair.current !== c);
    const left = { matched, added: [c], removed: [b], baseOf: new Map(matched.map((pair) => [pair.current, pair.base])) };
    const paired = pairMoved(base, current, left);
    expect(paired.moved).toEqual([{ base: b, current: c }]);
    expect([paired.matching.added, paired.matching.removed, paired.matching.baseOf.get(c)]).toEqual([[], [], b]);
  });

  it('pairs an element a component now renders under a parent the base capture did not meet, and names what changed on it', () => {
    // SvelteKit: <Header /> moved from +layout.svelte into Home.svelte's <main>; the header capture now meets the main around it.
    const layout = 'html>body>div.layout.s-7IPF32Wcq3s8';
    const header = (path: string, background: string): Drawn => ({
      path,
      box: [0, 0, 1440, 201],
      style: { 'background-color': background },
    });
    const base: Drawn[] = [
      { path: 'html', box: [0, 0, 1440, 201] },
      { path: 'html>body', box: [0, 0, 1440, 201] },
      { path: layout, box: [0, 0, 1440, 201] },
      header(`${layout}>header.s-KroOyJhIMy1q`, 'rgb(57, 60, 68)'),
    ];
    const current: Drawn[] = [
      ...base.slice(0, 3),
      { path: `${layout}>main.s-7IPF32Wcq3s8`, box: [0, 0, 1440, 977] },
      { path: `${layout}>main.s-7IPF32Wcq3s8>main`, box: [0, 0, 1440, 977] },
      header(`${layout}>main.s-7IPF32Wcq3s8>main>header.s-KroOyJhIMy1q`, 'rgba(0, 0, 0, 0)'),
    ];
    expect(what(base, current, [{ x: 0, y: 0, width: 1440, height: 201 }])).toContain('header: background-color #393c44 → transparent');
  });

  it('leaves an element removed and another added when their boxes do not overlap, or neither has a class or id', () => {
    const base = layoutRecord(editor(68));
    const moved = layoutRecord(
      editor(68).map((element) =>
        element.path.endsWith('.current-line') ? { ...element, box: [600, 500, 68, 19] as Drawn['box'] } : element,
      ),
    );
    const c = moved.elements.findIndex((element) => element.path.endsWith('.current-line'));
    const b = base.elements.findIndex((element) => element.path.endsWith('.current-line'));
    const none = { matched: [], added: [c], removed: [b], baseOf: new Map<number, number>() };
    expect(pairMoved(base, moved, none).moved).toEqual([]);
    const body = base.elements.findIndex((element) => element.path === 'html>body');
    expect(pairMoved(base, base, { matched: [], added: [body], removed: [body], baseOf: new Map() }).moved).toEqual([]);
  });
});

describe('matching: a template that restyled or replaced what it renders (real commits, issue #48)', () => {
  it('pairs a box that only gained a class with its old self, though its children could be taken for what a new wrapper holds', () => {
    // Vue 3 + Tailwind: three `<div>`s of two lines became a `v-for` of `<div class="w-[75px]">`; the captions became bold.
    const row = 'html>body>div#app>div.flex.justify-center.gap-4.m-4';
    const figures = (wide: boolean): Drawn[] => [
      { path: 'html', box: [0, 0, 1280, 200] },
      { path: 'html>body', box: [0, 0, 1280, 200] },
      { path: 'html>body>div#app', box: [0, 0, 1280, 200] },
      { path: row, box: [0, 100, 1280, 48], style: { display: 'flex', 'justify-content': 'center', gap: '16px' } },
      ...['6Y+', '6+', wide ? '30+' : '30Y'].flatMap((figure, i): Drawn[] => {
        const [x, width] = wide ? [500 + i * 91, 75] : [560 + i * 54, 38];
        const box = `${row}>div${wide ? '.w-[75px]' : ''}:${i + 1}`;
        return [
          { path: box, box: [x, 100, width, 48] },
          { path: `${box}>div${wide ? '' : ':1'}`, box: [x, 100, width, 24], text: figure },
          {
            path: `${box}>div${wide ? '.text-forth.font-black' : ':2'}`,
            box: [x, 124, width, 24],
            text: ['工作經驗', '專案', '年紀'][i],
            style: wide ? { 'font-weight': '900' } : {},
          },
        ];
      }),
    ];
    const words = what(figures(false), figures(true), [{ x: 500, y: 100, width: 260, height: 48 }]);
    expect(words).toContain(".w-[75px] div: text '30Y' → '30+'; width 38 → 75 px");
    expect(words.filter((said) => said.startsWith('.text-forth.font-black: font-weight 400 → 900'))).toHaveLength(3);
    expect(words.filter((said) => / (added|removed) /.test(said))).toEqual([]);
  });

  it('says a card removed and a component added in its place, under a wrapper with no name of its own, by their names', () => {
    // SvelteKit 2: `<article class="skillset">` with its card left Home.svelte; `<article><About /></article>` took its place.
    const main = 'html>body>div.layout.s-7IPF32Wcq3s8>main.s-fL3EmgvQ81YT';
    const base: Drawn[] = [
      { path: 'html', box: [0, 0, 1440, 1000] },
      { path: 'html>body', box: [0, 0, 1440, 1000] },
      { path: 'html>body>div.layout.s-7IPF32Wcq3s8', box: [0, 0, 1440, 1000] },
      { path: main, box: [0, 0, 1440, 1000] },
      { path: `${main}>article.skillset.s-fL3EmgvQ81YT`, box: [0, 200, 1440, 509] },
      { path: `${main}>article.skillset.s-fL3EmgvQ81YT>div.card.s-fL3EmgvQ81YT`, box: [577, 310, 286, 289] },
      {
        path: `${main}>article.skillset.s-fL3EmgvQ81YT>div.card.s-fL3EmgvQ81YT>h2.s-fL3EmgvQ81YT`,
        box: [597, 330, 246, 40],
        text: 'My Skillset',
      },
    ];
    const current: Drawn[] = [
      ...base.slice(0, 4),
      { path: `${main}>article.s-fL3EmgvQ81YT`, box: [0, 200, 1440, 753] },
      { path: `${main}>article.s-fL3EmgvQ81YT>section.skillset.s-V236-KtimaTE`, box: [0, 200, 1440, 603] },
      {
        path: `${main}>article.s-fL3EmgvQ81YT>section.skillset.s-V236-KtimaTE>button.strength.s-V236-KtimaTE`,
        box: [585, 200, 270, 86],
        text: 'My skills',
      },
    ];
    expect(what(base, current, [{ x: 0, y: 200, width: 1440, height: 753 }])).toEqual([
      'section.skillset added (1440×603) in main article',
      'article.skillset removed (1440×509)',
    ]);
  });
});
