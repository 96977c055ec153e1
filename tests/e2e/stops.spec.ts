import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, git, runPlaywright } from '../../scripts/fixture-repo';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * The stops a project adopting visual-uat runs into, each with the words that fix it, and the fix
 * it names tried: fixtures/vite-app's dashboard served two ways. A package.json "serve" script that
 * fixes its port (http-server -p 4391), with a baseWebServer that runs that same script; and a
 * static server that takes seconds to answer after a cold start (no .cache/ yet, as in the base
 * worktree), which prints its address at once. Then the branch merged into main: HEAD is the
 * merge-base, and only uncommitted changes are compared.
 */

test.describe.configure({ mode: 'serial' });

const EXPECTED = { 'overview › metrics': 'needs_review', 'overview › header': 'unchanged' };
const SERVE_PORT = 4391;
const SLOW_PORT = 4392;
const COLD_START_MS = 4_000;

/** A static server of static/ that answers only once its cold start is over, unless .cache/ says it was warmed before. */
const SLOW_SERVER = `const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const port = Number(process.env.PORT);
const warm = fs.existsSync(path.join(__dirname, '.cache', 'ready'));
console.log(\`static/ at http://127.0.0.1:\${port}/\${warm ? '' : ' (cold start: building)'}\`);
setTimeout(() => {
  http.createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : req.url.slice(1).split('?')[0];
    const file = path.join(__dirname, 'static', name);
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': name.endsWith('.css') ? 'text/css' : 'text/html' });
    fs.createReadStream(file).pipe(res);
  }).listen(port, '127.0.0.1');
}, warm ? 0 : ${COLD_START_MS});
`;

function config(port: number, webServer: string, options: string): string {
  return `import { defineConfig } from '@playwright/test';
import { withVisualUat } from 'visual-uat';

export default withVisualUat(
  defineConfig({
    testDir: 'tests',
    webServer: ${webServer},
    use: { baseURL: 'http://127.0.0.1:${port}' },
    reporter: [['list']],
  }),
  ${options},
);
`;
}

let repo: string;
const file = (name: string) => path.join(repo, name);

test.beforeAll(() => {
  repo = createFixtureRepo({
    fixture: 'vite-app',
    branch: 'feature/cards',
    prepare(dir) {
      const manifest = path.join(dir, 'package.json');
      const json = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      fs.writeFileSync(
        manifest,
        JSON.stringify({ ...json, scripts: { ...json.scripts, serve: `http-server static -p ${SERVE_PORT} -c-1 -a 127.0.0.1` } }, null, 2),
      );
      fs.writeFileSync(
        path.join(dir, 'serve.config.ts'),
        config(
          SERVE_PORT,
          `{ command: 'npm run serve', url: 'http://127.0.0.1:${SERVE_PORT}' }`,
          "{ baseBranch: 'main', outputDir: '.visual-uat-serve', baseWebServer: { command: 'npm run serve' } }",
        ),
      );
      fs.writeFileSync(path.join(dir, 'slow-server.js'), SLOW_SERVER);
      fs.writeFileSync(
        path.join(dir, 'slow.config.ts'),
        config(
          SLOW_PORT,
          `{ command: 'node slow-server.js', env: { PORT: '${SLOW_PORT}' }, url: 'http://127.0.0.1:${SLOW_PORT}', timeout: 3_000 }`,
          "{ baseBranch: 'main', outputDir: '.visual-uat-slow' }",
        ),
      );
      fs.appendFileSync(path.join(dir, '.gitignore'), '.cache/\n.visual-uat-serve/\n.visual-uat-slow/\n');
    },
  });
  // This checkout ran its server before: warm. The base worktree is a fresh checkout: cold.
  fs.mkdirSync(file('.cache'));
  fs.writeFileSync(file('.cache/ready'), '');
});

test("a serve script that fixes its port: the stop names its server's command on {port}, and that command compares", () => {
  const stopped = runPlaywright(repo, ['test', '-c', 'serve.config.ts']);
  expect(stopped.status).toBe(1);
  const suggested = /e\.g\. baseWebServer: \{ command: '([^']+)' \}/.exec(stopped.stdout + stopped.stderr);
  expect(suggested?.[1], stopped.stdout + stopped.stderr).toBe('npx http-server static -p {port} -c-1 -a 127.0.0.1');

  fs.writeFileSync(
    file('serve.config.ts'),
    fs
      .readFileSync(file('serve.config.ts'), 'utf8')
      .replace("baseWebServer: { command: 'npm run serve' }", `baseWebServer: { command: '${suggested![1]}' }`),
  );
  const run = runPlaywright(repo, ['test', '-c', 'serve.config.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo, '.visual-uat-serve')));
  expect(statuses(readLatest(repo, '.visual-uat-serve'))).toEqual(EXPECTED);
  git(repo, ['checkout', '--', 'serve.config.ts']);
});

test('a base server that printed its port and answered late is called slow, with the timeout to raise; raised, the run compares', () => {
  const stopped = runPlaywright(repo, ['test', '-c', 'slow.config.ts']);
  expect(stopped.status).toBe(1);
  const output = stopped.stdout + stopped.stderr;
  expect(output).toMatch(
    /printed that it listens on the base's port \(\d+\) but did not answer within 3 s: it started and was slow; give it longer with timeout in its webServer entry \(e\.g\. timeout: 6000;/,
  );

  // The branch is merged into main: HEAD is the merge-base, and the raised timeout is the one uncommitted change.
  git(repo, ['branch', '-f', 'main', 'HEAD']);
  fs.writeFileSync(file('slow.config.ts'), fs.readFileSync(file('slow.config.ts'), 'utf8').replace('timeout: 3_000', 'timeout: 6000'));
  const run = runPlaywright(repo, ['test', '-c', 'slow.config.ts']);
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.split('\n').find((line) => line.startsWith('visual-uat: base '))).toMatch(
    /^visual-uat: base main \(baseBranch in withVisualUat\) @ [0-9a-f]{8}, merge-base of HEAD, which is HEAD itself: only uncommitted changes are compared \(to compare with the commit before HEAD: VISUAL_UAT_BASE=HEAD~1 npx playwright test\)$/,
  );
  expect(new Set(Object.values(statuses(readLatest(repo, '.visual-uat-slow'))))).toEqual(new Set(['unchanged']));
});

test("the command the merged branch's first line names compares with the commit before HEAD", () => {
  const run = runPlaywright(repo, ['test', '-c', 'slow.config.ts'], { VISUAL_UAT_BASE: 'HEAD~1' });
  expect(run.stdout).toMatch(/^visual-uat: base HEAD~1 \(VISUAL_UAT_BASE\) @ [0-9a-f]{8}, merge-base of HEAD$/m);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo, '.visual-uat-slow')));
  expect(statuses(readLatest(repo, '.visual-uat-slow'))).toEqual(EXPECTED);
});
