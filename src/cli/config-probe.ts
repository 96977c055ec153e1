import fs from 'node:fs';
import type { FullConfig } from '@playwright/test/reporter';
import type { WebServer } from '../config/base-server';
import { ENV } from '../config/environment';
import { optionsFromEnv } from '../config/settings';
import type { VisualUatOptions } from '../types';

/** What the probe learnt from the config as Playwright evaluated it. */
export interface ProbedConfig {
  options: VisualUatOptions;
  /**
   * The config's webServer as evaluated (a branch taken, a function called, a template filled in): one entry or an array; absent before the
   * config's reporters begin.
   */
  webServer?: WebServer | WebServer[] | null;
}

/**
 * Playwright's resolved config keeps a webServer array only on its internal side (config.webServer
 * is null then), under a symbol it has kept since before 1.49; a single entry is public.
 */
function evaluatedWebServer(config: FullConfig): WebServer | WebServer[] | null {
  if (config.webServer) return config.webServer as WebServer;
  const internal = Object.getOwnPropertySymbols(config).find((symbol) => symbol.description === 'configInternalSymbol');
  return (internal && (config as unknown as Record<symbol, { webServers?: WebServer[] } | undefined>)[internal]?.webServers) || null;
}

/**
 * A reporter that reports the options `withVisualUat` was given and the config's webServer
 * entries, nothing else. Playwright builds its reporters after it has loaded the config, so by
 * then withVisualUat has run and stored its options for the run's processes, exactly as in a run.
 */
export default class ConfigProbe {
  private readonly file = ENV.probeFile.read();

  constructor() {
    this.write({ options: optionsFromEnv() });
  }

  onBegin(config: FullConfig): void {
    this.write({ options: optionsFromEnv(), webServer: evaluatedWebServer(config) });
  }

  private write(probed: ProbedConfig): void {
    if (this.file) fs.writeFileSync(this.file, JSON.stringify(probed));
  }

  printsToStdio(): boolean {
    return false;
  }
}
