import { parentPort } from 'node:worker_threads';
import { CompareError, compareInProcess, type CompareInput } from './compare';

parentPort!.on('message', async ({ id, input }: { id: number; input: CompareInput }) => {
  try {
    parentPort!.postMessage({ id, outcome: await compareInProcess(input) });
  } catch (error) {
    parentPort!.postMessage({
      id,
      error: (error as Error).message,
      compareError: error instanceof CompareError,
      side: error instanceof CompareError ? error.side : null,
    });
  }
});
