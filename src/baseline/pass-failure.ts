import { stripVTControlCharacters } from 'node:util';
import { baseCommand } from '../config/base-server';
import { SERVER_READY_LINE } from '../config/server-ready';
import type { WebServerEntry } from '../config/with-visual-uat';
import type { BaselineManifest } from '../types';
import type { PortSource } from './port-source';

/**
 * Why a baseline pass gave nothing to compare, as one line that names the fix. A pass that failed
 * as a whole because the base app is broken (its server did not start, the runner crashed, its
 * pages could not be reached) stops the run: a green run that compared nothing is the worst answer
 * a visual test can give. Base tests that fail on what only the feature has (a new test for a new
 * element) leave their checkpoints `new`, with the base's failure as the reason.
 */

/** One webServer entry of the config (its commands with paths relative to the config's folder), and where its port is set. */
export interface ServerEntry extends WebServerEntry, PortSource {}

export interface PassFailureInput {
  /** The nested run's output (its log file), the base servers' output included. */
  log: string;
  /** The ports the base servers were given, one per entry in order. */
  basePorts: number[];
  /** The config's webServer entries, in order (Playwright's resolved config keeps none when webServer is an array). */
  servers: ServerEntry[];
}

/**
 * A change to the server's code reaches the base only once it is in the base commit: the base
 * worktree runs the base commit's files. baseWebServer works today, so it comes first.
 */
function fromBaseCommit(entry: ServerEntry | null): string {
  // A package.json script is no code that reads the environment: its command line takes the port from the shell.
  const reading = entry?.portSetIn?.startsWith('package.json')
    ? `a script in ${entry.portSetIn} that takes its port from $PORT`
    : `reading process.env.PORT in ${entry?.portSetIn ?? 'the server'}`;
  return `${reading} also works, but only once that change is in the base commit (the base runs the base commit's files)`;
}

const WEB_SERVER_LINE = /^\[WebServer\]\s?/;

function plainLines(log: string): string[] {
  return stripVTControlCharacters(log)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function lines(log: string): string[] {
  return plainLines(log)
    .map((line) => line.replace(WEB_SERVER_LINE, '').trim())
    .filter(Boolean);
}

/** What the base servers printed (Playwright prefixes their lines with [WebServer]), without the guard's line. */
function serverLines(log: string): string[] {
  return plainLines(log)
    .filter((line) => WEB_SERVER_LINE.test(line))
    .map((line) => line.replace(WEB_SERVER_LINE, '').trim())
    .filter((line) => line && line !== SERVER_READY_LINE);
}

const SHOWN_OUTPUT_LINES = 5;

/**
 * What the base server printed, for a message about a baseWebServer that did not work: its first
 * error line where it printed one (a crash's stack and fields after it say less), else its last lines.
 */
function printed(output: string[]): string {
  if (output.length === 0) return 'the base server printed nothing';
  const error = output.find((line) => /\bError\b/.test(line));
  const quote = (line: string) => JSON.stringify(line.length > 160 ? `${line.slice(0, 159)}…` : line);
  if (error) return `the base server printed ${quote(error)}`;
  const last = output.slice(-SHOWN_OUTPUT_LINES);
  return `the base server printed${output.length > last.length ? ` (last ${last.length} lines)` : ''}: ${last.map(quote).join(', ')}`;
}

/** The command the base ran: baseWebServer's with its port filled in, else the config's with its port replaced where it names it. */
function ran(entry: ServerEntry, basePort: number | undefined): string {
  return baseCommand(entry.baseWebServer ?? entry.command, entry.port, basePort, entry.baseWebServer !== null);
}

/** How a message names an entry: the command the base ran (baseWebServer's, when set), and its index when the config has several. */
function named(servers: ServerEntry[], index: number, basePorts: number[]): string {
  const entry = servers[index];
  if (!entry) return '';
  const command = `${entry.baseWebServer !== null ? 'baseWebServer: ' : ''}\`${ran(entry, basePorts[index])}\``;
  return servers.length === 1 ? ` (${command})` : ` webServer[${index}] (${command})`;
}

/**
 * The fix for an entry without baseWebServer: a baseWebServer that starts the server on `{port}`,
 * with the command where the server shows how (see port-source.ts), one object for a single
 * webServer and an array (null for the others) for several.
 */
function giveBaseCommand(servers: ServerEntry[], index: number): string {
  const command = servers[index]?.portCommand;
  if (!command) return 'give the base its own command, one that starts the server on {port}, with the baseWebServer option';
  const one = `{ command: '${command}' }`;
  const option = servers.length === 1 ? one : `[${[...Array(index).fill('null'), one].join(', ')}]`;
  return `give the base its own command with the baseWebServer option (e.g. baseWebServer: ${option})`;
}

/** The fix for an entry whose baseWebServer did not start the server on the base's port: never the setting it has. */
function fixBaseWebServer(entry: ServerEntry): string {
  const known =
    entry.portCommand && entry.portCommand !== entry.baseWebServer ? ` (e.g. baseWebServer: { command: '${entry.portCommand}' })` : '';
  return (
    `make baseWebServer's command start the server on {port}${known}; reading process.env.PORT ` +
    `in ${entry.portSetIn ?? 'the server'} works once that change is in the base commit (the base runs the base commit's files)`
  );
}

/** What a crashed server printed last, where its error and the lines after it are. */
function lastPrinted(output: string[]): string {
  if (output.length === 0) return 'the base server printed nothing';
  const last = output.slice(-SHOWN_OUTPUT_LINES).map((line) => JSON.stringify(line.length > 160 ? `${line.slice(0, 159)}…` : line));
  return `the base server's last ${last.length === 1 ? 'line' : `${last.length} lines`}: ${last.join(', ')}`;
}

/** Whether a server printed an address on the port it was given: it started there. */
function printedItsPort(output: string[], port: number | undefined): boolean {
  return port !== undefined && output.some((line) => new RegExp(`\\bhttps?://[^\\s/]+:${port}(?!\\d)`).test(line));
}

/** A server's words for a port another process holds: Node's `EADDRINUSE`, Vite's refusal under `--strictPort`. */
const PORT_IN_USE = [/EADDRINUSE\b.*?:(\d+)\s*$/, /\bPort (\d+) is already in use\b/];

/** The port a line says is taken; null: it says none. */
function portInUseIn(line: string): number | null {
  const match = PORT_IN_USE.map((pattern) => pattern.exec(line)).find((found) => found !== null);
  return match ? Number(match[1]) : null;
}

/** Where a base server said it listens, on a port that is not the one it was given. */
function listenedAt(output: string[], basePorts: number[]): { url: string; port: number } | null {
  for (const line of output) {
    for (const match of line.matchAll(/\bhttps?:\/\/(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|[\w.-]+):(\d+)\/?/g)) {
      const port = Number(match[1]);
      if (!basePorts.includes(port)) return { url: match[0], port };
    }
  }
  return null;
}

export function explainPassFailure({ log, basePorts, servers }: PassFailureInput): string {
  const text = lines(log);
  const output = serverLines(log);
  const inUse = text.map(portInUseIn).find((port) => port !== null && !basePorts.includes(port));
  if (inUse != null) return portInUse(servers, basePorts, output, inUse);
  const timedOut = text.find((line) => /^Error: Timed out waiting \d+ms from config\.webServer/.test(line));
  if (timedOut) return timeoutReason(servers, basePorts, output, Number(/(\d+)ms/.exec(timedOut)![1]));
  const exited = text.find((line) => /^Error: Process from config\.webServer (was not able to start|exited early)/.test(line));
  if (exited) {
    const cause = text.find((line) => /^(\w*Error|error):/.test(line) && line !== exited);
    const entry = servers.length === 1 ? servers[0] : null;
    const because =
      `the base app's server${entry ? named(servers, 0, basePorts) : ''} exited before it ` +
      `answered${cause ? ` (${cause.slice(0, 200)})` : ''}; ${lastPrinted(output)}`;
    if (entry?.baseWebServer != null) return `${because}: baseWebServer is set, check that its command starts the base app`;
    return `${because}: check that the base commit starts with this webServer`;
  }
  const errorLine = text.find((line) => /Error:|error:|Timed out|already used/.test(line));
  return (errorLine ?? text[text.length - 1] ?? 'no output').slice(0, 300);
}

/** A base server that listened on the current app's port: its port is fixed where the base cannot change it. */
function portInUse(servers: ServerEntry[], basePorts: number[], output: string[], port: number): string {
  const index = servers.findIndex((entry) => entry.port === port);
  const at = index === -1 && servers.length === 1 ? 0 : index;
  const entry = servers[at] ?? null;
  const where = entry?.portSetIn ? ` (set in ${entry.portSetIn})` : '';
  const server = `the base app's server${named(servers, at, basePorts)} listens on port ${port}${where}, the current app's port`;
  if (entry?.baseWebServer != null)
    return (
      `${server}, though baseWebServer is set: its command does not give the server its ` +
      `port; ${printed(output)}: ${fixBaseWebServer(entry)}`
    );
  return `${server}, so the base cannot get a port of its own: ${giveBaseCommand(servers, at)}; ${fromBaseCommit(entry)}`;
}

/**
 * A base server that never answered on its port: most often it chose its port itself (a config
 * file, a constant) and, finding the current app there, moved to the next free one. Its output
 * says where it listened; the fix that works for the server comes first.
 */
function timeoutReason(servers: ServerEntry[], basePorts: number[], output: string[], timeoutMs: number): string {
  // Playwright starts the entries in order and names none: with one entry, it is that one.
  const at = servers.length === 1 ? 0 : -1;
  const entry = servers[at] ?? null;
  const listened = listenedAt(output, basePorts);
  const basePort = basePorts[at === -1 ? 0 : at];
  // It said it listens on the port it was given: it started, and was slow (a loaded machine, a first build).
  if (!listened && printedItsPort(output, basePort))
    return (
      `the base app's server${named(servers, at, basePorts)} printed that it listens on the base's port (${basePort}) but ` +
      `did not answer within ${timeoutMs / 1000} s: it started and was slow; give it longer with timeout in its webServer entry ` +
      `(e.g. timeout: ${timeoutMs * 2}; the base server has the same entry's timeout)`
    );
  const where = listened ? `: it listened on port ${listened.port} instead (${listened.url})` : ' within the webServer timeout';
  // Without a sign of where the port comes from, the message does not guess.
  const knownSource = entry?.portSetIn ? `set in ${entry.portSetIn}` : listened ? 'chosen by the server' : null;
  const appPort = entry?.port && knownSource ? `; the app's port, ${entry.port}, is ${knownSource}, not read from PORT` : '';
  const server =
    `the base app's server${named(servers, at, basePorts)} did not answer on the base's port ` +
    `(${basePorts[at === -1 ? 0 : at]})${where}`;
  if (entry?.baseWebServer != null) return `${server}, though baseWebServer is set; ${printed(output)}: ${fixBaseWebServer(entry)}`;
  return `${server}${appPort}: ${giveBaseCommand(servers, at)}; ${fromBaseCommit(entry)}`;
}

/**
 * A browser's words for a page it could not reach at all (Chromium's net::ERR_…, Firefox's
 * NS_ERROR_…, WebKit's): the app is not there, which no test of a working base app runs into.
 * A server that answers 5xx where its webServer url points never becomes ready, and stops the
 * pass as a webServer timeout instead.
 */
const UNREACHABLE =
  /net::ERR_(?:CONNECTION_(?:REFUSED|RESET|CLOSED|FAILED)|EMPTY_RESPONSE|ADDRESS_UNREACHABLE|NAME_NOT_RESOLVED)|NS_ERROR_(?:CONNECTION_REFUSED|NET_RESET|UNKNOWN_HOST)|Could not connect to (?:the )?server/;

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
  const error = stripVTControlCharacters(record.error ?? record.status)
    .split('\n')[0]
    .slice(0, 200);
  return `the base app could not be reached: ${failed.length} of ${records.length} tests failed there, e.g. ${key}: ${error}`;
}
