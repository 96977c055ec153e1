import { describe, expect, it } from 'vitest';
import { nestedArgs, withoutShard } from '../../../src/baseline/pass';

describe('nestedArgs', () => {
  it('keeps projects, grep, shard and files; drops reporter, output and UI flags', () => {
    const argv = [
      'node',
      'cli.js',
      'test',
      'tests/a.spec.ts',
      '--project=chromium',
      '--grep',
      '@visual',
      '--shard=1/2',
      '--reporter=blob',
      '--output',
      'out',
      '-x',
      '--ui',
      '--workers',
      '1',
      '-u',
    ];
    expect(nestedArgs(argv)).toEqual(['tests/a.spec.ts', '--project=chromium', '--grep', '@visual', '--shard=1/2', '--workers', '1']);
  });

  it('drops -u and --update-snapshots with their optional mode, never a file argument after them', () => {
    const run = (...args: string[]) => nestedArgs(['node', 'cli.js', 'test', ...args]);
    expect(run('-u', 'all', 'tests/a.spec.ts')).toEqual(['tests/a.spec.ts']);
    expect(run('--update-snapshots', 'missing', '--grep', 'x')).toEqual(['--grep', 'x']);
    expect(run('--update-snapshots=changed', 'tests/b.spec.ts')).toEqual(['tests/b.spec.ts']);
    expect(run('-u', 'tests/c.spec.ts')).toEqual(['tests/c.spec.ts']);
    expect(run('--update-source-method', 'overwrite', 'tests/d.spec.ts')).toEqual(['tests/d.spec.ts']);
  });

  it("drops the shard beside a test list, which holds the shard's tests already", () => {
    expect(withoutShard(['--project=chromium', '--shard=1/2', '--grep', '@visual'])).toEqual(['--project=chromium', '--grep', '@visual']);
    expect(withoutShard(['--shard', '2/3', 'tests/a.spec.ts'])).toEqual(['tests/a.spec.ts']);
  });
});
