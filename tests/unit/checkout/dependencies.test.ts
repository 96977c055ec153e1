import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { provideDependencies } from '../../../src/checkout/dependencies';
import { openRepo } from '../../../src/git';

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
});
