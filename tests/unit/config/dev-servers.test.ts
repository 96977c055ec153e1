import { describe, expect, it } from 'vitest';
import { DEV_SERVERS, portCommand, scriptCommand, serverScript, setsPort, startedBy } from '../../../src/config/dev-servers';

describe('the known dev servers', () => {
  it.each([
    ['vite', 'Vite', 'vite --port {port} --strictPort'],
    ['vite dev --host', 'Vite', 'vite dev --host --port {port} --strictPort'],
    ['npx astro dev', 'Astro', 'npx astro dev --port {port}'],
    ['next dev', 'Next.js', 'next dev --port {port}'],
    ['nuxt dev', 'Nuxt', 'nuxt dev --port {port}'],
    ['npx nuxi preview', 'Nuxt', 'npx nuxi preview --port {port}'],
    ['webpack serve --mode development', 'webpack-dev-server', 'webpack serve --mode development --port {port}'],
    ['webpack-dev-server', 'webpack-dev-server', 'webpack-dev-server --port {port}'],
    ['npx http-server public -c-1', 'http-server', 'npx http-server public -c-1 -p {port}'],
    ['serve dist', 'serve', 'serve dist -l {port}'],
    ['cd site && python3 -m http.server', "Python's http.server", 'cd site && python3 -m http.server {port}'],
    ['react-scripts start', 'Create React App', null],
  ])('%s is %s, on {port} with %s', (command, name, withPort) => {
    const started = startedBy(command, {});
    expect(started.server?.name).toBe(name);
    expect(portCommand(command, started)).toBe(withPort);
  });

  it('follows npm, pnpm and yarn into package.json scripts, and appends the port where the script takes it', () => {
    const scripts = {
      dev: 'vite',
      start: 'npm run serve',
      serve: 'cross-env NODE_ENV=development next dev',
      preview: 'npm run build && vite preview',
    };
    expect(portCommand('npm run dev', startedBy('npm run dev', scripts))).toBe('npm run dev -- --port {port} --strictPort');
    expect(portCommand('pnpm dev', startedBy('pnpm dev', scripts))).toBe('pnpm dev --port {port} --strictPort');
    expect(portCommand('yarn run preview', startedBy('yarn run preview', scripts))).toBe('yarn run preview --port {port} --strictPort');
    expect(startedBy('npm start', scripts)).toMatchObject({ program: 'next', script: 'serve', server: { name: 'Next.js' } });
    expect(startedBy('npm run build', { build: 'vite build' }).server).toBeNull();
    expect(startedBy('npm run build', { build: 'nuxt build' }).server).toBeNull();
  });

  it("gives a Nuxt script that fixes its port (nuxt dev --port 3000) the base's port in that place", () => {
    const scripts = { dev: 'nuxt dev --port 3000', build: 'nuxt build' };
    expect(setsPort(startedBy('npm run dev', scripts))).toBe(true);
    expect(scriptCommand(scripts, 'dev')).toBe('npx nuxt dev --port {port}');
    expect(portCommand('npm run dev', startedBy('npm run dev', { dev: 'nuxt dev' }))).toBe('npm run dev -- --port {port}');
  });

  it('adds no second port where the command or its script sets one (http-server and serve do not take the last)', () => {
    expect(setsPort(startedBy('npm run dev', { dev: 'vite --port 5173' }))).toBe(true);
    expect(portCommand('npm run dev', startedBy('npm run dev', { dev: 'vite --port=5173' }))).toBeNull();
    expect(portCommand('http-server -p8080', startedBy('http-server -p8080', {}))).toBeNull();
    expect(portCommand('python -m http.server 8000', startedBy('python -m http.server 8000', {}))).toBeNull();
  });

  it('knows no other server, and finds the script a node-like program runs', () => {
    expect(startedBy('node scripts/start-server.js', {}).server).toBeNull();
    expect(serverScript(startedBy('npm start', { start: 'nodemon --watch src src/server.ts' }))).toBe('src/server.ts');
    expect(serverScript(startedBy('npm start', {}))).toBe('server.js');
    expect(DEV_SERVERS.map((server) => server.name)).toEqual([
      'Vite',
      'Astro',
      'Next.js',
      'Nuxt',
      'Create React App',
      'webpack-dev-server',
      'http-server',
      'serve',
      "Python's http.server",
    ]);
  });
});
