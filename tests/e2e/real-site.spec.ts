import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createFixtureRepo, freePortSync, runPlaywright } from '../../scripts/fixture-repo';
import { checkpoint, readLatest, statuses, gateExit } from '../support/results';

/**
 * A site shaped like the ones visual-uat met in the wild (fixtures/real-site): its server script
 * started by absolute path (`node ${path.join(rootDir, 'scripts', 'start-server.js')} --port N`),
 * serving files relative to its own folder and ignoring PORT; a fixed header, gradients, shadows
 * and fractional heights; a test-level baseURL and a test that opens an absolute URL. Every page
 * changes on the branch, so anything but needs_review means the base was not the base.
 */

const CHANGED = {
  'home › home': 'needs_review',
  'pricing, by absolute URL › plans': 'needs_review',
  'getting started › getting-started': 'needs_review',
};

function imagesDiffer(repo: string, run = readLatest(repo)): boolean[] {
  const dir = path.join(repo, '.visual-uat', 'results');
  return run.tests
    .flatMap((t) => t.checkpoints)
    .map((c) => !fs.readFileSync(path.resolve(dir, c.baselineImage!)).equals(fs.readFileSync(path.resolve(dir, c.currentImage!))));
}

test('the base app comes from the base commit: absolute script path, port flag, test-level baseURL, absolute URL', async () => {
  const repo = createFixtureRepo({ fixture: 'real-site' });
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(statuses(results)).toEqual(CHANGED);
  expect(imagesDiffer(repo)).toEqual([true, true, true]);
  expect(results.tests.every((t) => t.baselineAvailable)).toBe(true);
});

/** The site with its port fixed in the start script (and the config naming it only in the URL). */
function fixedPortRepo(port: number): string {
  return createFixtureRepo({
    fixture: 'real-site',
    prepare(dir) {
      const script = path.join(dir, 'scripts', 'start-server.js');
      fs.writeFileSync(script, fs.readFileSync(script, 'utf8').replace('? 4321 :', `? ${port} :`));
      const config = path.join(dir, 'playwright.config.ts');
      fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace(' --port ${port}`', '`'));
    },
  });
}

test('a port fixed in the server script stops the run before the current tests, naming the port, the command and the fixes', async () => {
  const port = freePortSync();
  const repo = fixedPortRepo(port);
  const run = runPlaywright(repo, ['test'], { DEMO_PORT: String(port) });
  expect(run.status).toBe(1);
  const output = run.stdout + run.stderr;
  expect(output).toContain(
    `visual-uat: the baseline pass failed: the base app's server (\`node scripts/start-server.js\`) listens on port ${port} (set in scripts/start-server.js), the current app's port, so the base cannot get a port of its own: give the base its own command with the baseWebServer option (e.g. baseWebServer: { command: 'node scripts/start-server.js --port {port}' }); reading process.env.PORT in scripts/start-server.js also works, but only once that change is in the base commit (the base runs the base commit's files); see .visual-uat/logs/baseline.log. Nothing was compared, so the run stops`,
  );
  expect(output).not.toMatch(/✓|passed/);
  expect(fs.existsSync(path.join(repo, '.visual-uat', 'results', 'latest.json'))).toBe(false);

  const allowed = runPlaywright(repo, ['test'], { DEMO_PORT: String(port), VISUAL_UAT_ALLOW_MISSING_BASELINES: '1' });
  expect(allowed.status, allowed.stdout + allowed.stderr).toBe(gateExit(readLatest(repo)));
  expect(allowed.stdout).toContain('allowMissingBaselines is set: every checkpoint will be new');
  expect(Object.values(statuses(readLatest(repo)))).toEqual(['new', 'new', 'new']);

  const config = path.join(repo, 'playwright.config.ts');
  fs.writeFileSync(
    config,
    fs
      .readFileSync(config, 'utf8')
      .replace(
        "{ baseBranch: 'main' }",
        "{ baseBranch: 'main', baseWebServer: { command: 'node scripts/start-server.js --port {port}' } }",
      ),
  );
  const fixed = runPlaywright(repo, ['test'], { DEMO_PORT: String(port) });
  expect(fixed.status, fixed.stdout + fixed.stderr).toBe(gateExit(readLatest(repo)));
  expect(statuses(readLatest(repo))).toEqual(CHANGED);
  expect(imagesDiffer(repo)).toEqual([true, true, true]);
});

test('a start script that fixes its port and reads no argument, run by npm start: the stop names the script, and once baseWebServer is set it says so and never suggests it again', async () => {
  const port = freePortSync();
  const repo = createFixtureRepo({
    fixture: 'real-site',
    prepare(dir) {
      const script = path.join(dir, 'scripts', 'start-server.js');
      fs.writeFileSync(
        script,
        fs
          .readFileSync(script, 'utf8')
          .replace("const flag = process.argv.indexOf('--port');\n", '')
          .replace('flag === -1 ? 4321 : Number(process.argv[flag + 1])', String(port)),
      );
      // An unrelated script names the port too: package.json is not where the port is set.
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        JSON.stringify(
          {
            name: 'northwind-site',
            private: true,
            scripts: { start: 'node scripts/start-server.js', audit: `lhci collect --url http://127.0.0.1:${port}` },
          },
          null,
          2,
        ),
      );
      const config = path.join(dir, 'playwright.config.ts');
      fs.writeFileSync(
        config,
        fs
          .readFileSync(config, 'utf8')
          .replace("command: `node ${path.join(rootDir, 'scripts', 'start-server.js')} --port ${port}`", "command: 'npm start'"),
      );
    },
  });
  const first = runPlaywright(repo, ['test'], { DEMO_PORT: String(port) });
  expect(first.status).toBe(1);
  expect(first.stdout + first.stderr).toContain(
    `visual-uat: the baseline pass failed: the base app's server (\`npm start\`) listens on port ${port} (set in scripts/start-server.js), the current app's port, so the base cannot get a port of its own: give the base its own command, one that starts the server on {port}, with the baseWebServer option; reading process.env.PORT in scripts/start-server.js also works`,
  );

  const config = path.join(repo, 'playwright.config.ts');
  fs.writeFileSync(
    config,
    fs
      .readFileSync(config, 'utf8')
      .replace(
        "{ baseBranch: 'main' }",
        "{ baseBranch: 'main', baseWebServer: { command: 'node scripts/start-server.js --port {port}' } }",
      ),
  );
  const next = runPlaywright(repo, ['test'], { DEMO_PORT: String(port) });
  expect(next.status).toBe(1);
  const output = next.stdout + next.stderr;
  const basePort = /baseWebServer: `node scripts\/start-server.js --port (\d+)`/.exec(output)?.[1];
  expect(Number(basePort)).not.toBe(port);
  expect(output).toContain(
    `visual-uat: the baseline pass failed: the base app's server (baseWebServer: \`node scripts/start-server.js --port ${basePort}\`) listens on port ${port} (set in scripts/start-server.js), the current app's port, though baseWebServer is set: its command does not give the server its port; the base server printed "Error: listen EADDRINUSE: address already in use 127.0.0.1:${port}": make baseWebServer's command start the server on {port}`,
  );
  expect(output).not.toContain('e.g. baseWebServer');
});

test('a server that reads the checkout by a fixed absolute path: every page identical, and one warning line says why that is suspect', async () => {
  const repo = createFixtureRepo({
    fixture: 'real-site',
    prepare(dir) {
      // Written at the site's first commit, so the base worktree's copy names the current checkout too.
      const script = path.join(dir, 'scripts', 'start-server.js');
      fs.writeFileSync(
        script,
        fs.readFileSync(script, 'utf8').replace("path.join(__dirname, '..', 'public')", JSON.stringify(path.join(dir, 'public'))),
      );
      const spec = path.join(dir, 'tests', 'site.spec.ts');
      fs.writeFileSync(
        spec,
        fs
          .readFileSync(spec, 'utf8')
          .replace("await screenshotCheckpoint('home');", "await screenshotCheckpoint('home', { maxDiffPixels: 100 });"),
      );
    },
  });
  // Live-status dots drawn in a random shade on every load (on the branch's page, which the server
  // serves to both passes): rendering noise within the home checkpoint's tolerance, which must not
  // silence the warning.
  const home = path.join(repo, 'public', 'index.html');
  fs.writeFileSync(
    home,
    fs
      .readFileSync(home, 'utf8')
      .replace(
        '</body>',
        '<b class="live" style="position:absolute;top:4px;right:4px;z-index:20"></b><b class="live" style="position:absolute;top:4px;right:12px;z-index:20"></b><b class="live" style="position:absolute;top:4px;right:20px;z-index:20"></b>' +
          "<script>for (const dot of document.querySelectorAll('.live')) Object.assign(dot.style, { width: '4px', height: '4px', background: `hsl(${Math.floor(Math.random() * 360)} 80% 50%)` });</script></body>",
      ),
  );
  const run = runPlaywright(repo, ['test']);
  expect(run.status, run.stdout + run.stderr).toBe(gateExit(readLatest(repo)));
  const results = readLatest(repo);
  expect(Object.values(statuses(results))).toEqual(['unchanged', 'unchanged', 'unchanged']);
  expect(checkpoint(results, 'home', 'home').checkpoint.reason).toMatch(/within tolerance/);
  expect(run.stderr).toContain(
    'visual-uat: warning: 3 app files differ from the base (e.g. public/docs/index.html), yet all 3 compared checkpoints are the same as their baselines: if those files show on these pages, the base app was probably the current one',
  );
  // A branch that changes only tests and docs never gets the warning.
  const quiet = createFixtureRepo({ fixture: 'real-site', commits: 0 });
  fs.appendFileSync(path.join(quiet, 'tests', 'site.spec.ts'), '\n// a note\n');
  fs.writeFileSync(path.join(quiet, 'README.md'), '# Northwind\n');
  // Adopting a tool: a devDependency and a script in package.json are not the app.
  const manifest = path.join(quiet, 'package.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify(
      { ...JSON.parse(fs.readFileSync(manifest, 'utf8')), devDependencies: { 'visual-uat': '*' }, scripts: { vt: 'playwright test' } },
      null,
      2,
    ),
  );
  const docsOnly = runPlaywright(quiet, ['test']);
  expect(docsOnly.status, docsOnly.stdout + docsOnly.stderr).toBe(gateExit(readLatest(quiet)));
  expect(docsOnly.stderr).not.toContain('app files differ from the base');
});

test('npx playwright test -u captures the baselines again; --update-snapshots=none keeps the stored ones', async () => {
  const repo = createFixtureRepo({ fixture: 'real-site' });
  expect(runPlaywright(repo, ['test']).stdout).toContain('visual-uat: baseline pass (not in the store)');
  const updated = runPlaywright(repo, ['test', '-u']);
  expect(updated.status, updated.stdout + updated.stderr).toBe(gateExit(readLatest(repo)));
  expect(updated.stdout).toContain('visual-uat: baseline pass (--update-snapshots=changed)');
  expect(runPlaywright(repo, ['test', '--update-snapshots=all']).stdout).toContain('visual-uat: baseline pass (--update-snapshots=all)');
  const kept = runPlaywright(repo, ['test', '--update-snapshots', 'none']);
  expect(kept.stdout).toContain("visual-uat: baselines from the store's index of this suite");
  expect(statuses(readLatest(repo))).toEqual(CHANGED);
});
