import { spawn } from 'node:child_process';
import path from 'node:path';
import { fixtureEnv, playwrightCli, visualUatCli } from '../../scripts/fixture-repo';
import { assertNoRepeatedLines } from './repeated-lines';

export interface AsyncRun {
  status: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * `runPlaywright` without blocking the event loop: needed when the test process itself serves
 * something the run calls, such as the fake OpenAI server (tests/support/fake-openai.ts).
 */
export function runPlaywrightAsync(dir: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 300_000): Promise<AsyncRun> {
  return runNodeAsync(dir, playwrightCli(dir), args, env, timeoutMs);
}

/** The installed `visual-uat` command in `dir`, as `npx visual-uat` runs it, without blocking the event loop. */
export function runVisualUatAsync(dir: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 300_000): Promise<AsyncRun> {
  return runNodeAsync(dir, visualUatCli(dir), args, env, timeoutMs);
}

/**
 * `playwright test` in a process group of its own, as CI starts a job: a run that kills its group
 * (VISUAL_UAT_KILL_AT) kills it and what it started, never the test process.
 */
export function startDetachedRun(
  repo: string,
  env: NodeJS.ProcessEnv = {},
): { pid: number; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> } {
  const child = spawn(process.execPath, [playwrightCli(repo), 'test'], { cwd: repo, env: fixtureEnv(env), detached: true });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { pid: child.pid!, done: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, output }))) };
}

function runNodeAsync(dir: string, entry: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<AsyncRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [entry, ...args], { cwd: dir, env: fixtureEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(killer);
      try {
        assertNoRepeatedLines(`${path.basename(entry)} ${args.join(' ')}`, { stdout, stderr });
      } catch (error) {
        reject(error);
        return;
      }
      resolve({ status, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}
