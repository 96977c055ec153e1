import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README stays the short way in (the rest is in docs/ by topic), and what points into the
 * documentation lands: every relative link names a file that exists, and every README section a
 * message of the code sends the user to is there.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const PAGES = [
  'README.md',
  'bench/RESULTS.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

const SOURCES = fs
  .readdirSync(path.join(ROOT, 'src'), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => path.join('src', file));

describe('the README and docs/', () => {
  it('keeps the README within 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links only to files that exist', () => {
    const broken = PAGES.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !fs.existsSync(path.resolve(ROOT, path.dirname(page), target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('has every README section a message of the code names', () => {
    const headings = read('README.md')
      .split('\n')
      .filter((line) => line.startsWith('## '))
      .map((line) => line.slice(3).replaceAll('`', ''));
    const named = [...new Set(SOURCES.flatMap((file) => [...read(file).matchAll(/README:? "([^"]+)"/g)].map((match) => match[1])))];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((section) => !headings.includes(section))).toEqual([]);
  });
});
