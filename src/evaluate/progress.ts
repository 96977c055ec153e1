import { plural } from '../util/text';

/** A start line and a heartbeat, so a long evaluation never looks hung. */
export interface Progress {
  done(): void;
  stop(): void;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;

export function startProgress(total: number, model: string, log: (line: string) => void, heartbeatMs: number): Progress {
  const started = Date.now();
  let finished = 0;
  log(`visual-uat: evaluating ${plural(total, 'changed checkpoint')} with ${model}`);
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
