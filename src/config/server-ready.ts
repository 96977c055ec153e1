/**
 * How the baseline pass learns that its base server is up sooner than Playwright's own polling
 * tells it. Playwright tests a webServer's `url` (or `port`) at 0, 100, 350 and 850 ms after it
 * starts the command: a base server behind the guard (baseline/server-guard), up after about
 * 120 ms, was seen at 350. The guard tests it the same way every few milliseconds and prints
 * SERVER_READY_LINE the moment it answers; the base entry's `wait` takes that line, and
 * Playwright starts the base tests on whichever comes first, the line or its own test.
 */

export const SERVER_READY_LINE = 'visual-uat: the base server answers';

/** The `wait` of a base entry the guard tests. */
export const SERVER_READY = /^visual-uat: the base server answers$/m;

/** What the guard tests, as Playwright does: a GET of `url`, or a connection to `port`. */
export type ReadyTarget = { url: string; ignoreHTTPSErrors: boolean } | { port: number };

/**
 * The target of a base entry as Playwright would test it, or null when the guard prints nothing:
 * the entry names neither url nor port (Playwright does not wait for it), or waits for output of
 * its own (its line, and what its named groups set, stay the entry's).
 */
export function readyTarget(server: { url?: string; port?: number; ignoreHTTPSErrors?: boolean; wait?: object }): ReadyTarget | null {
  if (server.wait) return null;
  if (server.url) return { url: server.url, ignoreHTTPSErrors: !!server.ignoreHTTPSErrors };
  return server.port ? { port: server.port } : null;
}
