import type { CheckpointStatus } from '../types';
import type { RunResult } from './results';

const ORDER: CheckpointStatus[] = ['regression', 'needs_review', 'errored', 'missing', 'new', 'changed', 'unchanged'];

/** One line of counts, then a line per checkpoint that a person should look at. */
export function printSummary(run: RunResult, latestPath: string): void {
  const counts = new Map<CheckpointStatus, number>();
  const attention: string[] = [];
  for (const test of run.tests)
    for (const checkpoint of test.checkpoints) {
      counts.set(checkpoint.status, (counts.get(checkpoint.status) ?? 0) + 1);
      if (checkpoint.status !== 'unchanged' && checkpoint.status !== 'changed')
        attention.push(`  ${checkpoint.status.padEnd(12)} ${[test.project, ...test.titlePath].filter(Boolean).join(' › ')} › ${checkpoint.name}: ${checkpoint.reason}`);
    }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const parts = ORDER.filter((status) => counts.get(status)).map((status) => `${counts.get(status)} ${status}`);
  const lines = [`visual-uat: ${total} checkpoint${total === 1 ? '' : 's'}: ${parts.join(', ')}`, ...attention, `visual-uat: results in ${latestPath}`];
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
