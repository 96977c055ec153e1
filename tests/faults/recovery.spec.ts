import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, runPlaywright } from '../../scripts/fixture-repo';
import { startDetachedRun } from '../support/playwright-run';
import { outputPath, worktreeHomes } from '../../src/config/paths';
import { killProcessesIn, processesIn } from '../support/processes';
import { addWorkInProgress, repoState } from '../support/repo-state';
import { DEMO_STATUSES, readLatest, statuses, gateExit } from '../support/results';
import { writeRunLock } from '../support/run-lock';

/**
 * Crash recovery: a run killed with SIGKILL (its whole process group, as a cancelled CI job) at
 * each phase leaves the user's repository as it was, and the next run succeeds. The phases inside
 * set-up are hit through the VISUAL_UAT_KILL_AT fault points; the baseline pass itself is killed
 * from outside in tests/e2e/cache.spec.ts.
 */

/** The run lock of a repository's output folder. */
function lockOf(repo: string): string {
  return outputPath(path.join(repo, '.visual-uat'), 'lock');
}

/** The JSON files visual-uat writes (results, run context and lock, baseline manifests). */
function ownJsonFiles(outputDir: string): string[] {
  return ['results', 'run', 'baselines']
    .map((folder) => path.join(outputDir, folder))
    .filter((dir) => fs.existsSync(dir))
    .flatMap((dir) =>
      fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((file) => file.endsWith('.json'))
        .map((file) => path.join(dir, file)),
    );
}

for (const point of ['worktree', 'dependencies', 'reporter'] as const) {
  test(`a run killed at "${point}" leaves the repository as it was, and the next run recovers`, async () => {
    const repo = createFixtureRepo({ fixture: 'demo-app' });
    addWorkInProgress(repo);
    const before = repoState(repo);

    const killed = await startDetachedRun(repo, { VISUAL_UAT_KILL_AT: point }).done;
    expect(killed.signal, killed.output).toBe('SIGKILL');
    killProcessesIn(repo);
    const { worktrees: _worktrees, ...afterKill } = repoState(repo);
    const { worktrees: _before, ...expected } = before;
    expect(afterKill).toEqual(expected);
    expect(fs.existsSync(lockOf(repo))).toBe(true);
    // Whatever JSON the killed run left is whole: every write is a temp file and a rename.
    for (const file of ownJsonFiles(path.join(repo, '.visual-uat')))
      expect(() => JSON.parse(fs.readFileSync(file, 'utf8')), file).not.toThrow();

    const next = runPlaywright(repo, ['test']);
    expect(next.status, next.stdout + next.stderr).toBe(gateExit(readLatest(repo)));
    expect(next.stdout).toMatch(/took over the lock of an earlier run \(pid \d+\) that is gone/);
    expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
    expect(repoState(repo)).toEqual(before);
    // No process of the run lives on in the output folder or in a base worktree.
    for (const dir of [path.join(repo, '.visual-uat'), worktreeHomes(path.join(repo, '.visual-uat')).outside])
      expect(processesIn(dir)).toEqual([]);
    expect(fs.existsSync(lockOf(repo))).toBe(false);
  });
}

/**
 * A real zombie: the child exits a moment after its parent has become `sleep` (exec'd over the
 * shell), which never reaps it. Its PID is what the shell printed.
 */
async function startZombie(): Promise<{ zombie: number; parent: ChildProcess }> {
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 120'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const zombie = await new Promise<number>((resolve) =>
    parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  await expect.poll(() => fs.readFileSync(`/proc/${zombie}/stat`, 'utf8'), { timeout: 10_000 }).toMatch(/\) Z /);
  return { zombie, parent };
}

test('a lock held by a zombie, or by a PID that now belongs to another process, is stale and taken over', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const { zombie, parent } = await startZombie();
  try {
    const zombieStart = fs.readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1].split(' ')[19];
    writeRunLock(path.join(repo, '.visual-uat'), { pid: zombie, processStart: zombieStart, startedAt: new Date().toISOString() });
    const afterZombie = runPlaywright(repo, ['test']);
    expect(afterZombie.status, afterZombie.stdout + afterZombie.stderr).toBe(gateExit(readLatest(repo)));
    expect(afterZombie.stdout).toContain(`took over the lock of an earlier run (pid ${zombie}) that is gone`);
    expect(fs.existsSync(lockOf(repo))).toBe(false);

    // The sleeping parent is alive, but it is not the process that wrote this lock.
    writeRunLock(path.join(repo, '.visual-uat'), { pid: parent.pid, processStart: '1', startedAt: new Date().toISOString() });
    const afterReuse = runPlaywright(repo, ['test']);
    expect(afterReuse.status, afterReuse.stdout + afterReuse.stderr).toBe(gateExit(readLatest(repo)));
    expect(afterReuse.stdout).toContain(`took over the lock of an earlier run (pid ${parent.pid}) that is gone`);
    expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  } finally {
    parent.kill('SIGKILL');
  }
});

test('a second run started while one is in progress is refused with a clear message; neither is harmed', async () => {
  const repo = createFixtureRepo({ fixture: 'demo-app' });
  const first = startDetachedRun(repo);
  const lock = lockOf(repo);
  await expect.poll(() => fs.existsSync(lock), { timeout: 60_000, intervals: [50] }).toBe(true);

  const second = runPlaywright(repo, ['test']);
  expect(second.status).toBe(1);
  expect(second.stdout + second.stderr).toMatch(
    /visual-uat: another run \(pid \d+, started [^)]+\) is using .*\.visual-uat: wait for it to finish, or give this run its own folder with VISUAL_UAT_DIR/,
  );
  expect(second.stdout).not.toMatch(/✓|passed/);

  const firstResult = await first.done;
  expect(firstResult.code, firstResult.output).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual(DEMO_STATUSES);
  expect(fs.existsSync(lock)).toBe(false);
  const again = runPlaywright(repo, ['test']);
  expect(again.status, again.stdout + again.stderr).toBe(gateExit(readLatest(repo)));
});
