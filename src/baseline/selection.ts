import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile } from '../util/fs';
import { testIdentity, type TestIdentity } from '../config/test-identity';
import { CaptureScan, type TestLocation } from '../sources/capture-scan';
import type { SourceGraph } from '../sources/source-graph';
import { ENV } from '../config/environment';

/**
 * The baseline pass runs only the tests that can capture a checkpoint (see capture-scan.ts): the
 * suite is listed the way the pass would run it (`playwright test --list` with the same
 * arguments), each test is judged from its source, and the choice reaches the nested run as a
 * `--test-list` file, Playwright's own means (1.56 and later; older versions run everything).
 */

export interface ListedTest extends TestLocation {
  project: string;
  /** The file relative to the config's rootDir, as --test-list names it. */
  relativeFile: string;
  /** Describes and title, without the file. */
  titlePath: string[];
  /** The test's identity across runs (see config/test-identity testKey), and its image folder. */
  key: string;
  folder: string;
}

interface JsonSpec {
  title: string;
  file: string;
  line: number;
  column: number;
  tests: { projectName: string; expectedStatus?: string }[];
}

interface JsonSuite {
  title: string;
  /** A file's suite: the file, relative to the config's rootDir. */
  file?: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

interface JsonReport {
  config: { rootDir: string };
  suites: JsonSuite[];
}

function pickIdentity({ key, folder }: TestIdentity): { key: string; folder: string } {
  return { key, folder };
}

/**
 * Playwright's JSON listing, flattened: one entry per test and project. A test declared skipped
 * (`test.skip(title, …)`, `test.fixme`, a skipped describe) is left out: it runs on neither side,
 * so it takes no checkpoint and needs no baseline. A skip decided while the test runs is not
 * known here; such a test is listed.
 */
export function listedTests(report: JsonReport): ListedTest[] {
  const out: ListedTest[] = [];
  const walk = (suite: JsonSuite, fileTitle: string, titles: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests.filter((entry) => entry.expectedStatus !== 'skipped'))
        out.push({
          project: test.projectName,
          relativeFile: spec.file,
          file: path.resolve(report.config.rootDir, spec.file),
          line: spec.line,
          column: spec.column,
          titlePath: [...titles, spec.title],
          ...pickIdentity(testIdentity(test.projectName, [fileTitle, ...titles, spec.title])),
        });
    for (const child of suite.suites ?? []) walk(child, fileTitle, [...titles, child.title]);
  };
  // The top-level suites are files: their title heads the test's key, and is not a --test-list title.
  for (const file of report.suites) walk(file, file.title, []);
  return out;
}

export interface Selection {
  total: number;
  selected: ListedTest[];
}

/** The listed tests, and those of them that can capture. */
export interface Listing extends Selection {
  tests: ListedTest[];
  /** The files of a listing run (each that holds a test, skipped or not); not known of the runner's own list. */
  files?: string[];
}

/** The files a listing names, relative to the config's rootDir. */
export function listedFiles(report: JsonReport): string[] {
  return report.suites.map((suite) => suite.file ?? suite.title);
}

/**
 * A --test-list that runs every test of these files, as a run without a list runs them all (a
 * test declared skipped is listed as skipped); null when a file's name holds a separator of the
 * list's lines.
 */
export function wholeFilesListText(files: readonly string[]): string | null {
  if (files.some((file) => /[›>]/.test(file))) return null;
  return `${files.map((file) => file.split(path.sep).join('/')).join('\n')}\n`;
}

/** The listing of these tests, each once: `--repeat-each` lists a test once per repeat, and the base renders it once. */
export function listingOf(listed: readonly ListedTest[], graph: SourceGraph): Listing {
  const tests = [...new Map(listed.map((test) => [test.key, test])).values()];
  return { tests, ...selectCapturing(tests, graph) };
}

/**
 * The tests that can capture: every test the scan does not rule out. A test that took none in
 * the last run still runs, since the base app may lead it to a conditional checkpoint the current
 * app skips (that checkpoint is `missing`, a change the run must show).
 */
export function selectCapturing(tests: ListedTest[], graph: SourceGraph): Selection {
  const byFile = new Map<string, ListedTest[]>();
  for (const test of tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);
  const scan = new CaptureScan(graph);
  const selected: ListedTest[] = [];
  for (const [file, inFile] of byFile) {
    // A test file outside the repository (e.g. in node_modules) always runs.
    const reach = graph.owns(file) ? scan.testsOf(file, inFile) : inFile.map(() => 'indirect');
    inFile.forEach((test, index) => {
      if (reach[index] !== 'none') selected.push(test);
    });
  }
  return { total: tests.length, selected };
}

/**
 * The --test-list file: `[project] › file › describe › title`. A title that holds the separator
 * cannot be written so; its whole file is listed instead, which runs more, never less.
 */
export function testListText(selected: readonly Pick<ListedTest, 'project' | 'relativeFile' | 'titlePath'>[]): string {
  const lines = selected.map((test) => {
    const project = test.project ? `[${test.project}] › ` : '';
    const file = test.relativeFile.split(path.sep).join('/');
    const inFile = `${project}${file}`;
    return test.titlePath.some((title) => title.includes('›')) ? inFile : [inFile, ...test.titlePath].join(' › ');
  });
  return `${[...new Set(lines)].join('\n')}\n`;
}

export interface ListInput {
  cli: string;
  configFile: string;
  args: string[];
  outputFile: string;
  /** Where the listing's own output goes (the reason, when it fails). */
  logFile: string;
  env: NodeJS.ProcessEnv;
}

/** `playwright test --list` with the pass's arguments, as JSON; null when it fails (the pass then runs everything). */
export async function listSuite(input: ListInput): Promise<JsonReport | null> {
  fs.rmSync(input.outputFile, { force: true });
  const args = [input.cli, 'test', '--list', '--reporter=json', ...input.args];
  if (!input.args.some((arg) => arg === '-c' || arg === '--config' || arg.startsWith('--config='))) args.push('--config', input.configFile);
  fs.mkdirSync(path.dirname(input.logFile), { recursive: true });
  const log = fs.openSync(input.logFile, 'w');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...input.env, ...ENV.jsonOutputName.entry(input.outputFile), ...ENV.forceColor.entry('0') },
      stdio: ['ignore', log, log],
    });
    child.on('error', () => resolve(null));
    child.on('exit', resolve);
  });
  fs.closeSync(log);
  return code === 0 ? readJsonFile<JsonReport>(input.outputFile) : null;
}
