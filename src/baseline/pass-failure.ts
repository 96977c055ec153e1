import { stripVTControlCharacters } from 'node:util';
import type { BaselineManifest } from '../types';

/**
 * Why a baseline pass gave nothing to compare, as one line that names the fix. A pass that failed
 * as a whole (the base app did not start, the runner crashed, no checkpoint was captured by any
 * test) stops the run: a green run that compared nothing is the worst answer a visual test can
 * give. Single base tests that fail leave their checkpoints `new` instead.
 */

export interface PassFailureInput {
  /** The nested run's output (its log file). */
  log: string;
  /** The ports the base servers were given. */
  basePorts: number[];
  /** The webServer command, when the config has a single one. */
  command: string | null;
}

const FIX_PORT = 'make the server read process.env.PORT, or give the base its own command with the baseWebServer option';

function lines(log: string): string[] {
  return stripVTControlCharacters(log).split('\n').map((line) => line.replace(/^\[WebServer\]\s?/, '').trim()).filter(Boolean);
}

function example(command: string | null): string {
  return command ? ` (e.g. baseWebServer: { command: '${command} --port {port}' })` : '';
}

export function explainPassFailure({ log, basePorts, command }: PassFailureInput): string {
  const text = lines(log);
  const server = command ? ` (\`${command}\`)` : '';
  const inUse = text.map((line) => /EADDRINUSE\b.*?:(\d+)\s*$/.exec(line)).find((match) => match && !basePorts.includes(Number(match[1])));
  if (inUse)
    return `the base app's server${server} listens on port ${inUse[1]}, the current app's port, so the base cannot get a port of its own: ${FIX_PORT}${example(command)}`;
  const timedOut = text.find((line) => /^Error: Timed out waiting \d+ms from config\.webServer/.test(line));
  if (timedOut)
    return `the base app's server${server} did not answer on the base's port (${basePorts[0]}) within the webServer timeout: ${FIX_PORT}, or name the port in the command (--port, -p) so visual-uat can replace it`;
  const exited = text.find((line) => /^Error: Process from config\.webServer (was not able to start|exited early)/.test(line));
  if (exited) {
    const cause = text.find((line) => /^(\w*Error|error):/.test(line) && line !== exited);
    return `the base app's server${server} exited before it answered${cause ? ` (${cause.slice(0, 200)})` : ''}: check that the base commit starts with this webServer`;
  }
  const errorLine = text.find((line) => /Error:|error:|Timed out|already used/.test(line));
  return (errorLine ?? text[text.length - 1] ?? 'no output').slice(0, 300);
}

/** A pass that completed but captured no checkpoint while some of its tests failed: nothing to compare. */
export function capturedNothing(manifest: BaselineManifest): string | null {
  const records = Object.entries(manifest.tests);
  if (records.some(([, record]) => record.checkpoints.length > 0)) return null;
  const failed = records.filter(([, record]) => record.status !== 'passed' && record.status !== 'skipped');
  if (failed.length === 0) return null;
  const [key, record] = failed[0];
  const error = stripVTControlCharacters(record.error ?? record.status).split('\n')[0].slice(0, 200);
  return `no test captured a checkpoint on the base: ${failed.length} of ${records.length} failed there, e.g. ${key}: ${error}`;
}
