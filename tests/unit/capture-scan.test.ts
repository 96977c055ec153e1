import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callEnd, capturingTests } from '../../src/baseline/capture-scan';

function repoWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-scan-'));
  for (const [name, text] of Object.entries(files)) {
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
    .flatMap((text, index) => [...text.matchAll(/\btest(?:\.only)?\(/g)].map((match) => ({ file: full, line: index + 1, column: match.index! + 1 })));
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

describe('capturingTests', () => {
  it('picks the tests whose own call captures, in a file that captures nowhere else', () => {
    const dir = repoWith({ 'tests/account.spec.ts': MIXED, 'tests/helpers/login.ts': 'export async function login(page, who) { await page.goto("/login?as=" + who); }\n' });
    expect(capturingTests(path.join(dir, 'tests/account.spec.ts'), locate(dir, 'tests/account.spec.ts'), dir)).toEqual(['none', 'direct', 'none', 'direct']);
  });

  it('counts toHaveScreenshot as a capture, on a page or a locator', () => {
    const suite = "import { test, expect } from 'visual-uat';\ntest('hero', async ({ page }) => {\n  await expect(page.locator('.hero')).toHaveScreenshot('hero.png');\n});\ntest('title', async ({ page }) => {\n  await expect(page).toHaveTitle(/Acme/);\n});\ntest('home', async ({ page }) => {\n  await expect(page).toHaveScreenshot();\n});\n";
    const dir = repoWith({ 'tests/home.spec.ts': suite });
    expect(capturingTests(path.join(dir, 'tests/home.spec.ts'), locate(dir, 'tests/home.spec.ts'), dir)).toEqual(['direct', 'none', 'direct']);
  });

  it('leaves out every test of a file whose closure never mentions a capture, even one that imports visual-uat', () => {
    const dir = repoWith({ 'tests/api.spec.ts': "import { test, expect } from 'visual-uat';\ntest('health', async ({ request }) => {\n  expect((await request.get('/health')).ok()).toBe(true);\n});\n" });
    expect(capturingTests(path.join(dir, 'tests/api.spec.ts'), locate(dir, 'tests/api.spec.ts'), dir)).toEqual(['none']);
  });

  it('keeps every test where a hook, a helper or an imported module may capture', () => {
    const hook = "import { test } from 'visual-uat';\ntest.afterEach(async ({ screenshotCheckpoint }) => screenshotCheckpoint('end'));\ntest('a', async ({ page }) => { await page.goto('/'); });\n";
    const helper = "import { test } from '@playwright/test';\nimport { snap } from './snap';\ntest('a', async ({ page }) => { await snap(page); });\ntest('b', async ({ page }) => { await page.goto('/'); });\n";
    const dir = repoWith({ 'tests/hook.spec.ts': hook, 'tests/helper.spec.ts': helper, 'tests/snap.ts': "import { screenshotCheckpoint } from 'visual-uat/playwright';\nexport const snap = (page) => screenshotCheckpoint(page, 'x');\n" });
    expect(capturingTests(path.join(dir, 'tests/hook.spec.ts'), locate(dir, 'tests/hook.spec.ts'), dir)).toEqual(['indirect']);
    expect(capturingTests(path.join(dir, 'tests/helper.spec.ts'), locate(dir, 'tests/helper.spec.ts'), dir)).toEqual(['indirect', 'indirect']);
  });

  it('runs tests it cannot read or scan', () => {
    const dir = repoWith({ 'tests/broken.spec.ts': "import { test } from 'visual-uat';\ntest('a', async ({ screenshotCheckpoint }) => { await screenshotCheckpoint('x') ;\n" });
    expect(capturingTests(path.join(dir, 'tests/broken.spec.ts'), locate(dir, 'tests/broken.spec.ts'), dir)).toEqual(['indirect']);
    expect(capturingTests(path.join(dir, 'tests/missing.spec.ts'), [{ file: 'x', line: 1, column: 1 }], dir)).toEqual(['indirect']);
  });
});

describe('callEnd', () => {
  it('ends a call past strings, comments and nested calls', () => {
    const source = "test('a)', () => { f(')'); /* ) */ // )\n g(`${h(')')}`); }) + rest";
    expect(source.slice(0, callEnd(source, 0)!)).toBe("test('a)', () => { f(')'); /* ) */ // )\n g(`${h(')')}`); })");
  });
});
