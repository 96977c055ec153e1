import { describe, expect, it } from 'vitest';
import { explainChange } from '../../../src/explain';
import { carriedRegions, keptCovering } from '../../../src/explain/regions';
import type { CodeChange } from '../../../src/git/code-change';
import { branch } from './branch';
import { layoutRecord } from './records';

/**
 * The attribution on React stacks as real commits change them (issue #48's fourth corpus set): a
 * Create React App page whose placeholder text went, a Vite CSS Modules block moved into a
 * component of its own, a styled-components header styled inline. Real files committed to a real
 * repository, read back by the reporter's own `codeChanges`, against layout records as the browser
 * writes them.
 */

type Box = [number, number, number, number];

/** The page's html, body and React root, each as large as the page. */
const rootOf = (width: number, height: number) =>
  ['html', 'html>body', 'html>body>div#root'].map((path) => ({ path, box: [0, 0, width, height] as Box }));

const WHOLE = [{ x: 0, y: 0, width: 1280, height: 900 }];

const commitOf = (code: CodeChange[], subject: string) => code.find((change) => change.commit?.endsWith(` ${subject}`))?.commit;

describe('a text that went with its own line', () => {
  // DiegoBravoTorres/react-css-modules: "more cocktails added" replaces `<div><Header/> Home<Footer/> </div>` by the hero (whose picture
  // is `alt="Home Background"`); "clean up" deletes an unused component whose root is a bare `<div>`.
  const home = (hero: boolean) => `import { Component } from 'react';
import Header from '../nav/header';
import Footer from '../nav/footer';

class Home extends Component {
  render() {
    return (
${
  hero
    ? `        <div>
            <Header/>
            <h2>Find the Best Selection of Cocktail Recipes</h2>
            <img src={require("../../images/home-bck.png")} alt="Home Background"></img>
            <Footer/>
        </div>);`
    : '        <div><Header/> Home<Footer/> </div>);'
}
  }
}
export default Home;
`;
  const rocket = `import React from "react";

export default class Rocket extends React.Component {
  render() {
    return (
      <div>
        <img src="../shuttle.png" alt="shuttle"></img>
      </div>
    );
  }
}
`;

  it('credits the word that went to the line that wrote it, though an added picture’s alt holds it and a deleted file has a bare <div>', async () => {
    const code = await branch({ 'src/components/home/home.js': home(false), 'src/components/rocket/rocket.js': rocket }, [
      { subject: 'more cocktails added', files: { 'src/components/home/home.js': home(true) } },
      { subject: 'clean up and SEO', files: { 'src/components/rocket/rocket.js': null } },
    ]);
    const root = 'html>body>div#root>div.App_App__B2Ebb>div';
    const page = (hero: boolean) =>
      layoutRecord([
        ...rootOf(1280, 900),
        { path: 'html>body>div#root>div.App_App__B2Ebb', box: [0, 0, 1280, 900] },
        { path: root, box: [0, 0, 1280, hero ? 791 : 182], text: hero ? '' : 'Home' },
      ]);
    const [change] = explainChange(page(false), page(true), WHOLE, code).changes;
    expect(change.words).toBe(
      `div.App div: text 'Home' → ''; height 182 → 791 px — src/components/home/home.js (commit ${commitOf(code, 'more cocktails added')})`,
    );
  });
});

describe('a block moved into a component of its own', () => {
  // olegkhegay/module-scss: "TOP SELLING" leaves Arrivels.jsx (`<div className={s.top}>`) for a new TopSelling.jsx with its own
  // `.top` in TopSelling.module.scss; Vite names each module's `.top` apart (`_top_s6sfa_12`, `_top_1a4nf_1`).
  const block = (binding: string) => `      <div className={${binding}.top}>
        <h2>TOP SELLING</h2>
      </div>
`;
  const arrivals = (withTop: boolean) => `import s from './Arrivels.module.scss';

const Arrivels = () => (
  <section>
    <div className="container">
      <div className={s.new}>
        <h2>NEW ARRIVALS</h2>
      </div>
${withTop ? block('s') : ''}    </div>
  </section>
);
export default Arrivels;
`;
  const topSelling = `import t from './TopSelling.module.scss';

const TopSelling = () => (
  <>
${block('t')}  </>
);
export default TopSelling;
`;

  it('credits the block that went to the file it left, and the block that came to the new component', async () => {
    const code = await branch(
      {
        'src/components/Arrivels/Arrivels.jsx': arrivals(true),
        'src/components/Arrivels/Arrivels.module.scss': '.new {\n  padding: 70px 0;\n}\n\n.top {\n  padding: 20px 0;\n}\n',
      },
      [
        {
          subject: 'Add files via upload',
          files: {
            'src/components/Arrivels/Arrivels.jsx': arrivals(false),
            'src/components/TopSelling/TopSelling.jsx': topSelling,
            'src/components/TopSelling/TopSelling.module.scss': '.top {\n  padding: 60px 0;\n  text-align: center;\n}\n',
          },
        },
      ],
    );
    const arrivalsAt = 'html>body>div#root>section:2>div.container';
    const frame = rootOf(1440, 1400);
    const base = layoutRecord([
      ...frame,
      { path: 'html>body>div#root>section:2', box: [0, 0, 1440, 1300] },
      { path: arrivalsAt, box: [100, 0, 1240, 1300] },
      { path: `${arrivalsAt}>div._new_s6sfa_1`, box: [100, 0, 1240, 643] },
      { path: `${arrivalsAt}>div._top_s6sfa_12`, box: [100, 643, 1240, 645] },
      { path: `${arrivalsAt}>div._top_s6sfa_12>h2`, box: [100, 663, 1240, 40], text: 'TOP SELLING' },
    ]);
    const current = layoutRecord([
      ...frame,
      { path: 'html>body>div#root>section:2', box: [0, 0, 1440, 643] },
      { path: arrivalsAt, box: [100, 0, 1240, 643] },
      { path: `${arrivalsAt}>div._new_s6sfa_1`, box: [100, 0, 1240, 643] },
      { path: 'html>body>div#root>div._top_1a4nf_1', box: [0, 643, 1440, 672], style: { 'text-align': 'center' } },
      { path: 'html>body>div#root>div._top_1a4nf_1>h2', box: [0, 703, 1440, 40], text: 'TOP SELLING' },
    ]);
    const { changes } = explainChange(base, current, [{ x: 0, y: 643, width: 1440, height: 700 }], code);
    const fileOf = (kind: string) => changes.find((change) => change.kind === kind && change.path.includes('_top_'))?.cause?.file;
    expect(fileOf('removed')).toBe('src/components/Arrivels/Arrivels.jsx');
    expect(fileOf('added')).toBe('src/components/TopSelling/TopSelling.jsx');
  });
});

describe('an inline style on a component’s tag', () => {
  // Udaloiii/styled-components-portfolio: "changed styles" thins the header's glow in `<Container style={{boxShadow: …}}>` (Container a
  // styled div of another file); "changed styles for sprite, Main" moves a styled wrapper's `&::before` frame in Main_Styles.ts.
  const header = (spread: number) => `import { Container } from 'src/components/container/Container.tsx';
import { S } from 'src/layout/header/Header_Styles.ts';

export const Header = () => (
  <S.Header>
    <Container style={{boxShadow: \`0 0 8px ${spread}px rgba(117, 114, 213, 0.5)\`, backgroundColor: "#111111FF"}}>
      <Menu style={{display: '${spread === 1 ? 'flex' : 'block'}'}} />
      <nav>Home</nav>
    </Container>
  </S.Header>
);
`;
  const mainStyles = (top: number) => `import styled from 'styled-components';

const WrapperForImg = styled.div\`
  position: relative;

  &::before {
    content: "";
    position: absolute;
    top: -${top}px;
  }
\`;

const Img = styled.img\`
  box-shadow: inset 0 0 6px 1px rgba(232, 232, 232, 0.8);
\`;

export const S = { WrapperForImg, Img };
`;

  it('credits the changed glow to the line that sets it inline to the value now shown, never to a styled rule elsewhere', async () => {
    const code = await branch({ 'src/layout/header/Header.tsx': header(5), 'src/layout/sections/main/Main_Styles.ts': mainStyles(24) }, [
      { subject: 'changed styles for sprite, Main', files: { 'src/layout/sections/main/Main_Styles.ts': mainStyles(35) } },
      { subject: 'changed styles', files: { 'src/layout/header/Header.tsx': header(1) } },
    ]);
    const bar = 'html>body>div#root>div>header.sc-jrsLdz.goTjgp>div.sc-fujAuS.MgLCL';
    const picture = 'html>body>div#root>div>section#Home>div.sc-iqA-dsV.jSHxdw>img.sc-crzntu.dxtKfG';
    const page = (spread: number, inset: string) =>
      layoutRecord([
        ...rootOf(1440, 900),
        { path: 'html>body>div#root>div', box: [0, 0, 1440, 900] },
        { path: 'html>body>div#root>div>header.sc-jrsLdz.goTjgp', box: [0, 0, 1440, 60] },
        { path: bar, box: [120, 0, 1200, 60], style: { 'box-shadow': `rgba(117, 114, 213, 0.5) 0px 0px 8px ${spread}px` } },
        { path: 'html>body>div#root>div>section#Home', box: [0, 60, 1440, 840], style: { display: spread === 1 ? 'flex' : 'block' } },
        { path: 'html>body>div#root>div>section#Home>div.sc-iqA-dsV.jSHxdw', box: [800, 200, 350, 430] },
        { path: picture, box: [800, 200, 350, 430], style: { 'box-shadow': inset } },
      ]);
    const { changes } = explainChange(
      page(5, 'rgba(232, 232, 232, 0.8) 0px 0px 6px 1px inset'),
      page(1, 'rgba(117, 114, 213, 0.5) 0px 0px 8px 1px inset'),
      WHOLE,
      code,
    );
    const glow = changes.find((change) => change.path === bar);
    expect(glow?.words).toBe(
      `header div: box-shadow #7572d580 0px 0px 8px 5px → #7572d580 0px 0px 8px 1px — src/layout/header/Header.tsx (commit ${commitOf(code, 'changed styles')})`,
    );
    // A plain word (`display: 'flex'`) ties no line to the section that became a flex box elsewhere.
    expect(changes.find((change) => change.path.endsWith('section#Home'))?.cause).toBeNull();
    // The picture's new inset glow is not the header's inline value (no `inset`): that line proves nothing of it.
    expect(changes.find((change) => change.path === picture)?.cause?.file).not.toBe('src/layout/header/Header.tsx');
  });
});

describe('CSS Modules named by Vite: a hash is its module’s', () => {
  // olegkhegay/module-scss at 900 px: the commit gives Hero.module.scss's and Swiper.module.scss's `.title` each a media query; Vite
  // names them `_title_1655j_14` and `_title_44ihd_9`, the hash the module's, as on every class it generates (`_wrap__hero_1655j_1`).
  const hero = (narrow: boolean) => `.wrap__hero {
  display: flex;
}

.title {
  padding: 50px;${narrow ? '\n  @media (max-width: 1023px) {\n    padding: 30px;\n  }' : ''}
}
`;
  const swiper = (narrow: boolean) => `.swiper {
  padding-bottom: 100px;
}

.title {
  padding: 80px 0 40px;${narrow ? '\n  @media (max-width: 1023px) {\n    padding: 60px 0 30px;\n  }' : ''}
}
`;

  it("credits each module's `.title` only on the elements that carry its hash", async () => {
    const code = await branch(
      { 'src/components/Hero/Hero.module.scss': hero(false), 'src/components/Swiper/Swiper.module.scss': swiper(false) },
      [
        {
          subject: 'Add files via upload',
          files: { 'src/components/Hero/Hero.module.scss': hero(true), 'src/components/Swiper/Swiper.module.scss': swiper(true) },
        },
      ],
    );
    const [heroTitle, swiperTitle] = [
      'html>body>div#root>section:1>div._wrap__hero_1655j_1>div._title_1655j_14',
      'html>body>div#root>section._swiper_44ihd_1>h2._title_44ihd_9',
    ];
    const page = (narrow: boolean) =>
      layoutRecord([
        ...rootOf(900, 1000),
        { path: 'html>body>div#root>section:1', box: [0, 0, 900, 500] },
        { path: 'html>body>div#root>section:1>div._wrap__hero_1655j_1', box: [0, 0, 900, 500], style: { display: 'flex' } },
        { path: heroTitle, box: [0, 0, 900, 400], style: { padding: narrow ? '30px' : '50px' } },
        { path: 'html>body>div#root>section._swiper_44ihd_1', box: [0, 500, 900, 500] },
        { path: swiperTitle, box: [0, 500, 900, 148], style: { padding: narrow ? '60px 0px 30px' : '80px 0px 40px' } },
      ]);
    const { changes } = explainChange(page(false), page(true), [{ x: 0, y: 0, width: 900, height: 1000 }], code);
    const causes = (path: string) => changes.filter((change) => change.path === path).map((change) => change.cause?.file);
    expect(causes(heroTitle)).toEqual(['src/components/Hero/Hero.module.scss']);
    expect(causes(swiperTitle)).toEqual(['src/components/Swiper/Swiper.module.scss']);
  });
});

describe('which changes a long list keeps', () => {
  const change = (path: string, kind: string, regions: number[]) => ({ path, kind, regions });
  const kindOf = (change: { kind: string }) => change.kind;

  it('keeps the first of two cards grown alike, where only the second meets the changed region; the other said through it', () => {
    const cards = [change('main>div.card:1', 'card taller', []), change('main>div.card:2', 'card taller', [0])];
    const kept = keptCovering(cards, { kinds: 16, repeats: 1 }, kindOf);
    expect(kept.map((card) => card.path)).toEqual(['main>div.card:1']);
    expect(carriedRegions(cards, kept, kindOf).get(kept[0])).toEqual([0]);
  });

  it('lists, of a responsive rewrite longer than the list, a section’s own rule before a heading inside a block already listed', () => {
    const changes = [
      change('main>div.hero', 'hero a column', [0]),
      change('main>div.hero>h1', 'title smaller', [0]),
      change('main>div.hero>div.box', 'stats centred', [0]),
      change('main>section.brands', 'brands wrap', [0]),
      change('main>div.browse', 'browse padding', [0]),
    ];
    const kept = keptCovering(changes, { kinds: 3, repeats: 3 }, kindOf);
    expect(kept.map((kept) => kept.path)).toEqual(['main>div.hero', 'main>section.brands', 'main>div.browse']);
  });
});

describe('an element a component’s new tag renders', () => {
  // canaleal/Svelte-Portfolio "Final style": experience.svelte places `<TechnologiesBar … />` (unchanged component) inside a new
  // `.special-card__right`; style.css's changed `@apply flex flex-row …` line is another rule's.
  const experience = (bar: boolean) => `<script>
  import TechnologiesBar from '$lib/components/elements/technologiesBar.svelte';
  export let experience;
</script>

<div class="special-card">
  <div class="special-card__right fade-in">
    <p>{experience.startDate} - {experience.endDate}</p>${bar ? '\n    <TechnologiesBar technologies={experience.technologies} />' : ''}
  </div>
</div>
`;
  const styles = (border: string) => `.button-group {
  @apply flex flex-row gap-4 items-center rounded-3xl border ${border} mx-auto;
}
`;

  it('credits the added element to the line of the component tag placed where it came, never naming a sheet that only @applies its class', async () => {
    const code = await branch(
      {
        'src/lib/features/experience/experience.svelte': experience(false),
        'src/styles/style.css': styles('border-dark-900'),
      },
      [
        {
          subject: 'Final style',
          files: {
            'src/lib/features/experience/experience.svelte': experience(true),
            'src/styles/style.css': styles('border-dark-900 border-opacity-30'),
          },
        },
      ],
    );
    const right = 'html>body>div>main>section#Experience>div.special-card>div.special-card__right.fade-in.visible';
    const page = (bar: boolean) =>
      layoutRecord([
        ...rootOf(1440, 900).slice(0, 2),
        { path: 'html>body>div', box: [0, 0, 1440, 900] },
        { path: 'html>body>div>main', box: [0, 0, 1440, 900] },
        { path: 'html>body>div>main>section#Experience', box: [264, 100, 912, 300] },
        { path: 'html>body>div>main>section#Experience>div.special-card', box: [264, 100, 912, 141] },
        { path: right, box: [720, 100, 432, bar ? 72 : 24] },
        { path: `${right}>p`, box: [720, 100, 432, 24], text: 'Jan 2022 - Present' },
        ...(bar ? [{ path: `${right}>div.flex.flex-row.gap-2.flex-wrap`, box: [720, 124, 432, 48] as Box }] : []),
      ]);
    const { changes } = explainChange(page(false), page(true), [{ x: 720, y: 124, width: 432, height: 48 }], code);
    const bar = changes.find((change) => change.kind === 'added');
    expect(bar?.cause?.file).toBe('src/lib/features/experience/experience.svelte');
    expect(changes.map((change) => change.words).join('\n')).not.toContain('style.css');
  });
});
