import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProbedConfig } from '../../../src/cli/config-probe';
import { configWebServers, describeEdit, wrapConfig } from '../../../src/cli/init-config';
import { planBaseServers } from '../../../src/cli/init-servers';

const wrap = (text: string, file = 'playwright.config.ts', baseBranch: string | null = 'main') => wrapConfig(file, text, { baseBranch });

describe('wrapConfig', () => {
  it("wraps an exported defineConfig and adds the import after the last one, in the file's style", () => {
    const text =
      "import { defineConfig, devices } from '@playwright/test';\n\n/** See the docs. */\nexport default defineConfig({\n  testDir: './tests',\n  reporter: 'html',\n});\n";
    const edit = wrap(text);
    expect(edit.kind).toBe('edit');
    if (edit.kind !== 'edit') return;
    expect(edit.text).toBe(
      "import { defineConfig, devices } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\n\n/** See the docs. */\nexport default withVisualUat(defineConfig({\n  testDir: './tests',\n  reporter: 'html',\n}), { baseBranch: 'main' });\n",
    );
    expect(describeEdit(text, edit.insertions)).toBe(
      [
        '@@ line 1',
        "- import { defineConfig, devices } from '@playwright/test';",
        "+ import { defineConfig, devices } from '@playwright/test';",
        "+ import { withVisualUat } from 'visual-uat';",
        '@@ line 4',
        '- export default defineConfig({',
        '+ export default withVisualUat(defineConfig({',
        '@@ line 7',
        '- });',
        "+ }), { baseBranch: 'main' });",
      ].join('\n'),
    );
  });

  it('wraps module.exports with a require, double quotes and no semicolons as the file writes them', () => {
    const edit = wrap(
      'const { defineConfig } = require("@playwright/test")\nconst path = require("path")\nmodule.exports = defineConfig({ testDir: path.join(__dirname, "e2e") })\n',
      'playwright.config.js',
      null,
    );
    expect(edit).toMatchObject({
      kind: 'edit',
      text: 'const { defineConfig } = require("@playwright/test")\nconst path = require("path")\nconst { withVisualUat } = require("visual-uat")\nmodule.exports = withVisualUat(defineConfig({ testDir: path.join(__dirname, "e2e") }))\n',
    });
  });

  it('wraps an exported identifier or a satisfies expression', () => {
    expect(
      wrap(
        "import type { PlaywrightTestConfig } from '@playwright/test';\nconst config: PlaywrightTestConfig = { testDir: 'tests' };\nexport default config;\n",
      ),
    ).toMatchObject({ kind: 'edit', text: expect.stringContaining("export default withVisualUat(config, { baseBranch: 'main' });") });
    expect(wrap("export default { testDir: 'tests' } satisfies import('@playwright/test').PlaywrightTestConfig;\n")).toMatchObject({
      kind: 'edit',
      text: expect.stringMatching(
        /^import \{ withVisualUat \} from 'visual-uat';\nexport default withVisualUat\(\{ testDir: 'tests' \} satisfies/,
      ),
    });
  });

  it('knows a config it already wired', () => {
    expect(
      wrap(
        "import { defineConfig } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\nexport default withVisualUat(defineConfig({}));\n",
      ),
    ).toEqual({ kind: 'wired' });
  });

  it.each([
    ["export { default } from './base.config';\n", 'its default export comes from another module'],
    ['const config = {};\nexport { config as default };\n', 'its default export comes from another module'],
    ['export default function config() { return {}; }\n', 'it exports a function or a class'],
    ['export default () => ({ testDir: "tests" });\n', 'it exports a function, not a config object'],
    [
      "import { defineConfig } from '@playwright/test';\nexport const config = defineConfig({});\n",
      'it has no `export default` or `module.exports =`',
    ],
    ['export default defineConfig({ testDir: \n', 'it does not parse'],
    ["import { withVisualUat } from './our-wrapper';\nexport default withVisualUat({});\n", 'it has a withVisualUat of its own'],
  ])('refuses %j', (text, reason) => {
    const edit = wrap(text);
    expect(edit.kind).toBe('refused');
    expect(edit.kind === 'refused' && edit.reason).toContain(reason);
  });
});

describe('wrapConfig keeps the file as it was written', () => {
  const config = "import { defineConfig } from '@playwright/test';\n\nexport default defineConfig({\n  testDir: 'tests',\n});\n";

  it('a CRLF config stays CRLF, its first line included', () => {
    const edit = wrap(config.replace(/\n/g, '\r\n'));
    expect(edit.kind === 'edit' && edit.text).toBe(
      "import { defineConfig } from '@playwright/test';\r\nimport { withVisualUat } from 'visual-uat';\r\n\r\nexport default withVisualUat(defineConfig({\r\n  testDir: 'tests',\r\n}), { baseBranch: 'main' });\r\n",
    );
    if (edit.kind === 'edit') expect(describeEdit(config.replace(/\n/g, '\r\n'), edit.insertions)).not.toContain('\r');
  });

  it('a byte-order mark stays first', () => {
    const edit = wrap("\uFEFFexport default { testDir: 'tests' };\r\n");
    expect(edit.kind === 'edit' && edit.text).toBe(
      "\uFEFFimport { withVisualUat } from 'visual-uat';\r\nexport default withVisualUat({ testDir: 'tests' }, { baseBranch: 'main' });\r\n",
    );
    const withImport = wrap(`\uFEFF${config}`);
    expect(
      withImport.kind === 'edit' &&
        withImport.text.startsWith("\uFEFFimport { defineConfig } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\n"),
    ).toBe(true);
  });

  it("writes baseWebServer in the file's quotes: an object for one webServer, an array with null for several", () => {
    const one = wrapConfig('playwright.config.ts', config, {
      baseBranch: 'main',
      baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' },
    });
    expect(one.kind === 'edit' && one.text).toContain(
      "}), { baseBranch: 'main', baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' } });",
    );
    const several = wrapConfig(
      'playwright.config.js',
      'const { defineConfig } = require("@playwright/test")\nmodule.exports = defineConfig({ testDir: "tests" })\n',
      {
        baseBranch: null,
        baseWebServer: [null, { command: 'serve "my site" -l {port}' }],
      },
    );
    expect(several.kind === 'edit' && several.text).toContain(
      'module.exports = withVisualUat(defineConfig({ testDir: "tests" }), { baseWebServer: [null, { command: "serve \\"my site\\" -l {port}" }] })',
    );
  });
});

describe('configWebServers and planBaseServers', () => {
  const CONFIG =
    "import { defineConfig } from '@playwright/test';\nconst config = defineConfig({});\nif (!process.env.BASE_URL) config.webServer = servers();\nexport default config;\n";
  const evaluated = (webServer: ProbedConfig['webServer']) => configWebServers('playwright.config.ts', CONFIG, { options: {}, webServer });
  const servers = (webServer: string) => evaluated(new Function(`return ${webServer}`)() as ProbedConfig['webServer']);
  let dir: string;

  function project(scripts: Record<string, string>): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'init-servers-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts }));
    return dir;
  }

  it('reads the entries Playwright evaluated: one or an array, their commands, ports, cwd and PORT', () => {
    expect(servers("{ command: 'npm run dev', url: 'http://localhost:5173', env: { PORT: '5173' } }")).toEqual({
      kind: 'one',
      servers: [{ command: 'npm run dev', port: 5173, cwd: null, envSetsPort: true }],
    });
    expect(
      servers('[{ command: `node api.js`, port: 4000, cwd: "api" }, { command: `node ${"web"}.js`, url: "https://shop.test" }]'),
    ).toEqual({
      kind: 'array',
      servers: [
        { command: 'node api.js', port: 4000, cwd: 'api', envSetsPort: false },
        { command: 'node web.js', port: 443, cwd: null, envSetsPort: false },
      ],
    });
  });

  it('says why it cannot tell: a config Playwright could not load, one that sets its webServer under a condition not met here', () => {
    expect(configWebServers('playwright.config.ts', CONFIG, { failed: 'SyntaxError: Unexpected token' })).toEqual({
      kind: 'unclear',
      reason: 'Playwright could not load the config here: SyntaxError: Unexpected token',
    });
    expect(evaluated(null)).toEqual({
      kind: 'unclear',
      reason: expect.stringMatching(/^Playwright loads it here without one, though the file sets webServer under a condition/),
    });
    expect(configWebServers('playwright.config.ts', "export default { testDir: 'tests' };\n", { options: {}, webServer: null })).toEqual({
      kind: 'none',
    });
  });

  it("a Vite behind npm run dev gets its port flags; Next.js reading PORT, a flag already in the command: nothing written; a script that fixes its port: the server's own command on {port}; an unknown server: one line, with the command of a script where it is the config's one server", () => {
    const at = project({ dev: 'vite', next: 'next dev', fixed: 'vite --port 5173' });
    try {
      const vite = planBaseServers(servers("{ command: 'npm run dev', url: 'http://localhost:5173' }"), at, true);
      expect(vite).toEqual({
        baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' },
        lines: [
          'webServer (`npm run dev`): Vite, through package.json\'s "dev" script: baseWebServer starts the base with `npm run dev -- --port {port} --strictPort`, {port} being the base\'s port',
        ],
      });
      const others = planBaseServers(
        servers(
          "[{ command: 'npm run next', url: 'http://localhost:3000' }, { command: 'npm run dev -- --port 5173', port: 5173 }, { command: 'npm run fixed', port: 5173 }, { command: 'node api.js', port: 4000 }]",
        ),
        at,
        true,
      );
      expect(others.baseWebServer).toEqual([null, null, { command: 'npx vite --port {port}' }, null]);
      expect(others.lines).toEqual([
        'webServer[0] (`npm run next`): Next.js, through package.json\'s "next" script, takes its port from PORT, which the base run sets to the base\'s port: nothing to add',
        'webServer[1] (`npm run dev -- --port 5173`): Vite, through package.json\'s "dev" script, names its port in the command, which the base run replaces with the base\'s: nothing to add',
        'webServer[2] (`npm run fixed`): Vite, through package.json\'s "fixed" script, which sets a port of its own: baseWebServer starts the base with `npx vite --port {port}`, {port} being the base\'s port',
        `webServer[3] (\`node api.js\`): not a dev server init knows: if the base run stops on its port, add baseWebServer: { command: '<a command that starts it on {port}>' } to withVisualUat's options (README: "Your web server")`,
      ]);
      // The config's one server serves its app: a server of the scripts is a fair example.
      expect(planBaseServers(servers("{ command: 'node tools/serve.js', port: 4000 }"), at, true).lines).toEqual([
        `webServer (\`node tools/serve.js\`): not a dev server init knows: if the base run stops on its port, add baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' } (a server of your package.json scripts: check it serves this app) to withVisualUat's options (README: "Your web server")`,
      ]);
      expect(
        planBaseServers(servers("[{ command: 'node api.js', port: 4000 }, { command: 'npm run dev', port: 5173 }]"), at, false),
      ).toMatchObject({
        baseWebServer: [null, { command: 'npm run dev -- --port {port} --strictPort' }],
        lines: [
          expect.any(String),
          expect.stringContaining("add baseWebServer: { command: 'npm run dev -- --port {port} --strictPort' } to withVisualUat's options"),
        ],
      });
    } finally {
      fs.rmSync(at, { recursive: true, force: true });
    }
  });
});
