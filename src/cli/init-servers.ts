import path from 'node:path';
import { mentionsPort } from '../config/base-server';
import { packageScripts, portCommand, scriptCommand, setsPort, startedBy, type StartedServer } from '../config/dev-servers';
import type { BaseWebServer } from '../types';
import type { ConfigWebServer, ConfigWebServers } from './init-config';

/**
 * What `visual-uat init` can tell about the base's servers: for each webServer entry whose
 * command starts a known dev server (config/dev-servers.ts, through package.json's scripts), a
 * `baseWebServer` with that server's port arguments where the base run cannot give it a port
 * otherwise; for every other entry, one line saying what is known and what to add.
 */

export interface BaseServerPlan {
  /** What withVisualUat's options get (undefined: nothing to write). */
  baseWebServer?: BaseWebServer | (BaseWebServer | null)[];
  /** One line per entry. */
  lines: string[];
}

/** What to add by hand: a command of the project's own scripts where one starts a server init knows, else a placeholder. */
function byHand(suggested: string | null): string {
  const command = suggested ? `'${suggested}'` : "'<a command that starts it on {port}>'";
  const which = suggested ? ' (a server of your package.json scripts: check it serves this app)' : '';
  return (
    `if the base run stops on its port, add baseWebServer: { command: ${command} }${which} to withVisualUat's options ` +
    `(README: "Your web server")`
  );
}

function through(started: StartedServer): string {
  return started.script ? `, through package.json's "${started.script}" script` : '';
}

/** The line for one entry and the command to write for it, if any. */
function planOne(
  server: ConfigWebServer,
  label: string,
  configDir: string,
  writes: boolean,
  alone: boolean,
): { line: string; command: string | null } {
  const scripts = packageScripts(path.resolve(configDir, server.cwd ?? '.'));
  // The one server of a config serves its app: a script's server is a fair example. Beside others (an API), it is a guess.
  const example = alone ? scriptCommand(scripts, null) : null;
  if (server.command === null)
    return { line: `${label}: its command is not a string, so init cannot tell which server it starts: ${byHand(example)}`, command: null };
  const named = `${label} (\`${server.command}\`)`;
  const started = startedBy(server.command, scripts);
  if (!started.server) {
    const env = server.envSetsPort ? "; its env sets PORT, and the base run sets PORT to the base's port" : '';
    return { line: `${named}: not a dev server init knows${env}: ${byHand(example)}`, command: null };
  }
  const what = `${named}: ${started.server.name}${through(started)}`;
  // Where the port is unknown (a computed url), a port flag of the server in the command itself is taken as naming it.
  const namesPort = server.port === null ? setsPort(startedBy(server.command, {})) : mentionsPort(server.command, server.port);
  if (namesPort)
    return { line: `${what}, names its port in the command, which the base run replaces with the base's: nothing to add`, command: null };
  const how = (command: string) =>
    writes
      ? `baseWebServer starts the base with \`${command}\``
      : `add baseWebServer: { command: '${command}' } to withVisualUat's options`;
  if (setsPort(started)) {
    // A script that fixes its port: the server's own command with {port} in that place.
    const command = started.script ? scriptCommand(scripts, started.script) : null;
    if (!command) return { line: `${what}, which sets a port of its own: ${byHand(null)}`, command: null };
    return { line: `${what}, which sets a port of its own: ${how(command)}, {port} being the base's port`, command };
  }
  const command = portCommand(server.command, started);
  if (started.server.readsPortEnv || !command)
    return { line: `${what}, takes its port from PORT, which the base run sets to the base's port: nothing to add`, command: null };
  return { line: `${what}: ${how(command)}, {port} being the base's port`, command };
}

/** The plan for the config's entries; `writes`: whether init writes the config (else the lines say what to add). */
export function planBaseServers(found: ConfigWebServers, configDir: string, writes: boolean): BaseServerPlan {
  if (found.kind === 'none') return { lines: [] };
  if (found.kind === 'unclear')
    return {
      lines: [`webServer: init cannot tell its entries (${found.reason}): ${byHand(scriptCommand(packageScripts(configDir), null))}`],
    };
  const planned = found.servers.map((server, index) =>
    planOne(server, found.kind === 'array' ? `webServer[${index}]` : 'webServer', configDir, writes, found.servers.length === 1),
  );
  const lines = planned.map((one) => one.line);
  if (!planned.some((one) => one.command)) return { lines };
  const entries = planned.map((one) => (one.command ? { command: one.command } : null));
  return { baseWebServer: found.kind === 'array' ? entries : entries[0]!, lines };
}
