import fs from 'node:fs';
import { parse } from 'yaml';

/** One job of a spec file: what to do, in plain words, and how to tell it is done. */
export interface GenerateJob {
  name: string;
  prompt: string;
  acceptance: string;
  /** Where the job starts, relative to the base URL (default `/`). */
  url: string;
  /** Checkpoint names the script must take. */
  checkpoints: string[];
}

export interface GenerateSpec {
  file: string;
  /** The app's URL while generating (the spec's `baseURL`, else `--base-url`). */
  baseURL: string | null;
  maxIterations: number;
  jobs: GenerateJob[];
}

export const DEFAULT_MAX_ITERATIONS = 10;
const JOB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function fail(file: string, message: string): never {
  throw new Error(`visual-uat generate: ${file}: ${message}`);
}

function text(file: string, where: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) fail(file, `${where} is missing`);
    return undefined;
  }
  if (typeof value !== 'string' || !value.trim()) fail(file, `${where} must be a non-empty string`);
  return value.trim();
}

/** Reads and checks a spec file; every problem is one line naming the file and the field. */
export function readSpec(file: string): GenerateSpec {
  if (!fs.existsSync(file)) fail(file, 'no such file');
  let doc: unknown;
  try {
    doc = parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    fail(file, `not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof doc !== 'object' || doc === null) fail(file, 'expected a mapping with jobs:');
  const top = doc as Record<string, unknown>;
  const maxIterations = top.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!Number.isInteger(maxIterations) || (maxIterations as number) < 1)
    fail(file, `maxIterations must be a positive whole number (got ${JSON.stringify(maxIterations)})`);
  if (!Array.isArray(top.jobs) || top.jobs.length === 0) fail(file, 'jobs: must be a non-empty list');
  const names = new Set<string>();
  const jobs = top.jobs.map((raw: unknown, index: number): GenerateJob => {
    const job = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const name = text(file, `jobs[${index}].name`, job.name, true)!;
    if (!JOB_NAME.test(name)) fail(file, `jobs[${index}].name "${name}" must be usable as a file name (letters, digits, . _ -)`);
    if (names.has(name)) fail(file, `two jobs are named "${name}"`);
    names.add(name);
    const checkpoints = job.checkpoints ?? [];
    if (!Array.isArray(checkpoints) || checkpoints.some((c) => typeof c !== 'string' || !c.trim()))
      fail(file, `jobs[${index}].checkpoints must be a list of names`);
    return {
      name,
      prompt: text(file, `jobs[${index}].prompt`, job.prompt, true)!,
      acceptance: text(file, `jobs[${index}].acceptance`, job.acceptance, true)!,
      url: text(file, `jobs[${index}].url`, job.url, false) ?? '/',
      checkpoints: checkpoints.map((c: string) => c.trim()),
    };
  });
  return { file, baseURL: text(file, 'baseURL', top.baseURL, false) ?? null, maxIterations: maxIterations as number, jobs };
}
