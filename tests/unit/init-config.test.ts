import { describe, expect, it } from 'vitest';
import { describeEdit, wrapConfig } from '../../src/cli/init-config';

const wrap = (text: string, file = 'playwright.config.ts', base: string | null = 'main') => wrapConfig(file, text, base);

describe('wrapConfig', () => {
  it('wraps an exported defineConfig and adds the import after the last one, in the file\'s style', () => {
    const text = "import { defineConfig, devices } from '@playwright/test';\n\n/** See the docs. */\nexport default defineConfig({\n  testDir: './tests',\n  reporter: 'html',\n});\n";
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
    const edit = wrap('const { defineConfig } = require("@playwright/test")\nconst path = require("path")\nmodule.exports = defineConfig({ testDir: path.join(__dirname, "e2e") })\n', 'playwright.config.js', null);
    expect(edit).toMatchObject({
      kind: 'edit',
      text: 'const { defineConfig } = require("@playwright/test")\nconst path = require("path")\nconst { withVisualUat } = require("visual-uat")\nmodule.exports = withVisualUat(defineConfig({ testDir: path.join(__dirname, "e2e") }))\n',
    });
  });

  it('wraps an exported identifier or a satisfies expression', () => {
    expect(wrap("import type { PlaywrightTestConfig } from '@playwright/test';\nconst config: PlaywrightTestConfig = { testDir: 'tests' };\nexport default config;\n")).toMatchObject({ kind: 'edit', text: expect.stringContaining("export default withVisualUat(config, { baseBranch: 'main' });") });
    expect(wrap("export default { testDir: 'tests' } satisfies import('@playwright/test').PlaywrightTestConfig;\n")).toMatchObject({ kind: 'edit', text: expect.stringMatching(/^import \{ withVisualUat \} from 'visual-uat';\nexport default withVisualUat\(\{ testDir: 'tests' \} satisfies/) });
  });

  it('knows a config it already wired', () => {
    expect(wrap("import { defineConfig } from '@playwright/test';\nimport { withVisualUat } from 'visual-uat';\nexport default withVisualUat(defineConfig({}));\n")).toEqual({ kind: 'wired' });
  });

  it.each([
    ["export { default } from './base.config';\n", 'its default export comes from another module'],
    ["const config = {};\nexport { config as default };\n", 'its default export comes from another module'],
    ['export default function config() { return {}; }\n', 'it exports a function or a class'],
    ['export default () => ({ testDir: "tests" });\n', 'it exports a function, not a config object'],
    ["import { defineConfig } from '@playwright/test';\nexport const config = defineConfig({});\n", 'it has no `export default` or `module.exports =`'],
    ['export default defineConfig({ testDir: \n', 'it does not parse'],
    ["import { withVisualUat } from './our-wrapper';\nexport default withVisualUat({});\n", 'it has a withVisualUat of its own'],
  ])('refuses %j', (text, reason) => {
    const edit = wrap(text);
    expect(edit.kind).toBe('refused');
    expect(edit.kind === 'refused' && edit.reason).toContain(reason);
  });
});
