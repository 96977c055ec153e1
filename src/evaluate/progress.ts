import { plural } from '../util/text';

/** A start line and a heartbeat, so a long evaluation never looks hung. */
export interface Progress {
  done(): void;
  stop(): void;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;

/** `total` changes, shown on `checkpoints` checkpoints in all: one call each, whatever the number of checkpoints. */
export function startProgress(
  total: number,
  checkpoints: number,
  model: string,
  log: (line: string) => void,
  heartbeatMs: number,
): Progress {
  const started = Date.now();
  let finished = 0;
  const what =
    checkpoints === total ? plural(total, 'changed checkpoint') : `${plural(total, 'change')} on ${plural(checkpoints, 'checkpoint')}`;
  log(`visual-uat: evaluating ${what} with ${model}`);
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    log(`visual-uat: evaluated ${finished}/${total} (${seconds} s)`);
  }, heartbeatMs);
  timer.unref();
  return {
    done: () => {
      finished++;
    },
    stop: () => clearInterval(timer),
  };
}
