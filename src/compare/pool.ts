import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CompareError, compareInProcess, type CompareInput, type CompareOutcome, type ImageSide } from './compare';

interface Job {
  id: number;
  input: CompareInput;
  resolve: (outcome: CompareOutcome) => void;
  reject: (error: Error) => void;
}

interface Reply {
  id: number;
  outcome?: CompareOutcome;
  error?: string;
  compareError?: boolean;
  side?: ImageSide | null;
}

/**
 * Decoding and diffing are CPU-bound: they run on worker threads, one per core (at most 4, each
 * holds two decoded images), so the reporter's event loop stays free. Workers are created on the
 * first job and unref'd, so a process that is done exits without closing the pool.
 */
class ComparePool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private nextId = 0;

  constructor(
    private readonly script: string,
    private readonly size: number,
  ) {}

  run(input: CompareInput): Promise<CompareOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, input, resolve, reject });
      this.dispatch();
    });
  }

  private spawn(): Worker {
    const worker = new Worker(this.script);
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(worker, reply));
    worker.on('error', (error) => this.fail(worker, error));
    this.workers.push(worker);
    return worker;
  }

  private dispatch(): void {
    while (this.queue.length) {
      const worker = this.idle.pop() ?? (this.workers.length < this.size ? this.spawn() : null);
      if (!worker) return;
      const job = this.queue.shift()!;
      this.running.set(worker, job);
      worker.ref();
      worker.postMessage({ id: job.id, input: job.input });
    }
  }

  private settle(worker: Worker, reply: Reply): void {
    const job = this.running.get(worker);
    this.running.delete(worker);
    worker.unref();
    this.idle.push(worker);
    if (job) {
      if (reply.outcome) job.resolve(reply.outcome);
      else job.reject(reply.compareError ? new CompareError(reply.error ?? 'compare failed', reply.side ?? null) : new Error(reply.error));
    }
    this.dispatch();
  }

  private fail(worker: Worker, error: Error): void {
    const job = this.running.get(worker);
    this.running.delete(worker);
    this.workers.splice(this.workers.indexOf(worker), 1);
    job?.reject(error);
    this.dispatch();
  }
}

let pool: ComparePool | null = null;

/**
 * Two files of the same bytes, read here; false when either cannot be read (the compare says why).
 * A worker thread's start costs more than this look.
 */
function sameBytes(baseline: string, current: string): boolean {
  try {
    return fs.statSync(baseline).size === fs.statSync(current).size && fs.readFileSync(baseline).equals(fs.readFileSync(current));
  } catch {
    return false;
  }
}

/**
 * Byte-identical files (every pair of a run where nothing changed) are settled here, so such a run
 * starts no worker thread. Under a TypeScript loader (the unit tests) there is no compiled worker
 * script: compare in-process.
 */
export function runCompare(input: CompareInput): Promise<CompareOutcome> {
  if (sameBytes(input.baseline, input.current)) return Promise.resolve({ kind: 'identical' });
  const script = path.join(__dirname, 'worker.js');
  if (!fs.existsSync(script)) return compareInProcess(input);
  pool ??= new ComparePool(script, Math.max(1, Math.min(4, os.availableParallelism())));
  return pool.run(input);
}
