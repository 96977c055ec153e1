import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { specDigest } from '../../../src/sources/test-text';
import { serialProjects, testsIsolated } from '../../../src/config/isolation';

const SPEC = `import { test } from 'visual-uat';
/** Opens the plans page. */
const open = (page) => page.goto('/plans');

test('plans', async ({ page, screenshotCheckpoint }) => {
  await open(page);
  await screenshotCheckpoint(\`plans \${1} // no comment: a template's text\`);
});

test('about', async ({ page }) => {
  await page.goto('/about');
});
`;
/** The digest of the first test ('plans', line 5), in an isolated (fullyParallel) suite unless told. */
const digest = (text: string, isolated = true) =>
  specDigest(
    ts.createSourceFile('plans.spec.ts', text, ts.ScriptTarget.Latest, true),
    { file: 'plans.spec.ts', line: 5, column: 1 },
    isolated,
  );
const edited = (from: string, to: string) => {
  expect(SPEC).toContain(from);
  return SPEC.replace(from, to);
};

describe("a spec's digest for one test", () => {
  it('ignores comments and spacing, never a string or a template part', () => {
    expect(digest(edited('await open(page);', 'await open(page); // the plans'))).toBe(digest(SPEC));
    expect(digest(edited('  await open(page);', '    await   open( page );'))).toBe(digest(SPEC));
    expect(digest(edited('// no comment', '// no comments'))).not.toBe(digest(SPEC));
    expect(digest(edited("'/plans'", "'/plans/'"))).not.toBe(digest(SPEC));
    // A line break can end a statement: it counts.
    expect(digest(edited('await open(page);', 'await open(page)\n;'))).not.toBe(digest(SPEC));
  });

  it("in an isolated suite, leaves out the file's other tests but not the code around them", () => {
    expect(digest(edited("page.goto('/about')", "page.goto('/team')"))).toBe(digest(SPEC));
    expect(digest(`${SPEC}\ntest.skip('team', async ({ page }) => {\n  await page.goto('/team');\n});\n`)).toBe(digest(SPEC));
    expect(digest(edited("page.goto('/plans')", "page.goto('/pricing')"))).not.toBe(digest(SPEC));
    expect(digest(edited("test('about'", "test.beforeEach(async ({ page }) => page.goto('/'));\ntest('about'"))).not.toBe(digest(SPEC));
  });

  it('keeps the whole file when its tests may depend on each other', () => {
    expect(digest(edited("page.goto('/about')", "page.goto('/team')"), false)).not.toBe(digest(SPEC, false));
    for (const mode of ['serial', 'default']) {
      const ordered = edited("test('about'", `test.describe.configure({ mode: '${mode}' });\ntest('about'`);
      expect(digest(ordered.replace("page.goto('/about')", "page.goto('/team')"))).not.toBe(digest(ordered));
    }
  });
});

describe('which suites are isolated', () => {
  it('a fullyParallel config, unless a project turns it off; the command line decides over the project', () => {
    const env = {
      VISUAL_UAT_SERIAL_PROJECTS: JSON.stringify(
        serialProjects({ projects: [{ name: 'checkout', fullyParallel: false }, { name: 'site' }] }),
      ),
    };
    expect(testsIsolated({ fullyParallel: true }, 'site', env, [])).toBe(true);
    expect(testsIsolated({ fullyParallel: true }, 'checkout', env, [])).toBe(false);
    expect(testsIsolated({ fullyParallel: true }, 'checkout', env, ['test', '--fully-parallel'])).toBe(true);
    expect(testsIsolated({ fullyParallel: false }, 'site', env, [])).toBe(false);
  });
});
