import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaptureScan, type CaptureReach } from '../../../src/sources/capture-scan';
import { SourceGraph } from '../../../src/sources/source-graph';

/** A repository with these files, and @playwright/test installed as its types resolve. */
function repoWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-scan-'));
  const playwright = {
    'node_modules/@playwright/test/package.json': JSON.stringify({ name: '@playwright/test', main: 'index.js', types: 'index.d.ts' }),
    'node_modules/@playwright/test/index.d.ts':
      'export declare const test: any;\nexport declare const expect: any;\nexport type Page = any;\n',
  };
  for (const [name, text] of Object.entries({ ...playwright, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** Locations as Playwright reports them: the line and column of each `test(` call, 1-based. */
function locate(dir: string, file: string): { file: string; line: number; column: number }[] {
  const full = path.join(dir, file);
  return fs
    .readFileSync(full, 'utf8')
    .split('\n')
    .flatMap((text, index) =>
      [...text.matchAll(/\btest(?:\.only)?\(/g)].map((match) => ({ file: full, line: index + 1, column: match.index! + 1 })),
    );
}

const MIXED = `import { expect, test } from 'visual-uat';
import { login } from './helpers/login';

test.describe('account', () => {
  test('login works', async ({ page }) => {
    await login(page, "it's me");
    await expect(page.getByText(\`Welcome \${'back'}\`)).toBeVisible(); // no capture (a comment that mentions one would count)
  });

  test('profile looks right', async ({ page, screenshotCheckpoint }) => {
    await page.goto('/profile');
    await screenshotCheckpoint('profile');
  });

  test('regex and templates do not confuse the scan', async ({ page }) => {
    const path = /\\/profile\\/(\\d+)/;
    await expect(page).toHaveURL(path);
    const label = \`\${[1, 2].map((n) => \`n\${n}\`).join(')')}\`;
    expect(label).toBe('n1)n2');
  });

  test('flow', async ({ oxtest }) => {
    await oxtest.run('flows/buy.ox.test');
  });
});
`;

function capturingTests(file: string, tests: { file: string; line: number; column: number }[], repoRoot: string): CaptureReach[] {
  return new CaptureScan(new SourceGraph(repoRoot)).testsOf(file, tests);
}

describe('capturingTests', () => {
  it('picks the tests whose own call captures, in a file that captures nowhere else', () => {
    const dir = repoWith({
      'tests/account.spec.ts': MIXED,
      'tests/helpers/login.ts': 'export async function login(page, who) { await page.goto("/login?as=" + who); }\n',
    });
    expect(capturingTests(path.join(dir, 'tests/account.spec.ts'), locate(dir, 'tests/account.spec.ts'), dir)).toEqual([
      'none',
      'direct',
      'none',
      'direct',
    ]);
  });

  it('counts toHaveScreenshot as a capture, on a page or a locator', () => {
    const suite =
      "import { test, expect } from 'visual-uat';\ntest('hero', async ({ page }) => {\n  await expect(page.locator('.hero')).toHaveScreenshot('hero.png');\n});\ntest('title', async ({ page }) => {\n  await expect(page).toHaveTitle(/Acme/);\n});\ntest('home', async ({ page }) => {\n  await expect(page).toHaveScreenshot();\n});\n";
    const dir = repoWith({ 'tests/home.spec.ts': suite });
    expect(capturingTests(path.join(dir, 'tests/home.spec.ts'), locate(dir, 'tests/home.spec.ts'), dir)).toEqual([
      'direct',
      'none',
      'direct',
    ]);
  });

  it('leaves out every test of a file whose closure never mentions a capture, even one that imports visual-uat', () => {
    const dir = repoWith({
      'tests/api.spec.ts':
        "import { test, expect } from 'visual-uat';\ntest('health', async ({ request }) => {\n  expect((await request.get('/health')).ok()).toBe(true);\n});\n",
    });
    expect(capturingTests(path.join(dir, 'tests/api.spec.ts'), locate(dir, 'tests/api.spec.ts'), dir)).toEqual(['none']);
  });

  it('keeps every test where a hook may capture, and each test that calls a capturing helper', () => {
    const hook =
      "import { test } from 'visual-uat';\ntest.afterEach(async ({ screenshotCheckpoint }) => screenshotCheckpoint('end'));\ntest('a', async ({ page }) => { await page.goto('/'); });\n";
    const helper =
      "import { test } from '@playwright/test';\nimport { snap } from './snap';\ntest('a', async ({ page }) => { await snap(page); });\ntest('b', async ({ page }) => { await page.goto('/'); });\n";
    const dir = repoWith({
      'tests/hook.spec.ts': hook,
      'tests/helper.spec.ts': helper,
      'tests/snap.ts':
        "import { screenshotCheckpoint } from 'visual-uat/playwright';\nexport const snap = (page) => screenshotCheckpoint(page, 'x');\n",
    });
    expect(capturingTests(path.join(dir, 'tests/hook.spec.ts'), locate(dir, 'tests/hook.spec.ts'), dir)).toEqual(['indirect']);
    // The helper is a binding the scan follows: only the test that calls it can capture.
    expect(capturingTests(path.join(dir, 'tests/helper.spec.ts'), locate(dir, 'tests/helper.spec.ts'), dir)).toEqual(['direct', 'none']);
  });

  it('runs tests it cannot read or place', () => {
    const dir = repoWith({
      'tests/odd.spec.ts':
        "import { test } from 'visual-uat';\ntest('a', async ({ screenshotCheckpoint }) => screenshotCheckpoint('a'));\n",
    });
    expect(capturingTests(path.join(dir, 'tests/odd.spec.ts'), [{ file: 'x', line: 40, column: 1 }], dir)).toEqual(['indirect']);
    expect(capturingTests(path.join(dir, 'tests/missing.spec.ts'), [{ file: 'x', line: 1, column: 1 }], dir)).toEqual(['indirect']);
  });

  /** A page object that captures, reached by every way a real suite imports one. */
  const PAGE_OBJECT =
    "import type { Page } from '@playwright/test';\nimport { screenshotCheckpoint as snap } from 'visual-uat/playwright';\nexport class HomePage {\n  constructor(private page: Page) {}\n  async snapshot(name: string) { await snap(this.page, name); }\n}\n";
  const USES = (specifier: string) =>
    `import { test } from '@playwright/test';\nimport { HomePage } from '${specifier}';\ntest('home', async ({ page }) => { await new HomePage(page).snapshot('home'); });\ntest('title', async ({ page }) => { await page.goto('/'); });\n`;

  it('follows tsconfig paths, package.json imports, workspace packages and aliased imports', () => {
    const dir = repoWith({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@pages/*': ['tests/pages/*'] } } }),
      'package.json': JSON.stringify({ name: 'site', imports: { '#pages/*': './tests/pages/*.ts' } }),
      'tests/pages/home.ts': PAGE_OBJECT,
      'tests/alias.spec.ts': USES('@pages/home'),
      'tests/subpath.spec.ts': USES('#pages/home'),
      'tests/workspace.spec.ts': USES('@acme/pages'),
      'packages/pages/package.json': JSON.stringify({ name: '@acme/pages', main: 'index.ts' }),
      'packages/pages/index.ts': PAGE_OBJECT,
    });
    fs.mkdirSync(path.join(dir, 'node_modules', '@acme'), { recursive: true });
    fs.symlinkSync(path.join(dir, 'packages', 'pages'), path.join(dir, 'node_modules', '@acme', 'pages'));
    for (const spec of ['alias', 'subpath', 'workspace']) {
      const file = `tests/${spec}.spec.ts`;
      expect(capturingTests(path.join(dir, file), locate(dir, file), dir), spec).toEqual(['direct', 'none']);
    }
  });

  it('runs every test of a file with an import it cannot follow: a computed dynamic import, an unresolved path', () => {
    const dynamic =
      "import { test } from '@playwright/test';\ntest('a', async ({ page }) => { const name = 'home';\n  await import(`./pages/${name}`); });\ntest('b', async () => {});\n";
    const dir = repoWith({ 'tests/dynamic.spec.ts': dynamic, 'tests/unresolved.spec.ts': USES('@pages/home') });
    expect(capturingTests(path.join(dir, 'tests/dynamic.spec.ts'), locate(dir, 'tests/dynamic.spec.ts'), dir)).toEqual([
      'indirect',
      'indirect',
    ]);
    expect(capturingTests(path.join(dir, 'tests/unresolved.spec.ts'), locate(dir, 'tests/unresolved.spec.ts'), dir)).toEqual([
      'direct',
      'none',
    ]);
  });

  it('runs every test of a file in serial mode: a test that captures may need the ones before it', () => {
    const serial =
      "import { test } from 'visual-uat';\ntest.describe.configure({ mode: 'serial' });\ntest('log in', async ({ page }) => { await page.goto('/login'); });\ntest('dashboard', async ({ page, screenshotCheckpoint }) => { await screenshotCheckpoint('dashboard'); });\n";
    const dir = repoWith({ 'tests/serial.spec.ts': serial });
    expect(capturingTests(path.join(dir, 'tests/serial.spec.ts'), locate(dir, 'tests/serial.spec.ts'), dir)).toEqual([
      'indirect',
      'indirect',
    ]);
  });

  it('a package that depends on visual-uat can capture; one that does not cannot', () => {
    const dir = repoWith({
      'node_modules/shots/package.json': JSON.stringify({ name: 'shots', main: 'index.js', peerDependencies: { 'visual-uat': '*' } }),
      'node_modules/shots/index.js': 'exports.HomePage = class {};\n',
      'node_modules/plain/package.json': JSON.stringify({ name: 'plain', main: 'index.js' }),
      'node_modules/plain/index.js': 'exports.HomePage = class {};\n',
      'tests/shots.spec.ts': USES('shots'),
      'tests/plain.spec.ts': USES('plain'),
    });
    expect(capturingTests(path.join(dir, 'tests/shots.spec.ts'), locate(dir, 'tests/shots.spec.ts'), dir)).toEqual(['direct', 'none']);
    expect(capturingTests(path.join(dir, 'tests/plain.spec.ts'), locate(dir, 'tests/plain.spec.ts'), dir)).toEqual(['none', 'none']);
  });
});

describe('SourceGraph.closure', () => {
  it('reaches a page object behind a path alias, so an edit to it changes the suite key', () => {
    const dir = repoWith({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@pages/*': ['tests/pages/*'] } } }),
      'tests/pages/home.ts': "export const home = '/';\n",
      'tests/po.spec.ts': "import { home } from '@pages/home';\nimport fs from 'node:fs';\n",
    });
    expect(new SourceGraph(dir).closure([path.join(dir, 'tests/po.spec.ts')])).toEqual([
      path.join(dir, 'tests/pages/home.ts'),
      path.join(dir, 'tests/po.spec.ts'),
    ]);
  });
});
