import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The installed package is read in node_modules, where a README link to a file npm left out is
 * dead: every relative link of every page the package carries lands on a file it carries too.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');

function packedFiles(): Set<string> {
  const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as {
    files: { path: string }[];
  }[];
  return new Set(pack.files.map((file) => file.path));
}

describe('the packed package', () => {
  const files = packedFiles();

  it('carries every file its pages link to', () => {
    const pages = [...files].filter((file) => file.endsWith('.md'));
    expect(pages).toContain('README.md');
    expect(pages).toContain('docs/web-servers.md');
    const dead = pages.flatMap((page) =>
      [...fs.readFileSync(path.join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(page), target)))
        .filter((target) => !files.has(target) && ![...files].some((file) => file.startsWith(`${target.replace(/\/$/, '')}/`)))
        .map((target) => `${page} → ${target}`),
    );
    expect(dead).toEqual([]);
  });

  it('says where its source and issues are', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\//);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs?.url).toMatch(/^https:\/\//);
  });
});
