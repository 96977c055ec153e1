import { describe, expect, it } from 'vitest';
import { validateCheckpointName } from '../../src/capture/names';
import { nestedArgs } from '../../src/baseline/pass';

describe('validateCheckpointName', () => {
  it('accepts ordinary and Unicode names', () => {
    expect(validateCheckpointName('plans')).toBe('plans');
    expect(validateCheckpointName('Größe – Übersicht')).toBe('Größe – Übersicht');
  });

  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['a/b', /path separator/],
    ['a\\b', /path separator/],
    ['..', /path separator/],
    ['x..y', /path separator/],
    ['nul\0', /NUL/],
    ['x'.repeat(101), /101 characters: use at most 100/],
    ['what?', /not allowed in file names/],
  ])('refuses %j', (name, message) => {
    expect(() => validateCheckpointName(name)).toThrow(message);
  });
});

describe('nestedArgs', () => {
  it('keeps projects, grep, shard and files; drops reporter, output and UI flags', () => {
    const argv = ['node', 'cli.js', 'test', 'tests/a.spec.ts', '--project=chromium', '--grep', '@visual', '--shard=1/2', '--reporter=blob', '--output', 'out', '-x', '--ui', '--workers', '1', '-u'];
    expect(nestedArgs(argv)).toEqual(['tests/a.spec.ts', '--project=chromium', '--grep', '@visual', '--shard=1/2', '--workers', '1']);
  });
});
