import fs from 'node:fs';
import path from 'node:path';
import { parse, quote } from 'shell-quote';
import { readJsonFile } from '../util/fs';
import { PORT_PLACEHOLDER } from './base-server';

/**
 * The dev servers visual-uat knows by their command, and how each takes its port: one table that
 * `visual-uat init` (which writes a `baseWebServer` from it) and the stop message of a base server
 * that did not start (which suggests one) both read. A webServer command that runs a package
 * script (`npm run dev`, `pnpm dev`, `yarn dev`) is followed into package.json's scripts.
 */

export interface DevServer {
  name: string;
  /** Whether a program (its file name) with these arguments starts this server. */
  starts: (program: string, args: string[]) => boolean;
  /** The arguments that give it its port, with `{port}`; null where it takes the port from PORT alone. */
  portArgs: string | null;
  /** The flags of its own that set a port (a value after the flag, `--flag=value` or `-p8080`). */
  portFlags: string[];
  /** Whether a bare number among its arguments is the port (Python's `http.server 8000`). */
  positionalPort: boolean;
  /** Whether it listens on PORT when no argument names a port (visual-uat sets PORT for the base). */
  readsPortEnv: boolean;
}

const isSubcommand = (args: string[], ...names: string[]) => names.includes(args[0]);

export const DEV_SERVERS: readonly DevServer[] = [
  // SvelteKit and other frameworks on Vite run `vite dev`; --strictPort stops instead of moving to the next port.
  {
    name: 'Vite',
    starts: (program, args) => program === 'vite' && !isSubcommand(args, 'build', 'optimize'),
    portArgs: '--port {port} --strictPort',
    portFlags: ['--port'],
    positionalPort: false,
    readsPortEnv: false,
  },
  {
    name: 'Astro',
    starts: (program, args) => program === 'astro' && isSubcommand(args, 'dev', 'start', 'preview'),
    portArgs: '--port {port}',
    portFlags: ['--port'],
    positionalPort: false,
    readsPortEnv: false,
  },
  {
    name: 'Next.js',
    starts: (program, args) => program === 'next' && isSubcommand(args, 'dev', 'start'),
    portArgs: '--port {port}',
    portFlags: ['--port', '-p'],
    positionalPort: false,
    readsPortEnv: true,
  },
  // Nuxt's CLI (`nuxt`, or `nuxi`) serves the dev server and the built app's preview on --port, else on PORT.
  {
    name: 'Nuxt',
    starts: (program, args) => (program === 'nuxt' || program === 'nuxi') && isSubcommand(args, 'dev', 'preview', 'start'),
    portArgs: '--port {port}',
    portFlags: ['--port', '-p'],
    positionalPort: false,
    readsPortEnv: true,
  },
  {
    name: 'Create React App',
    starts: (program, args) => program === 'react-scripts' && isSubcommand(args, 'start'),
    portArgs: null,
    portFlags: [],
    positionalPort: false,
    readsPortEnv: true,
  },
  {
    name: 'webpack-dev-server',
    starts: (program, args) => program === 'webpack-dev-server' || (program === 'webpack' && isSubcommand(args, 'serve', 'server', 's')),
    portArgs: '--port {port}',
    portFlags: ['--port'],
    positionalPort: false,
    readsPortEnv: false,
  },
  {
    name: 'http-server',
    starts: (program) => program === 'http-server',
    portArgs: '-p {port}',
    portFlags: ['-p', '--port'],
    positionalPort: false,
    readsPortEnv: true,
  },
  {
    name: 'serve',
    starts: (program) => program === 'serve',
    portArgs: '-l {port}',
    portFlags: ['-l', '--listen', '-p'],
    positionalPort: false,
    readsPortEnv: true,
  },
  {
    name: "Python's http.server",
    starts: (program, args) => /^python[\d.]*$/.test(program) && args[0] === '-m' && args[1] === 'http.server',
    portArgs: PORT_PLACEHOLDER,
    portFlags: [],
    positionalPort: true,
    readsPortEnv: false,
  },
];

/** A command's words, `$VAR` kept as written; operators (`&&`, `|`) as `null`. */
function words(command: string): (string | null)[] {
  return parse(command, (name) => `$${name}`).map((entry) =>
    typeof entry === 'string' ? entry : 'op' in entry && entry.op === 'glob' ? entry.pattern : null,
  );
}

/** The last command of a list (`npm run build && vite preview`): the one that keeps running. */
function lastCommand(command: string): string[] {
  const all = words(command);
  const start = all.lastIndexOf(null) + 1;
  return all.slice(start).filter((word): word is string => word !== null);
}

const RUNNERS = ['npx', 'bunx', 'cross-env'];

/** Runners in front of the program: `VAR=value`, `npx`, `cross-env`, `pnpm exec`, `yarn exec`. */
function withoutRunners(command: string[]): string[] {
  let rest = command;
  for (;;) {
    if (/^[A-Za-z_]\w*=/.test(rest[0] ?? '')) rest = rest.slice(1);
    else if (RUNNERS.includes(rest[0])) {
      rest = rest.slice(1);
      while (rest[0]?.startsWith('-')) rest = rest.slice(1);
    } else if ((rest[0] === 'pnpm' || rest[0] === 'yarn') && (rest[1] === 'exec' || rest[1] === 'dlx')) rest = rest.slice(2);
    else return rest;
  }
}

export type Scripts = Record<string, string>;

/** The package script a command runs (`npm run dev`, `npm start`, `pnpm dev`, `yarn run dev`) and the arguments it passes on, or null. */
function scriptCall(command: string[], scripts: Scripts): { name: string; args: string[] } | null {
  const [tool, first, second, ...rest] = command;
  if (tool === 'npm') {
    if (first === 'start') return { name: 'start', args: afterDashes([second, ...rest]) };
    if ((first === 'run' || first === 'run-script') && second) return { name: second, args: afterDashes(rest) };
    return null;
  }
  if (tool !== 'pnpm' && tool !== 'yarn') return null;
  if (first === 'run' && second) return { name: second, args: [...rest] };
  return first && first in scripts ? { name: first, args: [second, ...rest].filter((word) => word !== undefined) } : null;
}

function afterDashes(args: (string | undefined)[]): string[] {
  const defined = args.filter((word): word is string => word !== undefined);
  const dashes = defined.indexOf('--');
  return dashes === -1 ? [] : defined.slice(dashes + 1);
}

/** What a webServer command starts, followed through package scripts. */
export interface StartedServer {
  /** The program and its arguments, as the last script runs it (`vite --host`). */
  program: string;
  args: string[];
  /** The known dev server, or null. */
  server: DevServer | null;
  /** The package script it runs through, the last of a chain (`dev`), or null for a direct command. */
  script: string | null;
}

/** What `command` starts, with `scripts` from the package.json of the folder it runs in. */
export function startedBy(command: string, scripts: Scripts): StartedServer {
  let current = withoutRunners(lastCommand(command));
  let script: string | null = null;
  // A script may call another (`"dev": "npm run serve"`): a few steps, never a loop.
  for (let depth = 0; depth < 5; depth++) {
    const call = scriptCall(current, scripts);
    if (!call) break;
    // npm start without a start script runs `node server.js`.
    const text = scripts[call.name] ?? (call.name === 'start' ? 'node server.js' : null);
    if (text === null) break;
    script = call.name;
    current = [...withoutRunners(lastCommand(text)), ...call.args];
  }
  const [file = '', ...args] = current;
  const program = path.basename(file);
  return { program, args, server: DEV_SERVERS.find((known) => known.starts(program, args)) ?? null, script };
}

/** package.json's scripts in `dir` (none where it has no package.json). */
export function packageScripts(dir: string): Scripts {
  return readJsonFile<{ scripts?: Scripts }>(path.join(dir, 'package.json'))?.scripts ?? {};
}

/** Whether the server's arguments set a port already (a second one is not added: http-server and serve do not take the last). */
export function setsPort(started: StartedServer): boolean {
  const server = started.server;
  if (!server) return false;
  return started.args.some(
    (arg, index) =>
      server.portFlags.some(
        (flag) => arg === flag || arg.startsWith(`${flag}=`) || (/^-\w$/.test(flag) && new RegExp(`^${flag}\\d+$`).test(arg)),
      ) ||
      (server.positionalPort && index > 1 && /^\d+$/.test(arg)),
  );
}

/** Arguments appended to a command: an npm script takes them after `--` (pnpm and yarn pass them on). */
export function withArgs(command: string, args: string): string {
  const [tool, first] = lastCommand(command);
  const npmScript = tool === 'npm' && ['run', 'run-script', 'start'].includes(first ?? '');
  return npmScript && !/\s--(\s|$)/.test(command) ? `${command} -- ${args}` : `${command} ${args}`;
}

/**
 * The command that starts the server on `{port}`: the webServer's own with the known server's
 * port arguments appended. Null where that is not known to work: an unknown server, one that
 * sets a port already (in the command or its script), or one that takes PORT alone.
 */
export function portCommand(command: string, started: StartedServer): string | null {
  if (!started.server?.portArgs || setsPort(started)) return null;
  return withArgs(command, started.server.portArgs);
}

/** The index of the argument that holds the port (`-p 4321`: the 4321; `--port=4321`, `-p4321`: that argument), or -1. */
function portArgIndex(started: StartedServer): number {
  const server = started.server;
  if (!server) return -1;
  return started.args.findIndex(
    (arg, index) =>
      server.portFlags.some(
        (flag) =>
          arg.startsWith(`${flag}=`) ||
          (/^-\w$/.test(flag) && new RegExp(`^${flag}\\d+$`).test(arg)) ||
          (index > 0 && started.args[index - 1] === flag && /^\d+$/.test(arg)),
      ) ||
      (server.positionalPort && index > 1 && /^\d+$/.test(arg)),
  );
}

/**
 * The server's own command with the port it sets replaced by `{port}` (`http-server -p 4321 -c-1 .` → `npx http-server -p {port} -c-1 .`),
 * or null.
 */
function withPortReplaced(started: StartedServer): string | null {
  const at = portArgIndex(started);
  if (at === -1) return null;
  const args = started.args.map((arg, index) => (index === at ? arg.replace(/\d+$/, PORT_PLACEHOLDER) : arg));
  // A package's binary runs through npx outside a script; Python is a program of its own.
  const runner = started.server!.positionalPort ? [] : ['npx'];
  return [...runner, started.program, ...args].map((word) => (word.includes(PORT_PLACEHOLDER) ? word : quote([word]))).join(' ');
}

/** Scripts a project starts its site with, looked at first. */
const SERVE_SCRIPTS = ['serve', 'start', 'dev', 'preview'];

/**
 * A command that starts one of the project's own servers on `{port}`, from its package.json
 * scripts: the script `preferred` first (the one the webServer runs), then the usual names. A
 * script that fixes its port gets the server's command with `{port}` in its place; one that does
 * not gets the server's port arguments after it. Null where no script runs a server the table knows.
 */
export function scriptCommand(scripts: Scripts, preferred: string | null): string | null {
  const names = [...new Set([preferred, ...SERVE_SCRIPTS, ...Object.keys(scripts)])].filter(
    (name): name is string => !!name && name in scripts,
  );
  for (const name of names) {
    const run = `npm run ${name}`;
    const started = startedBy(run, scripts);
    if (!started.server) continue;
    const command = setsPort(started) ? withPortReplaced(started) : portCommand(run, started);
    if (command) return command;
  }
  return null;
}

/** The file a `node`-like program runs (`node scripts/start.js`, `nodemon server.js`), relative to the command's folder, or null. */
export function serverScript(started: StartedServer): string | null {
  if (!['node', 'nodemon', 'tsx', 'ts-node', 'bun'].includes(started.program)) return null;
  return started.args.find((arg) => !arg.startsWith('-') && /\.[cm]?[jt]sx?$/.test(arg)) ?? null;
}

/** How a server script takes its port: a `--port` argument, or a number it listens on (`listen(4321)`, a constant). */
export interface ScriptPort {
  readsPortArg: boolean;
  /** Whether the script names `port` and calls listen: the place the port is fixed. */
  fixes: boolean;
}

export function scriptPort(file: string, port: number | null): ScriptPort | null {
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8');
  return {
    readsPortArg: /['"`]--port['"`=]/.test(text),
    fixes: port !== null && /\.listen\s*\(/.test(text) && new RegExp(`(^|[^\\d])${port}(?!\\d)`).test(text),
  };
}
