import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { suiteKeyOf } from '../../../src/store/suite-key';
import { ImportCache } from '../../../src/sources/import-cache';
import { SourceGraph } from '../../../src/sources/source-graph';

/** A git repository with a config, a spec that imports a helper folder outside the testDir, and app code the tests never import. */
function repoWith(files: Record<string, string> = {}): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'import-cache-')));
  const all = {
    'playwright.config.ts': "export default { testDir: 'tests' };\n",
    'tests/home.spec.ts':
      "import { test } from 'visual-uat';\nimport { open } from '../support/helpers';\n\ntest('home', async ({ page }) => open(page));\n",
    'support/helpers/index.ts': "export const open = (page: any) => page.goto('/');\n",
    'src/app.ts': 'export const title = "Home";\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) write(dir, name, text);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'start');
  return dir;
}

function write(dir: string, name: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), text);
}

/** One run's graph: a new process's, with the import cache the output folder keeps. */
function runGraph(dir: string): SourceGraph {
  return new SourceGraph(dir, new ImportCache(path.join(dir, '.visual-uat', 'cache', 'imports.json')));
}

/** The suite key and closure a run computes, and the modules it parsed to get them. */
async function keyOfRun(dir: string): Promise<{ key: string; files: string[]; parsed: string[] }> {
  const graph = runGraph(dir);
  const parse = vi.spyOn(graph, 'module');
  const { key, files } = await suiteKeyOf({
    repo: { root: dir },
    baseCommit: 'b'.repeat(40),
    configFile: path.join(dir, 'playwright.config.ts'),
    testDirs: [path.join(dir, 'tests')],
    args: [],
    options: {},
    versions: {},
    graph,
  });
  return {
    key,
    files: files.map((file) => path.relative(dir, file)),
    parsed: parse.mock.calls.map(([file]) => path.relative(dir, file)).sort(),
  };
}

const dirs: string[] = [];
function repo(files?: Record<string, string>): string {
  const dir = repoWith(files);
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the import cache: a warm run follows the test side without parsing it, and sees every edit', () => {
  it('a second run with nothing changed parses nothing and has the same key and closure', async () => {
    const dir = repo();
    const first = await keyOfRun(dir);
    expect(first.parsed).toEqual(['playwright.config.ts', 'support/helpers/index.ts', 'tests/home.spec.ts']);
    expect(first.files).toEqual(['playwright.config.ts', 'support/helpers/index.ts', 'tests/home.spec.ts']);
    const second = await keyOfRun(dir);
    expect(second).toEqual({ ...first, parsed: [] });
  });

  it('an app file the tests do not import changes neither the key nor what is parsed', async () => {
    const dir = repo();
    const first = await keyOfRun(dir);
    write(dir, 'src/app.ts', 'export const title = "Welcome";\n');
    write(dir, 'src/new-page.ts', 'export const page = 2;\n');
    expect(await keyOfRun(dir)).toEqual({ ...first, parsed: [] });
  });

  it('a test-side edit changes the key, parses the edited file and what it newly imports alone, and the import joins the closure', async () => {
    const dir = repo({ 'support/users.ts': 'export const users = ["ann"];\n' });
    const first = await keyOfRun(dir);
    expect(first.files).not.toContain('support/users.ts');
    write(
      dir,
      'support/helpers/index.ts',
      "import { users } from '../users';\nexport const open = (page: any) => page.goto(`/${users[0]}`);\n",
    );
    const edited = await keyOfRun(dir);
    expect(edited.key).not.toBe(first.key);
    expect(edited.parsed).toEqual(['support/helpers/index.ts', 'support/users.ts']);
    expect(edited.files).toContain('support/users.ts');
  });

  it('an imported file whose bytes change changes the key though its imports did not', async () => {
    const dir = repo();
    const first = await keyOfRun(dir);
    write(dir, 'support/helpers/index.ts', "export const open = (page: any) => page.goto('/home');\n");
    const edited = await keyOfRun(dir);
    expect(edited.key).not.toBe(first.key);
    expect(edited.files).toEqual(first.files);
  });

  it('a file added where an import looks takes its place: support/helpers.ts before support/helpers/index.ts', async () => {
    const dir = repo();
    const first = await keyOfRun(dir);
    write(dir, 'support/helpers.ts', "export const open = (page: any) => page.goto('/other');\n");
    const after = await keyOfRun(dir);
    expect(after.files).toContain('support/helpers.ts');
    expect(after.files).not.toContain('support/helpers/index.ts');
    expect(after.key).not.toBe(first.key);
  });

  it('a tsconfig.json added above the test side resolves its imports again', async () => {
    const dir = repo({
      'lib/open.ts': "export const open = (page: any) => page.goto('/');\n",
      'tests/home.spec.ts': "import { open } from '@lib/open';\n",
    });
    const first = await keyOfRun(dir);
    expect(first.files).not.toContain('lib/open.ts');
    write(dir, 'tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['lib/*'] } } }));
    const after = await keyOfRun(dir);
    expect(after.files).toContain('lib/open.ts');
    expect(after.key).not.toBe(first.key);
  });

  it('a cache file that does not read is parsed around, and written anew', async () => {
    const dir = repo();
    write(dir, '.visual-uat/cache/imports.json', '{ not json');
    const first = await keyOfRun(dir);
    expect(first.parsed.length).toBe(3);
    expect((await keyOfRun(dir)).parsed).toEqual([]);
  });
});
