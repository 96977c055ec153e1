import fs from 'node:fs';
import path from 'node:path';
import type { WebServerEntry } from '../config/with-visual-uat';

/**
 * Files that set a dev server's port beside the config, in the order a message names them: the
 * dev servers' own configs (Vite and the frameworks on it), then env files and package scripts.
 */
const PORT_FILES = [
  'vite.config.js', 'vite.config.mjs', 'vite.config.cjs', 'vite.config.ts', 'vite.config.mts', 'vite.config.cts',
  'svelte.config.js', 'astro.config.mjs', 'astro.config.ts', 'nuxt.config.ts', 'nuxt.config.js',
  '.env.development.local', '.env.development', '.env.local', '.env', 'package.json',
];

/** The file of `dir` (the base checkout's config folder) that names `port`, for the message that says where the port is set. */
export function portSetIn(dir: string, port: number): string | null {
  const word = new RegExp(`(^|[^\\d])${port}(?!\\d)`);
  for (const name of PORT_FILES) {
    const file = path.join(dir, name);
    if (fs.existsSync(file) && word.test(fs.readFileSync(file, 'utf8'))) return name;
  }
  return null;
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
    const file = PORT_FILES.find((name) => fs.existsSync(path.join(dir, name)) && origin.test(fs.readFileSync(path.join(dir, name), 'utf8')));
    if (!file) return [];
    return [
      `${file} names localhost:${server.port}, the origin of webServer[${index}] (\`${server.command}\`), and visual-uat moves origins in the config's commands and env, not in files: ` +
        `the base app may reach the current webServer[${index}]. Name the origin in the env of the webServer entry that reads it (env: { API_URL: 'http://localhost:${server.port}' }), where it moves to the base port`,
    ];
  });
}
