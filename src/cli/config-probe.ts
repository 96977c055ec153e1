import fs from 'node:fs';
import { ENV } from '../config/environment';
import { optionsFromEnv } from '../config/settings';

/**
 * A reporter that reports the options `withVisualUat` was given, nothing else. Playwright builds
 * its reporters after it has loaded the config, so by then withVisualUat has run and stored its
 * options for the run's processes, exactly as in a real run.
 */
export default class ConfigProbe {
  constructor() {
    const file = ENV.probeFile.read();
    if (file) fs.writeFileSync(file, JSON.stringify(optionsFromEnv()));
  }

  printsToStdio(): boolean {
    return false;
  }
}
