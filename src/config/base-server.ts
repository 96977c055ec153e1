import fs from 'node:fs';
import path from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import type { BaseWebServer } from '../types';
import { isInside } from '../util/fs';
import { escapeRegExp } from '../util/text';
import { ENV } from './environment';

/**
 * The baseline role's web servers: the base app must come from the base commit, on a port of its
 * own, whatever the config's webServer looks like. Real configs start servers by absolute path
 * (`node ${path.join(__dirname, 'server.js')}`), name their port in a flag (`--port 5173`,
 * `-p 8080`, `http.server 8000`) and read files relative to their own script: every path of the
 * checkout in a server's command, cwd and env is mapped into the worktree, and every mention of
 * the configured port is replaced by the base's port. `baseWebServer` replaces what cannot be
 * rewritten (a port fixed inside the script).
 */

export type WebServer = NonNullable<PlaywrightTestConfig['webServer']> extends infer W ? (W extends Array<infer One> ? One : W) : never;

/** Where the current checkout's files are and where the base's are. */
export interface BaseCheckout {
  /** The repository root, as git reports it and as the config may spell it (a symlinked path). */
  repoRoots: string[];
  worktree: string;
  /** The config's folder in the worktree: where a server without `cwd` starts. */
  configDirInBase: string;
  /** Folders of the checkout that are not the app's (the output folder, which holds the worktree). */
  keep: string[];
}

export const PORT_PLACEHOLDER = '{port}';

export function serverPort(server: WebServer): number | null {
  if (server.port) return server.port;
  if (!server.url) return null;
  const url = new URL(server.url);
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Every absolute path into the checkout, in free text (a shell command, an env value), moved into the worktree. */
export function mapCheckoutPaths(text: string, checkout: BaseCheckout): string {
  let out = text;
  for (const root of checkout.repoRoots) {
    const pattern = new RegExp(`${escapeRegExp(root)}(?=$|[\\\\/\\s'"\`:;,)=])[^\\s'"\`;|&<>)]*`, 'g');
    out = out.replace(pattern, (found) => {
      if (checkout.keep.some((dir) => isInside(found, dir))) return found;
      return path.join(checkout.worktree, path.relative(root, found));
    });
  }
  return out;
}

/**
 * The configured port where a command or value names it: `--port 4321`, `--port=4321`, `-p 4321`,
 * `host:4321`, `PORT=4321` (any `*PORT=`), or the port alone as an argument (`http.server 8000`).
 */
export function replacePort(text: string, from: number, to: number): string {
  const port = String(from);
  return text
    .replace(new RegExp(`(^|\\s)(--port[= ]\\s*|-p\\s*|[A-Za-z_]*PORT=)(['"]?)${port}(?!\\d)`, 'g'), `$1$2$3${to}`)
    .replace(new RegExp(`(^|[\\w.\\]-]|\\s):${port}(?!\\d)`, 'g'), `$1:${to}`)
    .replace(new RegExp(`(^|\\s)(['"]?)${port}(['"]?)(?=\\s|$)`, 'g'), `$1$2${to}$3`);
}

/** Whether a command or value names the port in one of the ways replacePort replaces. */
export function mentionsPort(text: string, port: number): boolean {
  return replacePort(text, port, port + 1) !== text;
}

function fillPort(text: string, port: number | undefined): string {
  return port === undefined ? text : text.split(PORT_PLACEHOLDER).join(String(port));
}

/**
 * The base server's command as it runs, before its paths move into the worktree: baseWebServer's
 * with `{port}` filled in, else the webServer's with its port replaced where it names it.
 */
export function baseCommand(command: string, original: number | null, port: number | undefined, fromBaseWebServer: boolean): string {
  if (fromBaseWebServer) return fillPort(command, port);
  return original !== null && port !== undefined ? replacePort(command, original, port) : command;
}

/** An env value names the port when its key says PORT and its value is the port, or in a URL (`host:4321`). */
function replaceEnvPort(key: string, value: string, from: number, to: number): string {
  if (/port/i.test(key) && value.trim() === String(from)) return String(to);
  return value.replace(new RegExp(`([\\w.\\]-]):${from}(?!\\d)`, 'g'), `$1:${to}`);
}

function baseCwd(cwd: string | undefined, checkout: BaseCheckout): string {
  if (!cwd) return checkout.configDirInBase;
  if (!path.isAbsolute(cwd)) return path.resolve(checkout.configDirInBase, cwd);
  return mapCheckoutPaths(cwd, checkout);
}

/**
 * One webServer entry as the baseline pass starts it: from the worktree, on `port`, never reusing
 * a running server. With a `baseWebServer` entry, its command/cwd/env replace the webServer's
 * ({port} filled in); otherwise the webServer's own mentions of its port are rewritten.
 */
export function baseServer(
  server: WebServer,
  port: number | undefined,
  override: BaseWebServer | undefined,
  checkout: BaseCheckout,
): WebServer {
  const original = serverPort(server);
  const movesPort = !override && original !== null && port !== undefined;
  const command = mapCheckoutPaths(override?.command ?? server.command, checkout);
  const env = Object.entries({ ...(server.env ?? {}), ...(override?.env ?? {}) }).map(([key, value]) => {
    const mapped = mapCheckoutPaths(value, checkout);
    if (override) return [key, fillPort(mapped, port)];
    return [key, movesPort ? replaceEnvPort(key, mapped, original!, port!) : mapped];
  });
  return {
    ...server,
    command: baseCommand(command, original, port, !!override),
    cwd: baseCwd(override?.cwd ?? server.cwd, checkout),
    env: { ...Object.fromEntries(env), ...(port !== undefined ? ENV.port.entry(port) : {}) },
    reuseExistingServer: false,
  };
}

/**
 * The baseWebServer entry of the webServer at `index` (one object serves a single webServer; null in an array: that entry as the config has
 * it).
 */
export function baseOverride(option: BaseWebServer | (BaseWebServer | null)[] | undefined, index: number): BaseWebServer | undefined {
  if (!option) return undefined;
  return Array.isArray(option) ? (option[index] ?? undefined) : index === 0 ? option : undefined;
}

/**
 * A baseWebServer object beside several webServer entries names no entry (it would replace the
 * first, whatever that is): one line with the entries and the array form; null when it is clear.
 */
export function ambiguousBaseOverride(option: BaseWebServer | (BaseWebServer | null)[] | undefined, servers: WebServer[]): string | null {
  if (!option || Array.isArray(option) || servers.length < 2) return null;
  const entries = servers.map((server, index) => `webServer[${index}] \`${server.command}\``).join(', ');
  const example = [...servers.slice(1).map(() => 'null'), `{ command: '${option.command ?? '…'}' }`].join(', ');
  return (
    `visual-uat: baseWebServer is one object, but webServer has ${servers.length} entries (${entries}): ` +
    `write baseWebServer as an array in webServer's order, null for each entry the base starts as configured ` +
    `(e.g. baseWebServer: [${example}] gives webServer[${servers.length - 1}] that command)`
  );
}

const ORIGIN = /(\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0)|\[::1\]):(\d+)(?!\d)/g;

/**
 * Servers that know each other: a site whose env or command names its API's origin
 * (`API_URL=http://localhost:4000`, a proxy target) must reach the base API, not the current one.
 * Every local origin of a webServer entry, in every entry's command and env values, moves to
 * that entry's base port. Returns the server and what was moved (`command`, `env API_URL=http://localhost:41002`), for the log.
 */
export function moveOrigins(server: WebServer, ports: Map<number, number>): { server: WebServer; moved: string[] } {
  const move = (text: string) =>
    text.replace(ORIGIN, (found, host: string, port: string) => (ports.has(Number(port)) ? `${host}:${ports.get(Number(port))}` : found));
  const moved: string[] = [];
  const command = move(server.command);
  if (command !== server.command) moved.push('command');
  const env = Object.fromEntries(
    Object.entries(server.env ?? {}).map(([key, value]) => {
      const next = move(value);
      if (next !== value) moved.push(`env ${key}=${next}`);
      return [key, next];
    }),
  );
  return { server: { ...server, command, env }, moved };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '::1']);

/** A URL of the current app moved to the base's port (other URLs as they are). */
export function rewriteUrl(url: string | undefined, ports: Map<number, number>): string | undefined {
  if (!url) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const replacement = ports.get(port);
  if (!LOCAL_HOSTS.has(parsed.hostname) || replacement === undefined) return url;
  parsed.port = String(replacement);
  return url.endsWith('/') || parsed.pathname !== '/' ? parsed.toString() : parsed.toString().replace(/\/$/, '');
}

/**
 * Chromium's host mapping, so the browser of the baseline pass never reaches the current app:
 * whatever names a current server's origin (a test-level baseURL, an absolute URL in a test, an
 * absolute link, a redirect, a WebSocket) connects to the base server instead. The page keeps
 * the URL it asked for; only the connection goes elsewhere.
 */
export function hostResolverRules(servers: WebServer[], ports: Map<number, number>): string | null {
  const rules: string[] = [];
  for (const server of servers) {
    const original = serverPort(server);
    const base = original === null ? undefined : ports.get(original);
    if (original === null || base === undefined) continue;
    const named = server.url ? new URL(server.url).hostname : 'localhost';
    for (const host of new Set([named, 'localhost', '127.0.0.1', '[::1]', '0.0.0.0']))
      rules.push(`MAP ${host}:${original} ${host}:${base}`);
  }
  return rules.length ? `--host-resolver-rules=${rules.join(', ')}` : null;
}

/** Vite and git report real paths, a config may spell a symlinked one: both name the checkout. */
export function pathVariants(dir: string): string[] {
  const real = fs.existsSync(dir) ? fs.realpathSync(dir) : dir;
  return [...new Set([path.resolve(dir), real])];
}
