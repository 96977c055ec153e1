import { spawn } from 'node:child_process';
import { ENV } from '../config/environment';
import { processAlive, processGroup } from '../util/process';
import { printLine } from '../util/output';
import { SERVER_READY_LINE } from '../config/server-ready';
import { awaitAnswer } from './ready-probe';

/**
 * Runs the base app's server command (the baseline pass's webServer) and ends it when the nested
 * Playwright run that started it is gone. Playwright stops its web servers itself, but a runner
 * killed with SIGKILL gets no chance to, and the base server would keep its port forever.
 *
 * The server stays in this process's group, so Playwright's own group kill still reaches it; when
 * the runner disappears, the guard ends the whole group the same way. The server starts first:
 * every step before it delays the base tests (see config/server-ready.ts, whose line the guard
 * prints once the server answers).
 */

const POLL_MS = 500;

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
  const server = spawn(command, { shell: true, stdio: 'inherit' });
  const group = processGroup(process.pid);
  const target = ENV.guardReady.read();
  if (target) void awaitAnswer(target).then(() => process.stdout.write(`${SERVER_READY_LINE}\n`));
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
