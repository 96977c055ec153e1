import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { provideDependencies } from '../../../src/checkout/dependencies';
import { openRepo } from '../../../src/git';
import { temporaryRepository } from '../../support/files';

const lock = (packages: string[]) =>
  `lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n${packages.map((name) => `      ${name}:\n        specifier: ^1.0.0\n        version: 1.0.0\n`).join('')}`;

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

describe('provideDependencies', () => {
  it("names the package manager the base commit's lockfile needs when it is not installed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-dependencies-'));
    const repoDir = path.join(dir, 'repo');
    fs.mkdirSync(path.join(repoDir, 'node_modules'), { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repoDir });
    fs.writeFileSync(path.join(repoDir, '.gitignore'), 'node_modules\n');
    fs.writeFileSync(path.join(repoDir, 'package.json'), '{"name":"app","private":true}\n');
    fs.writeFileSync(path.join(repoDir, 'pnpm-lock.yaml'), lock(['left-pad', 'lodash']));
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoDir, encoding: 'utf8' }).trim();
    // The branch dropped a package: the current node_modules cannot serve the base.
    fs.writeFileSync(path.join(repoDir, 'pnpm-lock.yaml'), lock(['left-pad']));
    const worktree = path.join(dir, 'base');
    git('worktree', 'add', '-q', '--detach', worktree, base);
    // A PATH with git and no pnpm, as on a machine that never installed it.
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(execFileSync('which', ['git'], { encoding: 'utf8' }).trim(), path.join(bin, 'git'));
    process.env.PATH = bin;
    const repo = await openRepo(repoDir);
    await expect(provideDependencies(repo, worktree, repoDir, base)).rejects.toThrow(
      "visual-uat: the base commit's pnpm-lock.yaml differs from the current one, so its dependencies are installed with pnpm " +
        'in the base worktree, and pnpm is not on PATH: install pnpm and run again',
    );
    process.env.PATH = PATH;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A pnpm workspace on main: the lockfile at its root, the config in apps/web, an API in apps/api. */
  async function workspace() {
    const { root: repoDir, write } = temporaryRepository('visual-uat-workspace-');
    write('.gitignore', 'node_modules\n');
    write('package.json', '{"name":"shop","private":true}\n');
    write('pnpm-workspace.yaml', "packages:\n  - 'apps/*'\n");
    write('pnpm-lock.yaml', lock(['left-pad', 'lodash']));
    write('apps/web/package.json', '{"name":"web","private":true}\n');
    write('apps/api/package.json', '{"name":"api","private":true}\n');
    write('node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad/index.js', 'module.exports = 1;\n');
    fs.mkdirSync(path.join(repoDir, 'apps/web/node_modules'), { recursive: true });
    fs.symlinkSync(
      '../../../node_modules/.pnpm/left-pad@1.0.0/node_modules/left-pad',
      path.join(repoDir, 'apps/web/node_modules/left-pad'),
    );
    write('apps/api/node_modules/ms/index.js', 'module.exports = 2;\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repoDir });
    git('add', '-A');
    git('commit', '-qm', 'base');
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoDir, encoding: 'utf8' }).trim();
    const worktree = `${repoDir}-base`;
    git('worktree', 'add', '-q', '--detach', worktree, base);
    return { repoDir, base, worktree, repo: await openRepo(repoDir) };
  }

  it("shares a workspace's node_modules from its root, so a package's links into the root's .pnpm and a sibling server's own resolve", async () => {
    const { repoDir, base, worktree, repo } = await workspace();
    const plan = await provideDependencies(repo, worktree, path.join(repoDir, 'apps/web'), base);
    expect(plan.detail).toMatch(/^lockfile unchanged: node_modules hard-linked into the base worktree/);
    expect(fs.readFileSync(path.join(worktree, 'apps/web/node_modules/left-pad/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(fs.realpathSync(path.join(worktree, 'apps/web/node_modules/left-pad'))).toContain(fs.realpathSync(worktree));
    expect(fs.existsSync(path.join(worktree, 'apps/api/node_modules/ms/index.js'))).toBe(true);
    for (const dir of [repoDir, worktree]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("installs a workspace whose lockfile changed at the workspace's root, where its lockfile is", async () => {
    const { repoDir, base, worktree, repo } = await workspace();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'visual-uat-pnpm-'));
    fs.writeFileSync(path.join(repoDir, 'pnpm-lock.yaml'), lock(['left-pad']));
    // A pnpm that notes where it ran.
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'pnpm'), `#!/bin/sh\npwd > ${path.join(dir, 'ran-in')}\n`, { mode: 0o755 });
    process.env.PATH = `${bin}${path.delimiter}${PATH}`;
    const plan = await provideDependencies(repo, worktree, path.join(repoDir, 'apps/web'), base);
    expect(plan.how).toBe('installed');
    expect(fs.readFileSync(path.join(dir, 'ran-in'), 'utf8').trim()).toBe(fs.realpathSync(worktree));
    for (const folder of [dir, repoDir, worktree]) fs.rmSync(folder, { recursive: true, force: true });
  });
});
