import { parentPort } from 'node:worker_threads';
import { CompareError, compareInProcess, type CompareInput } from './compare';

parentPort!.on('message', ({ id, input }: { id: number; input: CompareInput }) => {
  try {
    parentPort!.postMessage({ id, outcome: compareInProcess(input) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message, compareError: error instanceof CompareError });
  }
});
