import fs from 'node:fs';
import path from 'node:path';
import { openRepo } from '../git';
import { SetupError } from '../util/errors';
import { defaultBranch, type DefaultBranch } from '../git/base';
import semver from 'semver';
import { versions } from '../sources/capture-inputs';
import { ownManifest } from '../util/own-package';
import { ConfigLoadError, findConfig, probeConfig } from './cli-settings';
import type { ProbedConfig } from './config-probe';
import { configWebServers, describeEdit, wrapConfig } from './init-config';
import { planBaseServers } from './init-servers';
import { errorCode } from '../util/fs';

/**
 * `visual-uat init`: wires an existing Playwright project. It wraps the config with
 * withVisualUat (init-config.ts), with a baseWebServer where the config's server is a dev server
 * it knows (init-servers.ts), lists the output folder in .gitignore, can write a GitHub Actions
 * workflow, and prints the next three commands. It changes all of that or nothing: a config it
 * cannot edit safely, a file it cannot write, a Playwright older than visual-uat needs leave
 * every file as it was, with one line that says why.
 */

export interface InitOptions {
  config?: string;
  base?: string;
  dryRun?: boolean;
  githubActions?: boolean;
}

export interface InitOutcome {
  output: string;
  exitCode: number;
}

const OUTPUT_DIR_ENTRY = '.visual-uat/';
const WORKFLOW_FILE = path.join('.github', 'workflows', 'visual-uat.yml');

const NEXT_COMMANDS = [
  'npx playwright test            # the base branch and your working tree, captured and compared',
  "npx playwright show-report     # each checkpoint's status and why, beside Playwright's image diffs",
  'npx visual-uat review          # approve or reject what changed',
];

/**
 * The base branch to write into the config, and the line that says which and how it was found:
 * --base, else the repository's default branch as a run would find it (git/base defaultBranch).
 */
async function baseToWrite(dir: string, flag: string | undefined): Promise<{ branch: string | null; line: string }> {
  if (flag) return { branch: flag, line: `baseBranch '${flag}' (--base)` };
  let found: DefaultBranch;
  try {
    found = await defaultBranch(await openRepo(dir));
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    found = { missing: error.message.replace(/^visual-uat: /, '') };
  }
  if ('missing' in found)
    return { branch: null, line: `no baseBranch written: ${found.missing}; set baseBranch in withVisualUat once the base branch exists` };
  return { branch: found.branch, line: `baseBranch '${found.branch}' (${found.chosenBy})` };
}

function byHand(configName: string, base: string | null): string {
  const options = base ? `, { baseBranch: '${base}' }` : '';
  return [
    `  import { withVisualUat } from 'visual-uat';          // or: const { withVisualUat } = require('visual-uat');`,
    `  export default withVisualUat(<your config>${options});`,
    `(in ${configName}, around the config it exports)`,
  ].join('\n');
}

const SPEC_FILE = /\.(?:spec|test)\.[cm]?[jt]sx?$/;
const PLAYWRIGHT_IMPORT = /(?:from\s*|require\(\s*)['"]@playwright\/test['"]/;

/** Spec files under the config's folder whose toHaveScreenshot calls are still Playwright's: the import line to change. */
function playwrightSnapshotSpecs(dir: string, root = dir): string[] {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  return entries.flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || entry.name === 'node_modules' ? [] : playwrightSnapshotSpecs(file, root);
    if (!SPEC_FILE.test(entry.name)) return [];
    const text = fs.readFileSync(file, 'utf8');
    return text.includes('toHaveScreenshot') && PLAYWRIGHT_IMPORT.test(text) ? [path.relative(root, file)] : [];
  });
}

function adoptionHint(configDir: string): string[] {
  const specs = playwrightSnapshotSpecs(configDir);
  if (specs.length === 0) return [];
  return [
    `${specs.length} spec ${specs.length === 1 ? 'file calls' : 'files call'} toHaveScreenshot with @playwright/test's expect: ` +
      `import { test, expect } from 'visual-uat' there to make those calls checkpoints, then delete their -snapshots folders ` +
      `(README: "Adopting an existing toHaveScreenshot suite"):`,
    ...specs.map((spec) => `  ${spec}`),
  ];
}

/** Why the installed @playwright/test cannot run visual-uat, with what to install; null when it can. */
function playwrightTooOld(configFile: string): string | null {
  const needed = ownManifest()?.peerDependencies['@playwright/test'];
  if (!needed) return null;
  const installed = versions(configFile).playwright;
  const minimum = semver.minVersion(needed)?.version ?? needed;
  const install = `npm install -D @playwright/test@latest (visual-uat needs ${minimum} or later), then run init again`;
  if (installed === 'unknown') return `@playwright/test is not installed beside ${path.basename(configFile)}: ${install}`;
  return semver.satisfies(installed, needed) ? null : `@playwright/test ${installed} is installed: ${install}`;
}

/** Why `file` cannot be written, or null: an existing file is opened for writing, a new one needs its nearest folder writable. */
function unwritable(file: string): string | null {
  try {
    if (fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'r+'));
    else {
      let dir = path.dirname(file);
      while (!fs.existsSync(dir)) dir = path.dirname(dir);
      fs.accessSync(dir, fs.constants.W_OK);
    }
    return null;
  } catch (error) {
    return errorCode(error);
  }
}

function gitignoreListsOutput(text: string): boolean {
  return text.split(/\r?\n/).some((line) => ['.visual-uat', '.visual-uat/', '/.visual-uat', '/.visual-uat/'].includes(line.trim()));
}

/** The workflow of docs/ci-and-store.md (Sharding): shards write blobs, one job merges them with visual-uat's reporter first. */
function workflow(base: string | null): string {
  return `name: visual-uat
on:
  pull_request:${base ? `\n    branches: [${base}]` : ''}
jobs:
  test:
    strategy: { fail-fast: false, matrix: { shard: [1, 2] } }
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: { fetch-depth: 0 }              # the merge-base with the base branch
      - uses: actions/setup-node@v4
        with: { node-version: 20 }
      - run: npm ci && npx playwright install --with-deps chromium
      - run: npx playwright test --shard=\${{ matrix.shard }}/2 --reporter=blob
      - uses: actions/upload-artifact@v4
        if: \${{ !cancelled() }}
        with: { name: blob-\${{ matrix.shard }}, path: blob-report, retention-days: 1 }
  report:
    needs: test
    if: \${{ !cancelled() }}
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20 }
      - run: npm ci
      - uses: actions/download-artifact@v4
        with: { path: all-blobs, pattern: blob-*, merge-multiple: true }
      - run: npx playwright merge-reports --reporter=visual-uat/reporter,html ./all-blobs
        env: { OPENAI_API_KEY: "\${{ secrets.OPENAI_API_KEY }}" }
      - uses: actions/upload-artifact@v4
        with: { name: visual-uat-report, path: playwright-report }
`;
}

/** The config as Playwright loads it here, or why it could not (init still wraps it: the edit reads its syntax alone). */
function loaded(configFile: string): ProbedConfig | { failed: string } {
  try {
    return probeConfig(configFile);
  } catch (error) {
    if (error instanceof ConfigLoadError) return { failed: error.message };
    throw error;
  }
}

/** A file init writes: where, what, and the line that says so. */
interface Write {
  file: string;
  text: string;
  done: string;
  planned: string;
}

export async function init(cwd: string, options: InitOptions): Promise<InitOutcome> {
  const configFile = findConfig(options.config, cwd);
  if (!configFile)
    throw new Error(
      'visual-uat init: no playwright.config.{ts,js,mts,mjs,cts,cjs} here, and init wraps an existing one: create it first ' +
        "(npm init playwright@latest, or the config in the Quick start of visual-uat's README) and run init again, or name " +
        'yours with --config',
    );
  const configDir = path.dirname(configFile);
  const shown = (file: string) => path.relative(cwd, file) || path.basename(file);
  const configName = shown(configFile);
  const refuse = (why: string) => ({ output: `visual-uat init: changed nothing: ${why}\n`, exitCode: 1 });
  const tooOld = playwrightTooOld(configFile);
  if (tooOld) return refuse(tooOld);
  const { branch: base, line: baseLine } = await baseToWrite(configDir, options.base);
  const text = fs.readFileSync(configFile, 'utf8');
  const probed = loaded(configFile);
  const found = configWebServers(configFile, text, probed);
  const servers = planBaseServers(found, configDir, true);
  const edit = wrapConfig(configFile, text, { baseBranch: base, baseWebServer: servers.baseWebServer });
  if (edit.kind === 'refused')
    return refuse(`${configName} cannot be edited safely: ${edit.reason}. Add these lines yourself:\n${byHand(configName, base)}`);

  const lines: string[] = [];
  const writes: Write[] = [];
  if (edit.kind === 'wired') lines.push(`${configName}: already wired with withVisualUat`);
  else
    writes.push({
      file: configFile,
      text: edit.text,
      done: `${configName}: wrapped with withVisualUat\n${configName}: ${baseLine}`,
      planned: `${configName} would become:\n${describeEdit(text, edit.insertions)}\n${configName}: ${baseLine}`,
    });

  const gitignore = path.join(configDir, '.gitignore');
  const ignored = fs.existsSync(gitignore) ? fs.readFileSync(gitignore, 'utf8') : '';
  const eol = /\r?\n/.exec(ignored)?.[0] ?? '\n';
  if (gitignoreListsOutput(ignored)) lines.push(`.gitignore: already lists ${OUTPUT_DIR_ENTRY}`);
  else
    writes.push({
      file: gitignore,
      text: `${ignored}${ignored && !ignored.endsWith('\n') ? eol : ''}${OUTPUT_DIR_ENTRY}${eol}`,
      done: `.gitignore: ${OUTPUT_DIR_ENTRY} added`,
      planned: `.gitignore: would add ${OUTPUT_DIR_ENTRY}`,
    });

  if (options.githubActions) {
    const file = path.join(configDir, WORKFLOW_FILE);
    if (fs.existsSync(file)) lines.push(`${WORKFLOW_FILE}: exists already, left as it is`);
    else
      writes.push({
        file,
        text: workflow(base),
        done: `${WORKFLOW_FILE}: written (two shards, merged with visual-uat's reporter)`,
        planned: `${WORKFLOW_FILE}: would be written (two shards, merged with visual-uat's reporter)`,
      });
  }

  const blocked = writes.map((write) => ({ write, why: unwritable(write.file) })).find(({ why }) => why);
  if (blocked) return refuse(`${shown(blocked.write.file)} cannot be written (${blocked.why}): make it writable, then run init again`);
  for (const write of writes) {
    if (!options.dryRun) {
      fs.mkdirSync(path.dirname(write.file), { recursive: true });
      fs.writeFileSync(write.file, write.text);
    }
    lines.push(options.dryRun ? write.planned : write.done);
  }
  // A config wired before keeps its options: the lines say what to add there, unless it sets baseWebServer already.
  if (edit.kind === 'edit') lines.push(...servers.lines);
  else if ('failed' in probed || probed.options.baseWebServer === undefined) lines.push(...planBaseServers(found, configDir, false).lines);
  lines.push(...adoptionHint(configDir));
  if (!options.dryRun) lines.push('', 'Next:', ...NEXT_COMMANDS.map((command) => `  ${command}`));
  else lines.push('', 'Nothing was written (--dry-run).');
  return { output: `${lines.join('\n')}\n`, exitCode: 0 };
}
