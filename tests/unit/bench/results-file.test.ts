import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PREVIOUS_HEADING, RESULTS_FILE, withSection } from '../../../bench/results-file';

const FILE = [
  '# Benchmark results',
  '',
  '<!-- bench:a -->',
  '## A',
  'old figures',
  '<!-- /bench:a -->',
  '',
  `${PREVIOUS_HEADING}`,
  '',
  'kept as written',
  '',
].join('\n');

describe('bench/RESULTS.md sections', () => {
  it('replaces a section between its markers and leaves the rest of the file as it was', () => {
    const written = withSection(FILE, 'a', '## A\nnew figures');
    expect(written).toBe(FILE.replace('old figures', 'new figures'));
  });

  it('adds a section it does not find before the previous figures, which stay last', () => {
    const written = withSection(FILE, 'b', '## B\nfigures');
    expect(written.indexOf('<!-- bench:b -->')).toBeGreaterThan(written.indexOf('<!-- /bench:a -->'));
    expect(written.indexOf('<!-- /bench:b -->')).toBeLessThan(written.indexOf(PREVIOUS_HEADING));
    expect(written.endsWith('kept as written\n')).toBe(true);
  });

  it('finds, in the committed file, the markers of every section the benches write', () => {
    const text = fs.readFileSync(RESULTS_FILE, 'utf8');
    const benches = fs
      .readdirSync('bench')
      .filter((file) => file.endsWith('.ts'))
      .map((file) => fs.readFileSync(`bench/${file}`, 'utf8'));
    const written = benches.flatMap((source) => [...source.matchAll(/writeBenchSection\(\s*'([\w-]+)'/g)].map((match) => match[1]));
    expect(written.sort()).toEqual([
      'components',
      'diff-engines',
      'end-to-end-groups',
      'end-to-end-issue-51',
      'explain',
      'layout',
      'request-size',
      'review-page',
    ]);
    // bench/e2e.ts writes one section per suite, named by the suite's id.
    const suites = ['small', '20', '100', 'sparse'].map((id) => `end-to-end-${id}`);
    for (const id of [...written, ...suites, 'machine']) expect(text, id).toContain(`<!-- bench:${id} -->`);
    expect(text.indexOf(PREVIOUS_HEADING)).toBeGreaterThan(text.lastIndexOf('<!-- /bench:'));
  });
});
