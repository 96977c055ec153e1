import fs from 'node:fs';
import { outputPath } from '../config/paths';
import { ENV } from '../config/environment';
import { writeFileAtomic } from '../util/fs';
import { nestedPass, type BaseCheckout, type NestedRun } from './base-pass';
import { openGate } from './gate';
import type { BaselinePassOutcome } from './pass';
import type { Workplace } from './pass-scope';
import type { BaselinePlan } from './plan';
import { testListText, wholeFilesListText, type Listing } from './selection';

/**
 * A cold run's base pass started while the suite is listed. When the store has none of the base
 * commit's tests to give, every test the listing finds capturing renders on the base, before the
 * current tests (plan.ts checkoutEarly): the nested run's own start (Node, Playwright, the config)
 * and its base servers then overlap the listing instead of following it. It starts once the base
 * checkout is there and waits at its gate (gate.ts) until the plan is made; its --test-list,
 * empty until then, gets the plan's tests, the whole files the listing named where every test
 * renders (a run without a list runs those); a plan that runs no pass before the tests, or whose
 * tests a list cannot name, stops it, and the pass runs as it would have.
 */
export interface PassAhead {
  /** The plan's pass in the run started ahead, or null when a list cannot name its tests (stop it then). */
  adopt(plan: BaselinePlan, listing: Listing | null): (() => Promise<BaselinePassOutcome>) | null;
  /** Stops the run before its tests, and waits for it to end. */
  stop(): Promise<void>;
}

/** A shard's list of tests holds the shard's tests only, and the nested run keeps the shard without one: only a run that shards nothing starts ahead. */
export function startsAhead(args: readonly string[]): boolean {
  return !args.some((arg) => arg.startsWith('--shard'));
}

export function passAhead(place: Workplace, run: NestedRun, early: Promise<BaseCheckout>): PassAhead {
  const gate = outputPath(run.root, 'baselineGate');
  const list = outputPath(run.root, 'baselineTestList');
  const renders = outputPath(place.outputDir, 'earlierRenders');
  fs.rmSync(gate, { force: true });
  // Playwright reads the list as it starts (a hash of it names a blob report), and again as it loads the tests.
  writeFileAtomic(list, '');
  let stopped = false;
  const running = early.then(() =>
    stopped ? null : nestedPass(place, run, list, { ...ENV.passGate.entry(gate), ...ENV.earlierRenders.entry(renders) }),
  );
  running.catch(() => {});
  return {
    adopt(plan, listing) {
      const text =
        plan.render && plan.render.length < plan.listed! ? testListText(plan.render) : listing?.files && wholeFilesListText(listing.files);
      if (!text) return null;
      return async () => {
        writeFileAtomic(list, text);
        // The run was started before the plan handed down the earlier renders (see base-pass handDown): none, none left from an earlier run.
        if (!ENV.earlierRenders.read()) fs.rmSync(renders, { force: true });
        openGate(gate, true);
        try {
          return (await running)!;
        } finally {
          fs.rmSync(gate, { force: true });
        }
      };
    },
    async stop() {
      stopped = true;
      openGate(gate, false);
      const outcome = await running.catch(() => null);
      fs.rmSync(gate, { force: true });
      fs.rmSync(list, { force: true });
      if (outcome) fs.rmSync(outputPath(run.root, 'baselineLog'), { force: true });
    },
  };
}
