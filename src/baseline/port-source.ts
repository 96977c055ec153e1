import fs from 'node:fs';
import path from 'node:path';

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
