import { execFileSync, spawn } from 'node:child_process';
import { ENV } from '../config/environment';
import { processAlive } from '../util/process';
import { printLine } from '../util/output';

/**
 * Runs the base app's server command (the baseline pass's webServer) and ends it when the nested
 * Playwright run that started it is gone. Playwright stops its web servers itself, but a runner
 * killed with SIGKILL gets no chance to, and the base server would keep its port forever.
 *
 * The server stays in this process's group, so Playwright's own group kill still reaches it; when
 * the runner disappears, the guard ends the whole group the same way.
 */

const POLL_MS = 500;

function ownProcessGroup(): number | null {
  try {
    return Number(execFileSync('ps', ['-o', 'pgid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim()) || null;
  } catch {
    return null;
  }
}

function main(): void {
  const command = ENV.guardedCommand.read();
  const runner = ENV.guardPid.read();
  if (!command || !runner) {
    printLine(
      `visual-uat: the server guard needs ${ENV.guardedCommand.name} and ${ENV.guardPid.name}: it is started by withVisualUat, not by hand`,
      'error',
    );
    process.exit(2);
  }
  const group = ownProcessGroup();
  const server = spawn(command, { shell: true, stdio: 'inherit' });
  const watch = setInterval(() => {
    if (processAlive(runner)) return;
    if (group) process.kill(-group, 'SIGKILL');
    server.kill('SIGKILL');
    process.exit(1);
  }, POLL_MS);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => {
    clearInterval(watch);
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main();
