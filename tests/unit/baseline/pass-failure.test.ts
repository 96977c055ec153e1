import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explainPassFailure, type ServerEntry } from '../../../src/baseline/pass-failure';
import { portSource } from '../../../src/baseline/port-source';
import { SERVER_READY_LINE } from '../../../src/config/server-ready';

const FROM_BASE =
  "reading process.env.PORT in the server also works, but only once that change is in the base commit (the base runs the base commit's files)";

const entry = (fields: Partial<ServerEntry> & Pick<ServerEntry, 'command' | 'port'>): ServerEntry => ({
  baseWebServer: null,
  portSetIn: null,
  portCommand: null,
  ...fields,
});

describe('explainPassFailure', () => {
  it('a port fixed in the script of an array entry: names the entry, its command and a baseWebServer array', () => {
    const log =
      '[WebServer] Error: listen EADDRINUSE: address already in use :::4000\nError: Process from config.webServer was not able to start. Exit code: 1\n';
    const servers = [
      entry({ command: 'node web.js', port: 3000 }),
      entry({ command: 'node api.js', port: 4000, portCommand: 'node api.js --port {port}' }),
    ];
    expect(explainPassFailure({ log, basePorts: [41001, 41002], servers })).toBe(
      "the base app's server webServer[1] (`node api.js`) listens on port 4000, the current app's port, so the base cannot get a port of its own: " +
        `give the base its own command with the baseWebServer option (e.g. baseWebServer: [null, { command: 'node api.js --port {port}' }]); ${FROM_BASE}`,
    );
  });

  it("Vite refusing the current app's port under --strictPort: the port is in use, and the base's own command", () => {
    const log = [
      '[WebServer] error when starting dev server:',
      '[WebServer] Error: Port 5173 is already in use',
      'Error: Process from config.webServer was not able to start. Exit code: 1',
    ].join('\n');
    const servers = [
      entry({ command: 'npm run dev', port: 5173, portSetIn: 'package.json', portCommand: 'npx vite --port {port} --strictPort' }),
    ];
    expect(explainPassFailure({ log, basePorts: [41001], servers })).toBe(
      "the base app's server (`npm run dev`) listens on port 5173 (set in package.json), the current app's port, so the base cannot " +
        "get a port of its own: give the base its own command with the baseWebServer option (e.g. baseWebServer: { command: 'npx vite " +
        "--port {port} --strictPort' }); a script in package.json that takes its port from $PORT also works, but only once that change " +
        "is in the base commit (the base runs the base commit's files)",
    );
  });

  it('Vite that moved to the next port: where it listened, where the port is set, and the Vite fix first', () => {
    const log = [
      '[WebServer] Port 3000 is in use, trying another one...',
      '[WebServer]   VITE v8.3.8  ready in 300 ms',
      '[WebServer]   ➜  Local:   http://localhost:3001/',
      'Error: Timed out waiting 60000ms from config.webServer.',
    ].join('\n');
    const servers = [
      entry({ command: 'pnpm dev', port: 3000, portSetIn: 'vite.config.js', portCommand: 'pnpm dev --port {port} --strictPort' }),
    ];
    expect(explainPassFailure({ log, basePorts: [41001], servers })).toBe(
      "the base app's server (`pnpm dev`) did not answer on the base's port (41001): it listened on port 3001 instead (http://localhost:3001/); " +
        "the app's port, 3000, is set in vite.config.js, not read from PORT: give the base its own command with the baseWebServer option " +
        "(e.g. baseWebServer: { command: 'pnpm dev --port {port} --strictPort' }); reading process.env.PORT in vite.config.js also works, but only once that change is in the base commit (the base runs the base commit's files)",
    );
  });

  it('a server it cannot tell the port flag of: no made-up example', () => {
    const log = 'Error: Timed out waiting 60000ms from config.webServer.\n';
    expect(explainPassFailure({ log, basePorts: [41001], servers: [entry({ command: 'npm start', port: 8080 })] })).toBe(
      "the base app's server (`npm start`) did not answer on the base's port (41001) within the webServer timeout: " +
        `give the base its own command, one that starts the server on {port}, with the baseWebServer option; ${FROM_BASE}`,
    );
  });

  it('baseWebServer set and the base still on the fixed port: the base command that ran, the output, the script that sets the port, and no baseWebServer example', () => {
    const log = [
      '[WebServer] node:events:497',
      '[WebServer] Error: listen EADDRINUSE: address already in use 127.0.0.1:4321',
      'Error: Process from config.webServer was not able to start. Exit code: 1',
    ].join('\n');
    const servers = [
      entry({
        command: 'npm start',
        port: 4321,
        baseWebServer: 'node scripts/start-server.js --port {port}',
        portSetIn: 'scripts/start-server.js',
      }),
    ];
    const message = explainPassFailure({ log, basePorts: [41001], servers });
    expect(message).toBe(
      "the base app's server (baseWebServer: `node scripts/start-server.js --port 41001`) listens on port 4321 (set in scripts/start-server.js), the current app's port, though baseWebServer is set: " +
        'its command does not give the server its port; the base server printed "Error: listen EADDRINUSE: address already in use 127.0.0.1:4321": ' +
        "make baseWebServer's command start the server on {port}; reading process.env.PORT in scripts/start-server.js works once that change is in the base commit (the base runs the base commit's files)",
    );
    expect(message).not.toContain('e.g. baseWebServer');
  });

  it('baseWebServer set and the base timed out or exited: says so, with what the server printed', () => {
    const servers = [entry({ command: 'npm run dev', port: 5173, baseWebServer: 'npm run dev -- --port {port}' })];
    const timedOut = explainPassFailure({
      log: '[WebServer] ready on http://localhost:5174/\nError: Timed out waiting 60000ms from config.webServer.\n',
      basePorts: [41001],
      servers,
    });
    expect(timedOut).toMatch(
      /^the base app's server \(baseWebServer: `npm run dev -- --port 41001`\) did not answer on the base's port \(41001\): it listened on port 5174 instead .*, though baseWebServer is set/,
    );
    expect(timedOut).toContain('the base server printed: "ready on http://localhost:5174/"');
    expect(timedOut).not.toContain('e.g. baseWebServer');
    const exited = explainPassFailure({ log: 'Error: Process from config.webServer exited early.\n', basePorts: [41001], servers });
    expect(exited).toBe(
      "the base app's server (baseWebServer: `npm run dev -- --port 41001`) exited before it answered; the base server printed nothing: baseWebServer is set, check that its command starts the base app",
    );
  });

  it('a server that printed its own port and did not answer in time is called slow, with the timeout to raise', () => {
    const servers = [entry({ command: 'npm run dev', port: 5173, baseWebServer: 'npm run dev -- --port {port}' })];
    const slow = explainPassFailure({
      log: '[WebServer]   ➜  Local:   http://localhost:41001/\nError: Timed out waiting 60000ms from config.webServer.\n',
      basePorts: [41001],
      servers,
    });
    expect(slow).toBe(
      "the base app's server (baseWebServer: `npm run dev -- --port 41001`) printed that it listens on the base's port (41001) but did not answer within 60 s: it started and was slow; give it longer with timeout in its webServer entry (e.g. timeout: 120000; the base server has the same entry's timeout)",
    );
  });

  it('a crash shows the last lines the server printed, not the line of its guard', () => {
    const servers = [entry({ command: 'node server.js', port: 3000 })];
    const log = [
      `[WebServer] ${SERVER_READY_LINE}`,
      '[WebServer] starting',
      '[WebServer] TypeError: Cannot read properties of undefined',
      '[WebServer]     at main (server.js:4:9)',
      '[WebServer] Node.js v20.19.0',
      'Error: Process from config.webServer exited early.',
    ].join('\n');
    expect(explainPassFailure({ log, basePorts: [41001], servers })).toBe(
      'the base app\'s server (`node server.js`) exited before it answered (TypeError: Cannot read properties of undefined); the base server\'s last 4 lines: "starting", "TypeError: Cannot read properties of undefined", "at main (server.js:4:9)", "Node.js v20.19.0": check that the base commit starts with this webServer',
    );
  });
});

describe('portSource', () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function checkout(files: Record<string, string>): string {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'port-source-'));
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }

  it('names the server script that listens on the fixed port, not package.json where an unrelated script names it', () => {
    const at = checkout({
      'package.json': JSON.stringify({
        scripts: { start: 'node scripts/start-server.js', lighthouse: 'lhci collect --url http://localhost:4321' },
      }),
      'scripts/start-server.js': "require('node:http').createServer(() => {}).listen(4321);\n",
    });
    expect(portSource(at, { command: 'npm start', port: 4321, baseWebServer: null }, true)).toEqual({
      portSetIn: path.join('scripts', 'start-server.js'),
      portCommand: null,
    });
  });

  it('a script that reads --port gets it in the example; package.json where the started script names the port', () => {
    const at = checkout({
      'package.json': JSON.stringify({ scripts: { dev: 'vite --port 5173' } }),
      'server.js':
        "const port = process.argv.includes('--port') ? Number(process.argv[process.argv.indexOf('--port') + 1]) : 4321;\nrequire('node:http').createServer(() => {}).listen(port);\n",
    });
    expect(portSource(at, { command: 'node server.js', port: 4321, baseWebServer: null }, true)).toEqual({
      portSetIn: 'server.js',
      portCommand: 'node server.js --port {port}',
    });
    // Vite given its port twice takes the last, but not every server does: the port the script sets is replaced instead.
    expect(portSource(at, { command: 'npm run dev', port: 5173, baseWebServer: null }, true)).toEqual({
      portSetIn: 'package.json',
      portCommand: 'npx vite --port {port}',
    });
  });

  it("a serve script that fixes its port gives the server's own command with {port} in its place, whichever command the webServer runs", () => {
    const at = checkout({ 'package.json': JSON.stringify({ scripts: { test: 'playwright test', serve: 'http-server -p 4321 -c-1 .' } }) });
    expect(portSource(at, { command: 'npm run serve', port: 4321, baseWebServer: null }, true)).toEqual({
      portSetIn: 'package.json',
      portCommand: 'npx http-server -p {port} -c-1 .',
    });
    expect(portSource(at, { command: 'node tools/serve.js', port: 4321, baseWebServer: 'node tools/serve.js' }, true).portCommand).toBe(
      'npx http-server -p {port} -c-1 .',
    );
    // Beside other servers, an entry that runs no script is not given another server's command.
    expect(portSource(at, { command: 'node api.js', port: 4000, baseWebServer: null }, false).portCommand).toBeNull();
  });
});
