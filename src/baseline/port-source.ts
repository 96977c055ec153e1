import fs from 'node:fs';
import path from 'node:path';
import { packageScripts, portCommand, scriptCommand, scriptPort, serverScript, startedBy, withArgs } from '../config/dev-servers';
import type { WebServerEntry } from '../config/with-visual-uat';

/**
 * Files that set a dev server's port beside the config, in the order a message names them: the
 * dev servers' own configs (Vite and the frameworks on it), then env files.
 */
const CONFIG_FILES = [
  'vite.config.js',
  'vite.config.mjs',
  'vite.config.cjs',
  'vite.config.ts',
  'vite.config.mts',
  'vite.config.cts',
  'svelte.config.js',
  'astro.config.mjs',
  'astro.config.ts',
  'nuxt.config.ts',
  'nuxt.config.js',
  '.env.development.local',
  '.env.development',
  '.env.local',
  '.env',
];

/** Files that may name another server's origin: the configs, env files and package scripts. */
const ORIGIN_FILES = [...CONFIG_FILES, 'package.json'];

function namesPort(text: string, port: number): boolean {
  return new RegExp(`(^|[^\\d])${port}(?!\\d)`).test(text);
}

/** What the base checkout tells about a webServer entry's port, for the message when its server did not start. */
export interface PortSource {
  /**
   * The file that sets the current app's port: package.json where the script the command runs
   * names it, the server script that calls listen with it, else a dev server's config or an env file.
   */
  portSetIn: string | null;
  /**
   * The command that starts the server on `{port}`, where the command shows how (see portCommand) or a script of package.json runs a server
   * the table knows (see scriptCommand), else null.
   */
  portCommand: string | null;
}

/**
 * The entry's port source in `dir`, the base checkout's config folder. `alone`: the config's one
 * webServer, which serves its app: a server of package.json's scripts is then a fair example even
 * where the entry's command runs none (beside others, an API, it would be a guess).
 */
export function portSource(dir: string, server: WebServerEntry, alone: boolean): PortSource {
  const scripts = packageScripts(dir);
  const started = startedBy(server.command, scripts);
  const script = serverScript(started);
  const reads = script ? scriptPort(path.resolve(dir, script), server.port) : null;
  const takesPortArg = reads?.readsPortArg && !/(^|\s)--port\b/.test(server.command) ? withArgs(server.command, '--port {port}') : null;
  return {
    portSetIn:
      server.port === null
        ? null
        : setIn(dir, server.port, started.script ? (scripts[started.script] ?? null) : null, reads?.fixes ? script : null),
    portCommand:
      portCommand(server.command, started) ?? takesPortArg ?? (alone || started.script ? scriptCommand(scripts, started.script) : null),
  };
}

function setIn(dir: string, port: number, scriptText: string | null, listeningScript: string | null): string | null {
  if (scriptText && namesPort(scriptText, port)) return 'package.json';
  if (listeningScript) return path.normalize(listeningScript);
  return (
    CONFIG_FILES.find((name) => fs.existsSync(path.join(dir, name)) && namesPort(fs.readFileSync(path.join(dir, name), 'utf8'), port)) ??
    null
  );
}

/** A local origin on `port` in a file's text: `localhost:4000`, `127.0.0.1:4000`, `[::1]:4000`. */
function originPattern(port: number): RegExp {
  return new RegExp(`(?:\\b(?:localhost|127\\.0\\.0\\.1|0\\.0\\.0\\.0)|\\[::1\\]):${port}(?!\\d)`);
}

/**
 * Servers that know each other through a file (an API_URL in .env, a proxy target in
 * vite.config.js): visual-uat moves the origins in the config's commands and env, never in files,
 * so the base app may reach a current server there. One warning per origin found in the base
 * checkout's config folder, naming the entry and the way that works.
 */
export function unmovedOrigins(dir: string, servers: readonly WebServerEntry[]): string[] {
  if (servers.length < 2) return [];
  return servers.flatMap((server, index) => {
    if (server.port === null) return [];
    const origin = originPattern(server.port);
    const file = ORIGIN_FILES.find(
      (name) => fs.existsSync(path.join(dir, name)) && origin.test(fs.readFileSync(path.join(dir, name), 'utf8')),
    );
    if (!file) return [];
    return [
      `${file} names localhost:${server.port}, the origin of webServer[${index}] (\`${server.command}\`), and visual-uat moves ` +
        `origins in the config's commands and env, not in files: ` +
        `the base app may reach the current webServer[${index}]. Name the origin in the env of the webServer entry that reads ` +
        `it (env: { API_URL: 'http://localhost:${server.port}' }), where it moves to the base port`,
    ];
  });
}
