import { stripVTControlCharacters } from 'node:util';
import type { BaselineManifest } from '../types';

/**
 * Why a baseline pass gave nothing to compare, as one line that names the fix. A pass that failed
 * as a whole because the base app is broken (its server did not start, the runner crashed, its
 * pages could not be reached) stops the run: a green run that compared nothing is the worst answer
 * a visual test can give. Base tests that fail on what only the feature has (a new test for a new
 * element) leave their checkpoints `new`, with the base's failure as the reason.
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

/**
 * A browser's words for a page it could not reach at all (Chromium's net::ERR_…, Firefox's
 * NS_ERROR_…, WebKit's): the app is not there, which no test of a working base app runs into.
 * A server that answers 5xx where its webServer url points never becomes ready, and stops the
 * pass as a webServer timeout instead.
 */
const UNREACHABLE = /net::ERR_(?:CONNECTION_(?:REFUSED|RESET|CLOSED|FAILED)|EMPTY_RESPONSE|ADDRESS_UNREACHABLE|NAME_NOT_RESOLVED)|NS_ERROR_(?:CONNECTION_REFUSED|NET_RESET|UNKNOWN_HOST)|Could not connect to (?:the )?server/;

/**
 * A pass that completed but captured no checkpoint because its tests could not reach the base app:
 * nothing to compare, and a broken base to report. Null when some test captured, or when the
 * failures are the tests' own (assertions on what only the feature has).
 */
export function baseAppUnreachable(manifest: BaselineManifest): string | null {
  const records = Object.entries(manifest.tests);
  if (records.some(([, record]) => record.checkpoints.length > 0)) return null;
  const failed = records.filter(([, record]) => record.status !== 'passed' && record.status !== 'skipped');
  const unreachable = failed.find(([, record]) => UNREACHABLE.test(record.error ?? ''));
  if (!unreachable) return null;
  const [key, record] = unreachable;
  const error = stripVTControlCharacters(record.error ?? record.status).split('\n')[0].slice(0, 200);
  return `the base app could not be reached: ${failed.length} of ${records.length} tests failed there, e.g. ${key}: ${error}`;
}
