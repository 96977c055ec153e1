import fs from 'node:fs';
import { optionsFromEnv } from '../config/settings';

/** Where the probe writes what it learnt (set by cli/cli-settings.ts for the child it starts). */
export const PROBE_FILE_ENV = 'VISUAL_UAT_PROBE_FILE';

/**
 * A reporter that reports the options `withVisualUat` was given, nothing else. Playwright builds
 * its reporters after it has loaded the config, so by then withVisualUat has run and stored its
 * options for the run's processes, exactly as in a real run.
 */
export default class ConfigProbe {
  constructor() {
    const file = process.env[PROBE_FILE_ENV];
    if (file) fs.writeFileSync(file, JSON.stringify(optionsFromEnv()));
  }

  printsToStdio(): boolean {
    return false;
  }
}
