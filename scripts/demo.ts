import fs from 'node:fs';
import path from 'node:path';
import { createFixtureRepo, PACKAGE_ROOT, runPlaywright } from './fixture-repo';

/**
 * The main job: a real app (fixtures/demo-app) at two commits, a real Playwright run with the
 * plugin, and an HTML report with the verdicts. The repository is rebuilt under .demo/ each time.
 */
function main(): void {
  const dir = path.join(PACKAGE_ROOT, '.demo', 'acme-site');
  fs.rmSync(dir, { recursive: true, force: true });
  createFixtureRepo({ fixture: 'demo-app', dir });
  process.stdout.write(`demo repository: ${dir}\n  main:            the site as it was\n  feature/pricing: "Highlight the Pro plan" (intended) and "Refactor page templates" (not meant to change anything)\n\n`);
  const run = runPlaywright(dir, ['test'], { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, VISUAL_UAT_MODEL: process.env.VISUAL_UAT_MODEL });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const report = path.join(dir, 'playwright-report', 'index.html');
  const results = path.join(dir, '.visual-uat', 'results', 'latest.json');
  process.stdout.write(`\nHTML report:  ${report}\n  open it with: npx playwright show-report ${path.relative(process.cwd(), path.dirname(report))}\nresults file: ${results}\n`);
  process.exitCode = fs.existsSync(report) && fs.existsSync(results) ? (run.status ?? 1) : 1;
}

main();
