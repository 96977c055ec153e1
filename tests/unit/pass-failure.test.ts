import { describe, expect, it } from 'vitest';
import { explainPassFailure } from '../../src/baseline/pass-failure';

const FROM_BASE = "reading process.env.PORT in the server also works, but only once that change is in the base commit (the base runs the base commit's files)";

describe('explainPassFailure', () => {
  it('a port fixed in the script of an array entry: names the entry, its command and a baseWebServer array', () => {
    const log = '[WebServer] Error: listen EADDRINUSE: address already in use :::4000\nError: Process from config.webServer was not able to start. Exit code: 1\n';
    const servers = [{ command: 'node web.js', port: 3000, portSetIn: null }, { command: 'node api.js', port: 4000, portSetIn: null }];
    expect(explainPassFailure({ log, basePorts: [41001, 41002], servers })).toBe(
      "the base app's server webServer[1] (`node api.js`) listens on port 4000, the current app's port, so the base cannot get a port of its own: " +
        `give the base its own command with the baseWebServer option (e.g. baseWebServer: [null, { command: 'node api.js --port {port}' }]); ${FROM_BASE}`,
    );
  });

  it('Vite that moved to the next port: where it listened, where the port is set, and the Vite fix first', () => {
    const log = [
      '[WebServer] Port 3000 is in use, trying another one...',
      '[WebServer]   VITE v8.3.8  ready in 300 ms',
      '[WebServer]   ➜  Local:   http://localhost:3001/',
      'Error: Timed out waiting 60000ms from config.webServer.',
    ].join('\n');
    expect(explainPassFailure({ log, basePorts: [41001], servers: [{ command: 'pnpm dev', port: 3000, portSetIn: 'vite.config.js' }] })).toBe(
      "the base app's server (`pnpm dev`) did not answer on the base's port (41001): it listened on port 3001 instead (http://localhost:3001/); " +
        "the app's port, 3000, is set in vite.config.js, not read from PORT: give the base its own command with the baseWebServer option " +
        "(e.g. baseWebServer: { command: 'pnpm dev --port {port} --strictPort' }); reading process.env.PORT in vite.config.js also works, but only once that change is in the base commit (the base runs the base commit's files)",
    );
  });

  it('a silent server that never answers: the timeout, and a port flag as the other way', () => {
    const log = 'Error: Timed out waiting 60000ms from config.webServer.\n';
    expect(explainPassFailure({ log, basePorts: [41001], servers: [{ command: 'npm start', port: 8080, portSetIn: null }] })).toBe(
      "the base app's server (`npm start`) did not answer on the base's port (41001) within the webServer timeout: " +
        "give the base its own command with the baseWebServer option (e.g. baseWebServer: { command: 'npm start -- --port {port}' }), or name the port in the command (--port, -p) so visual-uat can replace it; " +
        FROM_BASE,
    );
  });
});
