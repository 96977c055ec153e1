import fs from 'node:fs';

/** Processes whose working directory is inside `dir` (Linux /proc). */
export function processesIn(dir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
      } catch {
        return false;
      }
    });
}

/** Ends what a SIGKILLed Playwright runner leaves behind (its own web server is not ours to guard). */
export function killProcessesIn(dir: string): void {
  for (const pid of processesIn(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
