import { CONTEXT_FILE_ENV } from '../config/layout';
import type { RunContext } from '../types';
import { readJsonFile } from '../util/fs';

/** The run context the global setup wrote for this run's processes (null outside a run it set up). */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext | null {
  const file = env[CONTEXT_FILE_ENV];
  return file ? readJsonFile<RunContext>(file) : null;
}
