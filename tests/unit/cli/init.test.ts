import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { init } from '../../../src/cli/init';

describe('init', () => {
  it('in a project without a Playwright config, says how to create one and changes nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-init-'));
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "scripts": { "dev": "next dev" } }\n');
    await expect(init(dir, {})).rejects.toThrow(
      "visual-uat init: no playwright.config.{ts,js,mts,mjs,cts,cjs} here, and init wraps an existing one: create it first (npm init playwright@latest, or the config in the Quick start of visual-uat's README) and run init again, or name yours with --config",
    );
    expect(fs.readdirSync(dir)).toEqual(['package.json']);
  });
});
