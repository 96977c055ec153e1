import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteKeyOf, type SuiteKeyInput } from '../../../src/store/suite-key';
import { SourceGraph } from '../../../src/sources/source-graph';
import { temporaryRepository } from '../../support/files';

const BASE = 'b'.repeat(40);

/** A git repository with a config, a spec that imports a page object, and an app file no test imports. */
function repository() {
  const { root, write } = temporaryRepository('visual-uat-suite-key-');
  write('playwright.config.ts', "export default { testDir: 'tests' };\n");
  write('tests/pages/home.ts', 'export const open = () => 1;\n');
  write('tests/home.spec.ts', "import { open } from './pages/home';\nopen();\n");
  write('src/app.ts', 'export const title = "Shop";\n');
  const input = (changes: Partial<SuiteKeyInput> = {}): SuiteKeyInput => ({
    repo: { root },
    baseCommit: BASE,
    configFile: path.join(root, 'playwright.config.ts'),
    testDirs: [path.join(root, 'tests')],
    args: [],
    options: { threshold: 0.1 },
    versions: { '@playwright/test': '1.50.0', 'visual-uat': '0.1.0' },
    graph: new SourceGraph(root),
    ...changes,
  });
  return { root, write, input };
}

describe('suiteKeyOf', () => {
  it('hashes the config, the tests and what they import, and nothing of the app', async () => {
    const { root, input } = repository();
    const { files } = await suiteKeyOf(input());
    expect(files.map((file) => path.relative(root, file)).sort()).toEqual([
      'playwright.config.ts',
      'tests/home.spec.ts',
      'tests/pages/home.ts',
    ]);
  });

  it('is the same for the same inputs, and changes with the base commit, a test file, a page object, the arguments, the options, the versions', async () => {
    const { write, input } = repository();
    const { key } = await suiteKeyOf(input());
    expect((await suiteKeyOf(input())).key).toBe(key);
    expect((await suiteKeyOf(input({ baseCommit: 'c'.repeat(40) }))).key).not.toBe(key);
    expect((await suiteKeyOf(input({ args: ['--project', 'firefox'] }))).key).not.toBe(key);
    expect((await suiteKeyOf(input({ options: { threshold: 0.2 } }))).key).not.toBe(key);
    expect((await suiteKeyOf(input({ versions: { '@playwright/test': '1.51.0', 'visual-uat': '0.1.0' } }))).key).not.toBe(key);
    write('tests/pages/home.ts', 'export const open = () => 2;\n');
    const pageObjectEdited = (await suiteKeyOf(input())).key;
    expect(pageObjectEdited).not.toBe(key);
    write('tests/home.spec.ts', "import { open } from './pages/home';\nopen(); open();\n");
    expect((await suiteKeyOf(input())).key).not.toBe(pageObjectEdited);
  });

  it('leaves the key alone when only the app changes: that is what the run compares', async () => {
    const { write, input } = repository();
    const { key } = await suiteKeyOf(input());
    write('src/app.ts', 'export const title = "Shop, renamed";\n');
    expect((await suiteKeyOf(input())).key).toBe(key);
  });

  it('counts a test directory named twice once', async () => {
    const { root, input } = repository();
    const once = await suiteKeyOf(input());
    const twice = await suiteKeyOf(input({ testDirs: [path.join(root, 'tests'), path.join(root, 'tests')] }));
    expect(twice).toEqual(once);
  });
});
