import { spawn } from 'node:child_process';
import { fixtureEnv, playwrightCli } from '../../scripts/fixture-repo';

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
  const started = Date.now();
  const child = spawn(process.execPath, [playwrightCli(dir), ...args], { cwd: dir, env: fixtureEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr, durationMs: Date.now() - started });
    });
  });
}
