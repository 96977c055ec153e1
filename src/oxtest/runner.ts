import fs from 'node:fs';
import path from 'node:path';
import { test, type Page, type TestInfo } from '@playwright/test';
import { takeCheckpoint } from '../capture';
import type { VisualUatTestOptions } from '../types';
import { executeCommand, type OxContext } from './commands';
import { parseOxtest } from './parser';
import { createVariables } from './variables';
import type { CallSite } from '../util/call-site';
import { printLine } from '../util/output';

/** Annotation type of a fallback selector that was used: the primary needs fixing. */
export const FALLBACK_ANNOTATION = 'oxtest-fallback';

export function readOxtest(file: string): string {
  if (!fs.existsSync(file)) throw new Error(`oxtest: ${file} does not exist (paths are relative to the spec file that runs it)`);
  return fs.readFileSync(file, 'utf8');
}

/**
 * Runs one .ox.test file in the current test: parsed whole first, then one `test.step` per
 * command, titled with its source line, so the HTML report reads as the script.
 */
export async function runOxtestFile(page: Page, testInfo: TestInfo, file: string, testOptions: VisualUatTestOptions = {}): Promise<void> {
  const configDir = testInfo.config.configFile ? path.dirname(testInfo.config.configFile) : testInfo.config.rootDir;
  const shown = path.relative(configDir, file) || file;
  const commands = parseOxtest(readOxtest(file), shown);
  const ctx: OxContext = {
    page,
    variables: createVariables(),
    checkpoint: (name, locator, intent) => takeCheckpoint(page, testInfo, name, { locator, intent }, testOptions, current),
    note(message) {
      testInfo.annotations.push({ type: FALLBACK_ANNOTATION, description: message });
    },
    log(message) {
      printLine(message);
    },
  };
  let current: CallSite = { file, line: 1, column: 1 };
  for (const cmd of commands) {
    // Each step, and a checkpoint in it, is located at its line of the script.
    current = { file, line: cmd.line, column: 1 };
    await test.step(
      cmd.source,
      async () => {
        try {
          await executeCommand(cmd, ctx);
        } catch (error) {
          if (error instanceof Error) error.message = `${shown}:${cmd.line}: ${error.message}`;
          throw error;
        }
      },
      { location: current },
    );
  }
}
