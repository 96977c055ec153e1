import type { Label } from '../../src/approve';

/**
 * The labelled corpus, as authored: each case is one page of fixtures/label-corpus/pages rendered
 * twice by Chromium, as it is (base) and with an edit (current), with the commits and the test
 * intent a pull request would carry and the label a reviewer would give. Intended changes come
 * with a commit and an intent that describe them; regressions with commits about something else,
 * or (the harder ones, `plausible`) with a commit that touches the same area but does not explain
 * the breakage.
 */

export interface PageSpec {
  /** The page's file under pages/, without .html. */
  name: string;
  /** The test that would capture it (spec file `<name>.spec.ts`). */
  test: string;
  checkpoint: string;
  /** The checkpoint's element (a locator), or null for the viewport. */
  scope: string | null;
  viewport: { width: number; height: number };
  /** The test's intent as the page stands on the base. */
  intent: string;
}

export interface CaseSpec {
  id: string;
  page: string;
  label: Label;
  /** The commit subjects of the change, newest first. */
  commits: string[];
  changedFiles: string[];
  /** The test's intent on the current side (intended changes describe themselves here). */
  intent?: string;
  checkpointIntent?: string;
  /** CSS appended to the page. */
  css?: string;
  /** Text replacements in the page's HTML; each must match. */
  replace?: [string, string][];
  /** What a reviewer sees: the reason of the label. */
  note: string;
  /** A regression whose commit touches the same area (harder to call). */
  plausible?: boolean;
}

export const PAGES: PageSpec[] = [
  {
    name: 'pricing',
    test: 'pricing',
    checkpoint: 'plans',
    scope: '.plans',
    viewport: { width: 800, height: 600 },
    intent: 'Pricing shows three plans with their price and a call to action each',
  },
  {
    name: 'signup',
    test: 'sign-up form',
    checkpoint: 'form',
    scope: 'form.signup',
    viewport: { width: 800, height: 600 },
    intent: 'The sign-up form asks for a name, a work email and a password, and has a Sign up button',
  },
  {
    name: 'blog',
    test: 'launch post',
    checkpoint: 'article',
    scope: null,
    viewport: { width: 800, height: 440 },
    intent: 'A blog post with its headline, the author and their photo, and readable paragraphs',
  },
  {
    name: 'products',
    test: 'shop',
    checkpoint: 'grid',
    scope: null,
    viewport: { width: 800, height: 460 },
    intent: 'The shop shows six products in a three-column grid, each with a photo, a name and a price',
  },
  {
    name: 'header',
    test: 'home',
    checkpoint: 'header',
    scope: 'header',
    viewport: { width: 800, height: 300 },
    intent: 'The header shows the logo, the main navigation, a search box and a Sign in button on one line',
  },
  {
    name: 'footer',
    test: 'about',
    checkpoint: 'closing',
    scope: null,
    viewport: { width: 800, height: 400 },
    intent: 'The page ends with a call to action and a footer with Product, Company and Support links and the legal line',
  },
  {
    name: 'dashboard',
    test: 'dashboard',
    checkpoint: 'key figures',
    scope: '.stats',
    viewport: { width: 800, height: 600 },
    intent: 'The dashboard shows visitors, sign-ups and churn with their weekly trend, and a chart of sign-ups per day',
  },
  {
    name: 'checkout',
    test: 'checkout',
    checkpoint: 'summary',
    scope: '.summary',
    viewport: { width: 800, height: 600 },
    intent: 'The order summary lists the items, shipping and the total, with a Pay button for the total',
  },
  {
    name: 'profile',
    test: 'profile',
    checkpoint: 'card',
    scope: '.profile',
    viewport: { width: 800, height: 400 },
    intent: "The profile card shows the person's photo, name, role, bio and the Message and Follow buttons",
  },
  {
    name: 'hero',
    test: 'landing',
    checkpoint: 'hero',
    scope: null,
    viewport: { width: 800, height: 430 },
    intent: 'The landing page shows the headline, the pitch, a Start free trial button and a picture of the board, then the customer logos',
  },
  {
    name: 'settings',
    test: 'settings',
    checkpoint: 'panel',
    scope: '.settings',
    viewport: { width: 800, height: 600 },
    intent: 'Settings list the notification switches, each with a label and an explanation, and a Save changes button',
  },
  {
    name: 'docs',
    test: 'installation',
    checkpoint: 'page',
    scope: null,
    viewport: { width: 800, height: 460 },
    intent: 'The installation page shows the docs navigation on the left and the install steps with a code block',
  },
];

const DEPENDENCY_FILES = ['M package.json', 'M package-lock.json'];

export const CASES: CaseSpec[] = [
  // pricing
  {
    id: 'pricing-pill-buttons',
    page: 'pricing',
    label: 'intended',
    commits: ['Restyle plan buttons as green pills (brand refresh)'],
    changedFiles: ['M src/styles/pricing.css'],
    intent: "Pricing shows three plans with their price; each plan's call to action is a green pill button",
    css: '.plan .button { border-radius: 999px; background: #059669; padding: 9px 22px; } .plan .button.secondary { background: #d1fae5; color: #065f46; }',
    note: 'The buttons are green pills, as the brand refresh asks.',
  },
  {
    id: 'pricing-pro-highlight',
    page: 'pricing',
    label: 'intended',
    commits: ['Highlight the Pro plan as the most popular', 'Add a badge component'],
    changedFiles: ['M src/pages/pricing.tsx', 'A src/components/Badge.tsx', 'M src/styles/pricing.css'],
    intent: 'Pricing shows three plans with their price and a call to action each; the Pro plan is highlighted as the most popular',
    css: '.pro { border: 2px solid #2563eb; }',
    replace: [['<h3>Pro</h3>', '<h3>Pro <span class="badge">Most popular</span></h3>']],
    note: 'Pro has a blue border and a "Most popular" badge.',
  },
  {
    id: 'pricing-price-overflow',
    page: 'pricing',
    label: 'regression',
    commits: ['Bump postcss from 8.4.31 to 8.4.38', 'Fix typo in README'],
    changedFiles: [...DEPENDENCY_FILES, 'M README.md'],
    css: '.plans { grid-template-columns: repeat(3, minmax(0, 1fr)); } .price { font-size: 64px; white-space: nowrap; } .price small { font-size: 38px; }',
    note: 'The prices overflow their cards into the next one.',
  },
  {
    id: 'pricing-price-nan',
    page: 'pricing',
    label: 'regression',
    commits: ['Refactor price formatting into a shared helper'],
    changedFiles: ['M src/lib/format.ts', 'M src/pages/pricing.tsx'],
    replace: [['$29 <small>', '$NaN <small>']],
    note: 'The Pro price reads "$NaN".',
    plausible: true,
  },
  // sign-up
  {
    id: 'signup-company-field',
    page: 'signup',
    label: 'intended',
    commits: ['Ask for the company name on sign-up'],
    changedFiles: ['M src/pages/signup.tsx', 'M src/api/accounts.ts'],
    intent: 'The sign-up form asks for a name, a work email, the company and a password, and has a Sign up button',
    replace: [
      [
        '<label for="password">',
        '<label for="company">Company</label><input id="company" value="Analytical Engines Ltd">\n  <label for="password">',
      ],
    ],
    note: 'A Company field sits between the email and the password.',
  },
  {
    id: 'signup-button-copy',
    page: 'signup',
    label: 'intended',
    commits: ['Change the sign-up button copy to "Create free account"'],
    changedFiles: ['M src/pages/signup.tsx', 'M src/i18n/en.json'],
    intent: 'The sign-up form asks for a name, a work email and a password, and has a "Create free account" button',
    replace: [['>Sign up</button>', '>Create free account</button>']],
    note: 'The button reads "Create free account".',
  },
  {
    id: 'signup-cookie-banner-covers-button',
    page: 'signup',
    label: 'regression',
    commits: ['Add a cookie consent banner'],
    changedFiles: ['A src/components/CookieBanner.tsx', 'M src/App.tsx'],
    replace: [
      [
        '</form>',
        '</form>\n<div class="cookies" style="position:fixed;left:0;right:0;top:318px;background:#111827;color:#fff;padding:16px 20px;font-size:13px;display:flex;gap:12px;align-items:center;justify-content:center">We use cookies to improve Acme. <button class="button" type="button">Accept</button></div>',
      ],
    ],
    note: 'The new cookie banner covers the Sign up button.',
    plausible: true,
  },
  {
    id: 'signup-button-contrast-lost',
    page: 'signup',
    label: 'regression',
    commits: ['Upgrade eslint to v9 and fix lint errors'],
    changedFiles: ['M eslint.config.js', ...DEPENDENCY_FILES, 'M src/pages/signup.tsx'],
    css: '.signup .button { background: #dbeafe; color: #eff6ff; }',
    note: 'The Sign up label is white on pale blue: unreadable.',
  },
  // blog
  {
    id: 'blog-new-headline',
    page: 'blog',
    label: 'intended',
    commits: ['New headline for the 3.0 launch post'],
    changedFiles: ['M content/blog/acme-3.md'],
    checkpointIntent: 'The headline reads "Meet Acme 3.0: faster projects, shared dashboards"',
    replace: [['Acme 3.0 is here', 'Meet Acme 3.0: faster projects, shared dashboards']],
    note: 'The new headline, on two lines.',
  },
  {
    id: 'blog-larger-body-text',
    page: 'blog',
    label: 'intended',
    commits: ['Increase article body text to 17px for readability'],
    changedFiles: ['M src/styles/article.css'],
    intent: 'A blog post with its headline, the author and their photo, and paragraphs in 17px body text',
    css: 'article p { font-size: 17px; line-height: 1.65; }',
    note: 'Larger body text; the post is longer.',
  },
  {
    id: 'blog-broken-author-photo',
    page: 'blog',
    label: 'regression',
    commits: ['Move static assets to the CDN bucket'],
    changedFiles: ['M next.config.js', 'M .github/workflows/deploy.yml'],
    replace: [['/img/author-80x80.png', '/cdn/img/author-80x80.png']],
    note: "The author's photo is a broken image.",
    plausible: true,
  },
  {
    id: 'blog-link-overflows',
    page: 'blog',
    label: 'regression',
    commits: ['Tidy lint warnings in the blog module', 'Link the full changelog from the launch post'],
    changedFiles: ['M src/blog/render.ts', 'M content/blog/acme-3.md'],
    replace: [
      [
        'acme.example/changelog.',
        '<a href="https://acme.example/changelog/releases/2024/acme-3-0-full-list-of-changes-fixes-and-migration-notes-for-teams">https://acme.example/changelog/releases/2024/acme-3-0-full-list-of-changes-fixes-and-migration-notes-for-teams</a>.',
      ],
    ],
    css: 'article a { white-space: nowrap; }',
    note: 'The long link runs out of the article column and off the page.',
  },
  // shop
  {
    id: 'products-sale-badge',
    page: 'products',
    label: 'intended',
    commits: ['Show a Sale badge on discounted products'],
    changedFiles: ['M src/components/ProductCard.tsx', 'M src/styles/shop.css'],
    intent:
      'The shop shows six products in a three-column grid, each with a photo, a name and a price; discounted products carry a red Sale badge',
    css: ".sale { position: relative; } .sale::before { content: 'Sale'; position: absolute; top: 16px; left: 16px; background: #dc2626; color: #fff; font-size: 12px; font-weight: bold; padding: 2px 8px; border-radius: 999px; }",
    note: 'The two discounted products carry a red Sale badge.',
  },
  {
    id: 'products-four-columns',
    page: 'products',
    label: 'intended',
    commits: ['Show four products per row in the shop'],
    changedFiles: ['M src/styles/shop.css'],
    intent: 'The shop shows six products in a four-column grid, each with a photo, a name and a price',
    css: '.grid { grid-template-columns: repeat(4, 1fr); gap: 10px; } .product img { height: 90px; }',
    note: 'Four products per row, smaller photos.',
  },
  {
    id: 'products-grid-collapsed',
    page: 'products',
    label: 'regression',
    commits: ['Upgrade webpack to 5.91'],
    changedFiles: [...DEPENDENCY_FILES, 'M webpack.config.js'],
    css: '.grid { display: block; } .product { margin-bottom: 14px; }',
    note: 'The grid collapsed into one column of full-width cards.',
  },
  {
    id: 'products-names-clipped',
    page: 'products',
    label: 'regression',
    commits: ['Rename CSS variables to design tokens'],
    changedFiles: ['M src/styles/tokens.css', 'M src/styles/shop.css'],
    css: '.product h3 { height: 9px; overflow: hidden; }',
    note: 'Product names are cut in half.',
  },
  // header
  {
    id: 'header-docs-link',
    page: 'header',
    label: 'intended',
    commits: ['Add Docs to the main navigation'],
    changedFiles: ['M src/components/Header.tsx'],
    intent:
      'The header shows the logo, the main navigation (Product, Pricing, Customers, Blog, Docs), a search box and a Sign in button on one line',
    replace: [['<a href="/blog">Blog</a>', '<a href="/blog">Blog</a><a href="/docs">Docs</a>']],
    note: 'A Docs link after Blog.',
  },
  {
    id: 'header-new-logo',
    page: 'header',
    label: 'intended',
    commits: ['New logo: purple mark and wordmark'],
    changedFiles: ['M src/components/Logo.tsx', 'M src/styles/header.css'],
    intent: 'The header shows the new purple Acme logo, the main navigation, a search box and a Sign in button on one line',
    css: '.logo { color: #5b21b6; letter-spacing: 0.5px; }',
    replace: [['fill="#2563eb"', 'fill="#7c3aed"']],
    note: 'The logo mark and wordmark are purple.',
  },
  {
    id: 'header-nav-wraps',
    page: 'header',
    label: 'regression',
    commits: ['Add the analytics snippet to the layout'],
    changedFiles: ['M src/layouts/Base.astro'],
    css: '.topbar nav { flex-wrap: wrap; width: 230px; row-gap: 30px; } .topbar nav a { font-size: 16px; }',
    note: 'The navigation wraps and its second line is cut off by the header.',
  },
  {
    id: 'header-giant-search-icon',
    page: 'header',
    label: 'regression',
    commits: ['Refactor icon imports into one sprite'],
    changedFiles: ['M src/icons/index.ts', 'D src/icons/search.svg'],
    css: '.search svg { width: 60px; height: 60px; } .search { width: auto; }',
    note: 'The search icon is huge and breaks out of its box.',
    plausible: true,
  },
  // about page footer
  {
    id: 'footer-social-links',
    page: 'footer',
    label: 'intended',
    commits: ['Add social links to the footer'],
    changedFiles: ['M src/components/Footer.tsx'],
    intent: 'The page ends with a call to action and a footer with Product, Company, Follow us and Support links and the legal line',
    css: '.columns { grid-template-columns: repeat(4, 1fr); }',
    replace: [
      [
        '<div><h4>Support</h4>',
        '<div><h4>Follow us</h4><a href="https://github.com/acme">GitHub</a><a href="https://mastodon.social/@acme">Mastodon</a><a href="https://www.linkedin.com/company/acme">LinkedIn</a></div><div><h4>Support</h4>',
      ],
    ],
    note: 'A Follow us column with three social links.',
  },
  {
    id: 'footer-copyright-year',
    page: 'footer',
    label: 'intended',
    commits: ['Update the copyright year to 2025'],
    changedFiles: ['M src/components/Footer.tsx'],
    checkpointIntent: 'The legal line reads © 2025 Acme Inc.',
    replace: [['© 2024 Acme Inc.', '© 2025 Acme Inc.']],
    note: 'The year is 2025.',
  },
  {
    id: 'footer-press-link-removed',
    page: 'footer',
    label: 'intended',
    commits: ['Remove the Press page (press releases moved to the blog)'],
    changedFiles: ['D src/pages/press.tsx', 'M src/components/Footer.tsx'],
    intent: 'The page ends with a call to action and a footer with Product, Company (About, Careers) and Support links and the legal line',
    replace: [['<a href="/press">Press</a>', '']],
    note: 'The Press link is gone, as the commit says.',
  },
  {
    id: 'footer-missing',
    page: 'footer',
    label: 'regression',
    commits: ['Remove unused layout components'],
    changedFiles: ['D src/components/LegacyBanner.tsx', 'M src/layouts/Page.tsx'],
    replace: [['<footer>', '<footer hidden>']],
    note: 'The footer is gone.',
  },
  {
    id: 'footer-columns-overlap',
    page: 'footer',
    label: 'regression',
    commits: ['Update dependency sass to 1.77'],
    changedFiles: DEPENDENCY_FILES,
    css: '.columns { grid-template-columns: repeat(3, 40px); } footer a, footer h4 { white-space: nowrap; }',
    note: 'The footer columns overlap each other.',
  },
  // dashboard
  {
    id: 'dashboard-conversion-card',
    page: 'dashboard',
    label: 'intended',
    commits: ['Add a conversion rate card to the dashboard'],
    changedFiles: ['M src/pages/dashboard.tsx', 'M src/api/stats.ts'],
    intent:
      'The dashboard shows visitors, sign-ups, churn and the conversion rate with their weekly trend, and a chart of sign-ups per day',
    css: '.stats { grid-template-columns: repeat(4, 1fr); }',
    replace: [
      [
        '<div class="card chart">',
        '<div class="card stat"><div class="muted">Conversion</div><div class="value">2.7%</div><div class="trend up">▲ 0.3 pts vs last week</div></div>\n  <div class="card chart">',
      ],
    ],
    note: 'A fourth card, Conversion 2.7 %.',
  },
  {
    id: 'dashboard-trend-colours',
    page: 'dashboard',
    label: 'intended',
    commits: ['Colour the weekly trends: green when up, red when down'],
    changedFiles: ['M src/styles/dashboard.css'],
    intent:
      'The dashboard shows visitors, sign-ups and churn with their weekly trend (green when up, red when down), and a chart of sign-ups per day',
    css: '.trend.up { color: #059669; } .trend.down { color: #dc2626; }',
    note: 'Trends are green and red.',
  },
  {
    id: 'dashboard-empty-chart',
    page: 'dashboard',
    label: 'regression',
    commits: ['Migrate date utilities to date-fns'],
    changedFiles: ['M src/lib/dates.ts', ...DEPENDENCY_FILES],
    css: '.bars div { height: 0 !important; }',
    note: 'The chart has no bars.',
  },
  {
    id: 'dashboard-undefined-values',
    page: 'dashboard',
    label: 'regression',
    commits: ['Bump TypeScript to 5.5'],
    changedFiles: DEPENDENCY_FILES,
    replace: [
      ['>12,480<', '>undefined<'],
      ['>342<', '>undefined<'],
    ],
    note: 'Two figures read "undefined".',
  },
  // checkout
  {
    id: 'checkout-delivery-date',
    page: 'checkout',
    label: 'intended',
    commits: ['Show the estimated delivery date in the order summary'],
    changedFiles: ['M src/pages/checkout.tsx'],
    intent: 'The order summary lists the items, shipping, the estimated delivery date and the total, with a Pay button for the total',
    replace: [
      [
        '<div class="total">',
        '<div class="line"><span class="name">Estimated delivery</span><span>Tue, Mar 12</span></div>\n  <div class="total">',
      ],
    ],
    note: 'An Estimated delivery line above the total.',
  },
  {
    id: 'checkout-green-pay-button',
    page: 'checkout',
    label: 'intended',
    commits: ['Make the Pay button larger and green'],
    changedFiles: ['M src/styles/checkout.css'],
    checkpointIntent: 'The Pay button is large and green',
    css: '.pay .button { background: #059669; padding: 15px; font-size: 17px; }',
    note: 'A larger green Pay button.',
  },
  {
    id: 'checkout-apple-pay-covers-pay',
    page: 'checkout',
    label: 'regression',
    commits: ['Add Apple Pay support'],
    changedFiles: ['A src/payments/applePay.ts', 'M src/pages/checkout.tsx'],
    replace: [
      [
        '<div class="pay">',
        '<div class="pay"><button type="button" style="position:absolute;top:4px;left:50px;right:50px;background:#000;color:#fff;border:0;border-radius:6px;padding:9px;font:inherit;font-weight:bold">Pay with Apple Pay</button>',
      ],
    ],
    note: 'The Apple Pay button sits on top of the Pay button and hides its label.',
    plausible: true,
  },
  {
    id: 'checkout-amounts-overflow',
    page: 'checkout',
    label: 'regression',
    commits: ['Refactor currency rounding'],
    changedFiles: ['M src/lib/money.ts'],
    css: '.line span:last-child, .total .amount { position: relative; left: 70px; }',
    note: "The amounts stick out of the summary's right edge.",
  },
  // profile
  {
    id: 'profile-round-avatar',
    page: 'profile',
    label: 'intended',
    commits: ['Round avatars everywhere'],
    changedFiles: ['M src/components/Avatar.tsx'],
    intent: "The profile card shows the person's round photo, name, role, bio and the Message and Follow buttons",
    css: '.profile img { border-radius: 50%; }',
    note: 'The photo is round.',
  },
  {
    id: 'profile-verified-badge',
    page: 'profile',
    label: 'intended',
    commits: ["Show a Verified badge next to verified people's names"],
    changedFiles: ['M src/components/ProfileCard.tsx'],
    checkpointIntent: 'A Verified badge follows the name',
    replace: [['<h2>Katherine Johnson</h2>', '<h2>Katherine Johnson <span class="badge">✓ Verified</span></h2>']],
    note: 'A Verified badge after the name.',
  },
  {
    id: 'profile-broken-photo',
    page: 'profile',
    label: 'regression',
    commits: ['Update CI cache keys'],
    changedFiles: ['M .github/workflows/ci.yml'],
    replace: [['/img/avatar-168x168.png', '/img/avatar-168x168.webp']],
    note: 'The photo is a broken image with its alt text.',
  },
  {
    id: 'profile-stretched-photo',
    page: 'profile',
    label: 'regression',
    commits: ['Lazy-load images below the fold'],
    changedFiles: ['M src/components/Image.tsx'],
    css: '.profile img { object-fit: fill; width: 150px; height: 84px; }',
    note: 'The photo is stretched sideways.',
  },
  // landing hero
  {
    id: 'hero-spring-copy',
    page: 'hero',
    label: 'intended',
    commits: ['New hero copy for the spring campaign'],
    changedFiles: ['M src/pages/index.tsx'],
    intent:
      'The landing page shows the spring headline "Ship your spring roadmap on time", the pitch, a Start free trial button and a picture of the board, then the customer logos',
    replace: [
      ['Plan, build and ship in one place', 'Ship your spring roadmap on time'],
      ['so the whole team sees what ships next.', 'so nothing slips between planning and release.'],
    ],
    note: 'New headline and pitch.',
  },
  {
    id: 'hero-testimonials-section',
    page: 'hero',
    label: 'intended',
    commits: ['Add a testimonials section under the customer logos'],
    changedFiles: ['A src/components/Testimonials.tsx', 'M src/pages/index.tsx'],
    intent:
      'The landing page shows the headline, the pitch, a Start free trial button and a picture of the board, then the customer logos and two testimonials',
    replace: [
      [
        '<span>UMBRELLA</span></section>',
        '<span>UMBRELLA</span></section>\n<section aria-label="Testimonials" style="display:grid;grid-template-columns:1fr 1fr;gap:14px;padding:18px 28px"><blockquote class="card" style="margin:0">“We ship twice as often since we moved to Acme.”<div class="muted">Dana, CTO at Globex</div></blockquote><blockquote class="card" style="margin:0">“Finally one place for the roadmap and the releases.”<div class="muted">Sam, PM at Initech</div></blockquote></section>',
      ],
    ],
    note: 'Two testimonial cards under the logos.',
  },
  {
    id: 'hero-cta-invisible',
    page: 'hero',
    label: 'regression',
    commits: ['Upgrade React Router to 6.23'],
    changedFiles: DEPENDENCY_FILES,
    css: '.hero .cta { background: #eff6ff; color: #eff6ff; }',
    note: 'The Start free trial button has vanished into the background.',
  },
  {
    id: 'hero-image-over-headline',
    page: 'hero',
    label: 'regression',
    commits: ['Remove legacy polyfills'],
    changedFiles: ['D src/polyfills.ts', 'M src/main.ts'],
    css: '.hero { display: block; position: relative; } .hero img { position: absolute; top: 30px; right: 28px; }',
    note: 'The picture covers the end of the headline and the pitch.',
  },
  // settings
  {
    id: 'settings-dark-mode-switch',
    page: 'settings',
    label: 'intended',
    commits: ['Add a dark mode switch to settings'],
    changedFiles: ['M src/pages/settings.tsx', 'A src/theme/dark.css'],
    intent:
      'Settings list the notification switches and a Dark mode switch, each with a label and an explanation, and a Save changes button',
    replace: [
      [
        '<div class="save">',
        '<div class="row"><div class="text"><div>Dark mode</div><span class="muted">Use a dark theme on this device</span></div><span class="toggle" role="switch" aria-checked="false" aria-label="Dark mode"></span></div>\n  <div class="save">',
      ],
    ],
    note: 'A Dark mode switch above Save.',
  },
  {
    id: 'settings-notifications-heading',
    page: 'settings',
    label: 'intended',
    commits: ['Group the notification settings under a heading'],
    changedFiles: ['M src/pages/settings.tsx'],
    checkpointIntent: 'The notification switches are grouped under a "Notifications" heading',
    replace: [
      [
        '<div class="row">',
        '<h3 style="margin:14px 0 0;font-size:12px;text-transform:uppercase;color:#6b7280;letter-spacing:.5px">Notifications</h3><div class="row">',
      ],
    ],
    note: 'A NOTIFICATIONS heading above the switches.',
  },
  {
    id: 'settings-labels-truncated',
    page: 'settings',
    label: 'regression',
    commits: ['Bump prettier to 3.3 and reformat'],
    changedFiles: ['M .prettierrc', ...DEPENDENCY_FILES, 'M src/pages/settings.tsx'],
    css: '.row .text { width: 96px; } .row .text div, .row .text span { display: block; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }',
    note: 'Labels and explanations are cut to a few letters.',
  },
  {
    id: 'settings-save-hidden',
    page: 'settings',
    label: 'regression',
    commits: ['Refactor the z-index scale of overlays'],
    changedFiles: ['M src/styles/z-index.css', 'M src/components/Toast.tsx'],
    css: '.settings { position: relative; }',
    replace: [
      [
        '<div class="save">',
        '<div style="position:absolute;left:0;right:0;bottom:0;height:66px;background:#fef3c7;border-top:1px solid #f59e0b;border-radius:0 0 10px 10px;padding:22px 18px;font-size:13px">Changes are saved automatically every minute.</div>\n  <div class="save">',
      ],
    ],
    note: 'A notice covers the Save changes button.',
  },
  // docs
  {
    id: 'docs-feedback-widget',
    page: 'docs',
    label: 'intended',
    commits: ['Add a "Was this page helpful?" widget to docs pages'],
    changedFiles: ['A src/components/Feedback.tsx', 'M src/layouts/Docs.tsx'],
    intent:
      'The installation page shows the docs navigation on the left, the install steps with a code block, and a "Was this page helpful?" widget',
    replace: [
      [
        '</main>',
        '<div class="card" style="display:flex;align-items:center;gap:10px;margin-top:14px;padding:10px 14px">Was this page helpful? <button class="button secondary" type="button">Yes</button><button class="button secondary" type="button">No</button></div>\n  </main>',
      ],
    ],
    note: 'A feedback box at the end of the page.',
  },
  {
    id: 'docs-dark-code-blocks',
    page: 'docs',
    label: 'intended',
    commits: ['Dark theme for code blocks'],
    changedFiles: ['M src/styles/code.css'],
    checkpointIntent: 'Code blocks are dark with light text',
    css: 'pre { background: #0f172a; color: #e2e8f0; border-color: #0f172a; }',
    note: 'The code block is dark.',
  },
  {
    id: 'docs-content-off-page',
    page: 'docs',
    label: 'regression',
    commits: ['Upgrade the markdown renderer to 4.0'],
    changedFiles: DEPENDENCY_FILES,
    css: '.docs { grid-template-columns: 180px 980px; }',
    note: 'The content column is wider than the page: text is cut off on the right.',
  },
  {
    id: 'docs-sidebar-missing',
    page: 'docs',
    label: 'regression',
    commits: ['Translate error messages to German'],
    changedFiles: ['M src/i18n/de.json', 'M src/errors.ts'],
    css: '.sidebar { display: none; }',
    note: 'The navigation is gone and the content is squeezed into its narrow column.',
  },
];
