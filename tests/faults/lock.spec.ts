import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, test } from '@playwright/test';
import { cleanEnv, fixtureModules } from '../../scripts/fixture-repo';
import { outputPath } from '../../src/config/paths';
import { lockRecords, writeRunLock } from '../support/run-lock';

/**
 * Two runs that find the same stale lock at the same moment: exactly one takes it over, the other
 * is refused naming the winner, and the lock keeps the winner's record. Real processes calling the
 * installed package's acquireRunLock, started together on a shared clock, round after round.
 */

const ROUNDS = 100;
/**
 * The second racer starts 0 to 0.9 ms after the first, a step more each round: runs a little
 * apart meet the window in which the earlier takeover (read, judge, delete, create) deleted the
 * other's fresh lock in about one round in 16, against one in 45 when started together.
 */
const STAGGER_STEP_MS = 0.1;

/** Per line `{ dir, at }` on stdin: waits for the instant `at` (ms since the epoch), takes the lock of `dir`, keeps it, prints the outcome. */
const RACER = `
const { acquireRunLock } = require(process.argv[1]);
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { dir, at } = JSON.parse(line);
  while (performance.timeOrigin + performance.now() < at);
  let outcome;
  try {
    outcome = { won: true, replaced: acquireRunLock(dir) };
  } catch (error) {
    outcome = { won: false, error: error.message };
  }
  process.stdout.write(JSON.stringify(outcome) + '\\n');
});
`;

type Outcome = { won: true; replaced: number | null } | { won: false; error: string };

interface Racer {
  pid: number;
  race: (dir: string, at: number) => Promise<Outcome>;
  child: ChildProcessWithoutNullStreams;
}

function startRacer(lockModule: string): Racer {
  const child = spawn(process.execPath, ['-e', RACER, lockModule], { env: cleanEnv() });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    pid: child.pid!,
    child,
    race: async (dir, at) => {
      child.stdin.write(`${JSON.stringify({ dir, at })}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error(`racer ${child.pid} ended`);
      return JSON.parse(value) as Outcome;
    },
  };
}

test('two runs taking over the same stale lock at once: exactly one wins each round, and the lock keeps its record', async () => {
  const lockModule = path.join(fixtureModules(), 'visual-uat', 'dist', 'src', 'baseline', 'lock.js');
  const gone = spawnSync(process.execPath, ['-e', '']).pid!;
  const racers = [startRacer(lockModule), startRacer(lockModule)];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-lock-race-'));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = path.join(root, String(round));
      writeRunLock(dir, { pid: gone, processStart: '1', startedAt: new Date().toISOString() });
      const at = Date.now() + 20;
      const outcomes = await Promise.all(racers.map((racer, index) => racer.race(dir, at + index * (round % 10) * STAGGER_STEP_MS)));

      const winners = racers.filter((_, index) => outcomes[index].won);
      expect(winners, `round ${round}: ${JSON.stringify(outcomes)}`).toHaveLength(1);
      const [winner] = winners;
      for (const outcome of outcomes) {
        // The winner broke the stale lock itself, or renamed its own onto the empty folder the other
        // left between breaking it and taking it: either way one run holds it, and the other is told.
        if (outcome.won) expect([gone, null]).toContain(outcome.replaced);
        else expect(outcome.error).toMatch(new RegExp(`^visual-uat: another run \\(pid ${winner.pid}, started [^)]+\\) is using `));
      }
      expect(
        lockRecords(dir).map((record) => record.pid),
        `round ${round}`,
      ).toEqual([winner.pid]);
      expect(fs.readdirSync(path.dirname(outputPath(dir, 'lock'))), `round ${round}: nothing but the lock is left`).toEqual(['lock']);
    }
  } finally {
    for (const racer of racers) racer.child.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
