import type { FullConfig, FullResult, Reporter, Suite, TestError } from '@playwright/test/reporter';
import { handOverSuite } from '../baseline/suite-handover';
import { ENV } from '../config/environment';
import { writeManifest } from '../files/run-folder';
import type { VisualUatOptions } from '../types';
import { baselineManifest } from './baseline-manifest';
import type { EndResult } from './end-run';

export interface ReporterOptions extends VisualUatOptions {
  /** Internal: the nested baseline pass records a manifest instead of comparing. */
  role?: 'baseline';
}

/**
 * Orchestrates the end of a run (end-run.ts); in the nested baseline pass, records the base's
 * manifest instead. Listed first by withVisualUat; usable alone as ['visual-uat/reporter', options].
 */
export class VisualUatReporter implements Reporter {
  private config!: FullConfig;
  private suite!: Suite;
  private readonly options: ReporterOptions;
  private readonly globalErrors: string[] = [];

  constructor(options: ReporterOptions = {}) {
    this.options = options;
  }

  printsToStdio(): boolean {
    return false;
  }

  /** Errors outside any test (a web server that does not start, a broken global setup). */
  onError(error: TestError): void {
    this.globalErrors.push(error.message ?? error.value ?? 'unknown error');
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.suite = suite;
    if (this.options.role !== 'baseline') handOverSuite(config.rootDir, suite.allTests());
  }

  async onEnd(result: FullResult): Promise<EndResult> {
    if (this.options.role === 'baseline') {
      const baselineDir = ENV.baselineDir.read();
      if (baselineDir) writeManifest(baselineDir, baselineManifest(this.suite.allTests(), result.status, this.globalErrors));
      return undefined;
    }
    // Loaded here: the nested baseline run loads this reporter too, and needs none of the comparison.
    const { endRun } = await import('./end-run');
    const { role: _role, ...options } = this.options;
    return endRun(this.config, this.suite, options);
  }
}
