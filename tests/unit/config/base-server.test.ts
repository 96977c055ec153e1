import { describe, expect, it } from 'vitest';
import {
  baseOverride,
  baseServer,
  hostResolverRules,
  mapCheckoutPaths,
  mentionsPort,
  moveOrigins,
  replacePort,
  type BaseCheckout,
} from '../../../src/config/base-server';

const checkout: BaseCheckout = {
  repoRoots: ['/home/me/site'],
  worktree: '/home/me/site/.visual-uat/worktrees/abc123',
  configDirInBase: '/home/me/site/.visual-uat/worktrees/abc123',
  keep: ['/home/me/site/.visual-uat'],
};

describe('mapCheckoutPaths', () => {
  it('moves absolute paths into the checkout to the worktree, quoted or not', () => {
    expect(mapCheckoutPaths('node /home/me/site/scripts/start-server.js', checkout)).toBe(
      'node /home/me/site/.visual-uat/worktrees/abc123/scripts/start-server.js',
    );
    expect(mapCheckoutPaths('node "/home/me/site/scripts/a b.js"', checkout)).toBe(
      'node "/home/me/site/.visual-uat/worktrees/abc123/scripts/a b.js"',
    );
    expect(mapCheckoutPaths('/home/me/site', checkout)).toBe('/home/me/site/.visual-uat/worktrees/abc123');
    expect(mapCheckoutPaths('cd /home/me/site/app && npm start', checkout)).toBe(
      'cd /home/me/site/.visual-uat/worktrees/abc123/app && npm start',
    );
  });

  it('leaves the output folder, other folders and look-alike prefixes alone', () => {
    expect(mapCheckoutPaths('node /home/me/site/.visual-uat/x.js', checkout)).toBe('node /home/me/site/.visual-uat/x.js');
    expect(mapCheckoutPaths('node /home/me/site-other/server.js /usr/bin/x', checkout)).toBe(
      'node /home/me/site-other/server.js /usr/bin/x',
    );
  });
});

describe('replacePort', () => {
  it.each([
    ['vite --port 5173 --strictPort', 'vite --port 41001 --strictPort'],
    ['vite --port=5173', 'vite --port=41001'],
    ['http-server public -p 5173 -c-1', 'http-server public -p 41001 -c-1'],
    ['http-server -p5173', 'http-server -p41001'],
    ['next start -p 5173', 'next start -p 41001'],
    ['python3 -m http.server 5173', 'python3 -m http.server 41001'],
    ['PORT=5173 node server.js', 'PORT=41001 node server.js'],
    ['APP_PORT=5173 node server.js', 'APP_PORT=41001 node server.js'],
    ['serve -l tcp://127.0.0.1:5173', 'serve -l tcp://127.0.0.1:41001'],
    ['php -S localhost:5173', 'php -S localhost:41001'],
    ["node server.js --port '5173'", "node server.js --port '41001'"],
  ])('%s', (command, expected) => {
    expect(replacePort(command, 5173, 41001)).toBe(expected);
  });

  it('leaves other numbers alone', () => {
    for (const command of ['node server.js --timeout 51730', 'vite --port 15173', 'node v5173.js', 'sleep 5173.5'])
      expect(replacePort(command, 5173, 41001)).toBe(command);
    expect(mentionsPort('node server.js', 5173)).toBe(false);
    expect(mentionsPort('node server.js --port 5173', 5173)).toBe(true);
  });
});

describe('baseServer', () => {
  it('starts the base app from the worktree on its own port, never reusing a server', () => {
    const server = baseServer(
      {
        command: 'node /home/me/site/scripts/start-server.js --port 4321',
        url: 'http://127.0.0.1:4321',
        env: { STATIC_DIR: '/home/me/site/public', API_PORT: '4321', TIMEOUT: '4321', ORIGIN: 'http://localhost:4321' },
        reuseExistingServer: true,
      },
      41001,
      undefined,
      checkout,
    );
    expect(server).toMatchObject({
      command: 'node /home/me/site/.visual-uat/worktrees/abc123/scripts/start-server.js --port 41001',
      cwd: checkout.configDirInBase,
      env: {
        STATIC_DIR: '/home/me/site/.visual-uat/worktrees/abc123/public',
        API_PORT: '41001',
        TIMEOUT: '4321',
        ORIGIN: 'http://localhost:41001',
        PORT: '41001',
      },
      reuseExistingServer: false,
    });
  });

  it('takes baseWebServer in place of what cannot be rewritten, with {port} filled in', () => {
    const override = baseOverride({ command: 'node /home/me/site/server.js --listen {port}', env: { URL: 'http://127.0.0.1:{port}' } }, 0);
    const server = baseServer({ command: 'node server.js', port: 4321 }, 41001, override, checkout);
    expect(server).toMatchObject({
      command: 'node /home/me/site/.visual-uat/worktrees/abc123/server.js --listen 41001',
      env: { URL: 'http://127.0.0.1:41001', PORT: '41001' },
    });
    expect(baseOverride([{ command: 'a' }, { command: 'b' }], 1)).toEqual({ command: 'b' });
    expect(baseOverride({ command: 'a' }, 1)).toBeUndefined();
    expect(baseOverride([null, { command: 'b' }], 0)).toBeUndefined();
  });
});

describe('moveOrigins', () => {
  it("moves every entry's local origin, in command and env, to that entry's base port, and says what moved", () => {
    const ports = new Map([
      [3000, 41001],
      [4000, 41002],
    ]);
    const site = {
      command: 'node web.js --proxy http://127.0.0.1:4000/api',
      env: { API_URL: 'http://localhost:4000', CDN: 'https://cdn.example:4000', PORT: '41001' },
    };
    expect(moveOrigins(site, ports)).toEqual({
      server: {
        command: 'node web.js --proxy http://127.0.0.1:41002/api',
        env: { API_URL: 'http://localhost:41002', CDN: 'https://cdn.example:4000', PORT: '41001' },
      },
      moved: ['command', 'env API_URL=http://localhost:41002'],
    });
    expect(moveOrigins({ command: 'node api.js', env: { DB: 'localhost:5432' } }, ports).moved).toEqual([]);
  });
});

describe('hostResolverRules', () => {
  it('maps every local name of each current server origin to the base port', () => {
    const rules = hostResolverRules(
      [
        { command: 'x', url: 'http://127.0.0.1:4173/gallery.html' },
        { command: 'y', port: 5000 },
      ],
      new Map([
        [4173, 41001],
        [5000, 41002],
      ]),
    );
    expect(rules).toContain('--host-resolver-rules=MAP 127.0.0.1:4173 127.0.0.1:41001, MAP localhost:4173 localhost:41001');
    expect(rules).toContain('MAP localhost:5000 localhost:41002');
    expect(hostResolverRules([{ command: 'x' }], new Map())).toBeNull();
  });
});
