import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, freePortSync, runPlaywright } from '../../scripts/fixture-repo';
import { readLatest, statuses, gateExit } from '../support/results';

/**
 * Two servers that know each other (fixtures/two-servers): a site and the API it passes /api/* on
 * to, as two webServer entries, the site finding the API through API_URL in its env. The branch
 * changes the API's prices only: the base site must show the base API's prices.
 */

test.describe.configure({ mode: 'parallel' });

test('an array webServer whose site names its API: the base site reaches the base API, and the log says what moved', async () => {
  const apiPort = freePortSync();
  const repo = createFixtureRepo({ fixture: 'two-servers' });
  const run = runPlaywright(repo, ['test'], { API_PORT: String(apiPort) });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual({ 'plans › plans': 'needs_review' });
  const log = fs.readFileSync(path.join(repo, '.visual-uat', 'logs', 'baseline.log'), 'utf8');
  expect(log).toMatch(
    /visual-uat: webServer\[0\] names another server's origin, moved to the base server's port: env API_URL=http:\/\/localhost:(\d+)/,
  );
  expect(log).not.toContain(`API_URL=http://localhost:${apiPort}`);
});

test('an array webServer whose API fixes its port: the stop names the entry, its command and the baseWebServer example', async () => {
  const apiPort = freePortSync();
  // The API's port fixed in its script (on main, and over the branch's copy), the config naming it only in the url.
  const fixPort = (dir: string) => {
    const api = path.join(dir, 'api', 'server.js');
    fs.writeFileSync(api, fs.readFileSync(api, 'utf8').replace('process.env.PORT || 4000', `${apiPort}`));
  };
  const repo = createFixtureRepo({
    fixture: 'two-servers',
    prepare(dir) {
      fixPort(dir);
      const config = path.join(dir, 'playwright.config.ts');
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('`node api/server.js --port ${apiPort}`', "'node api/server.js'"));
    },
  });
  fixPort(repo);
  const run = runPlaywright(repo, ['test'], { API_PORT: String(apiPort) });
  expect(run.status).toBe(1);
  expect(run.stdout + run.stderr).toContain(
    `visual-uat: the baseline pass failed: the base app's server webServer[1] (\`node api/server.js\`) listens on port ${apiPort} (set in api/server.js), the current app's port, so the base cannot get a port of its own: ` +
      "give the base its own command with the baseWebServer option (e.g. baseWebServer: [null, { command: 'node api/server.js --port {port}' }]); " +
      "reading process.env.PORT in api/server.js also works, but only once that change is in the base commit (the base runs the base commit's files); see .visual-uat/logs/baseline.log.",
  );

  const config = path.join(repo, 'playwright.config.ts');
  fs.writeFileSync(
    config,
    fs
      .readFileSync(config, 'utf8')
      .replace("{ baseBranch: 'main' }", "{ baseBranch: 'main', baseWebServer: [null, { command: 'node api/server.js --port {port}' }] }"),
  );
  const fixed = runPlaywright(repo, ['test'], { API_PORT: String(apiPort) });
  expect(fixed.status, fixed.stdout + fixed.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual({ 'plans › plans': 'needs_review' });
});

test('a site that finds its API through a file (.env): the run says the origin there cannot move, and how to name it instead', async () => {
  const apiPort = freePortSync();
  const repo = createFixtureRepo({
    fixture: 'two-servers',
    prepare(dir) {
      fs.writeFileSync(path.join(dir, '.env'), `API_URL=http://localhost:${apiPort}\n`);
      const config = path.join(dir, 'playwright.config.ts');
      const text = fs
        .readFileSync(config, 'utf8')
        .replace('`node web/server.js --port ${sitePort}`', '`node --env-file=.env web/server.js --port ${sitePort}`');
      fs.writeFileSync(config, text.replace(', env: { API_URL: `http://localhost:${apiPort}` }', ''));
    },
  });
  const run = runPlaywright(repo, ['test'], { API_PORT: String(apiPort) });
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  expect(run.stdout).toContain(
    `visual-uat: warning: .env names localhost:${apiPort}, the origin of webServer[1] (\`node api/server.js --port ${apiPort}\`), and visual-uat moves origins in the config's commands and env, not in files: ` +
      `the base app may reach the current webServer[1]. Name the origin in the env of the webServer entry that reads it (env: { API_URL: 'http://localhost:${apiPort}' }), where it moves to the base port`,
  );
});
