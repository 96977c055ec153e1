import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SourceGraph } from '../../../src/sources/source-graph';
import { testSource } from '../../../src/store/key';
import type { SuiteToStore } from '../../../src/store/journal';
import { writeManifest } from '../../../src/files/run-folder';
import { baselineEntryDir } from '../../../src/config/paths';

/** What the store's unit tests share: a repository-shaped project and a pass's baseline entry. */

export const COMMIT = 'a'.repeat(40);
export const KEY = 'po.spec.ts › home-po';

/** A repository-shaped folder: a config, two specs, a page object one of them imports. */
export function project() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'baseline-store-')));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('playwright.config.ts', "export default { testDir: 'tests' };\n");
  write('tests/pages/home.ts', 'export const open = () => 1;\n');
  write('tests/po.spec.ts', "import { open } from './pages/home';\nopen();\n");
  write('tests/about.spec.ts', 'export {};\n');
  const store = path.join(root, 'store');
  const image = path.join(root, 'home.png');
  fs.writeFileSync(image, 'png bytes');
  const source = (spec = 'tests/po.spec.ts', capture = 'chromium', data: Record<string, string> = {}) =>
    testSource(
      new SourceGraph(root),
      { file: path.join(root, spec), line: 1, column: 1 },
      { configFile: path.join(root, 'playwright.config.ts'), capture, isolated: false, data },
    )!;
  return { root, write, store, image, source };
}

export const SUITE = 'c'.repeat(64);
export const FAILED = 'recommended.spec.ts › recommended';

/**
 * A run's baseline entry as a pass leaves it: KEY passed with two checkpoints, FAILED failed on
 * the base after one, and a test that took none.
 */
export function passedRun(root: string, store: string, source: ReturnType<ReturnType<typeof project>['source']>): SuiteToStore {
  const entry = baselineEntryDir(path.join(root, '.visual-uat'), COMMIT, SUITE);
  const write = (folder: string, name: string, bytes: string) => {
    fs.mkdirSync(path.join(entry, folder), { recursive: true });
    fs.writeFileSync(path.join(entry, folder, `${name}.png`), bytes);
    fs.writeFileSync(path.join(entry, folder, `${name}.signals.json`), JSON.stringify({ console: [name] }));
  };
  write('default/home', 'home', 'home png');
  write('default/home', 'footer', 'footer png');
  write('default/recommended', 'plans', 'plans png');
  writeManifest(entry, {
    complete: true,
    tests: {
      [KEY]: { folder: 'default/home', status: 'passed', error: null, checkpoints: ['home', 'footer'], unsettled: [], layouts: [] },
      [FAILED]: {
        folder: 'default/recommended',
        status: 'timedOut',
        error: 'Test timeout of 10000ms exceeded.',
        checkpoints: ['plans'],
        unsettled: [],
        layouts: [],
      },
      'api.spec.ts › health': { folder: 'default/health', status: 'passed', error: null, checkpoints: [], layouts: [] },
    },
  });
  return { store, baseCommit: COMMIT, suiteKey: SUITE, entry, rendered: [{ key: KEY, source }], replace: false };
}
