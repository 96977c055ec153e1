import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { filesUnder } from '../../support/files';
import { printLine, printText, printWarning, say } from '../../../src/util/output';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');
/** The review page's script runs in the browser, where console is the page's. */
const BROWSER_CODE = new Set(['cli/review-client.ts']);

describe('what the run prints', () => {
  afterEach(() => vi.restoreAllMocks());

  it('goes through util/output.ts only: no other module of src/ writes to stdout, stderr or the console', () => {
    const writers = filesUnder(SRC)
      .filter(
        (file) =>
          file.endsWith('.ts') &&
          !BROWSER_CODE.has(path.relative(SRC, file)) &&
          path.relative(SRC, file) !== path.join('util', 'output.ts'),
      )
      .filter((file) => /process\.std(out|err)\.write|console\.(log|error|warn|info)\(/.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(writers).toEqual([]);
  });

  it('sends info to stdout and every other level to stderr, the run log under its prefix', () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    say('baseline pass done');
    printLine('  3 unchanged');
    printText('report\n');
    printWarning('visual-uat: warning: x');
    printLine('eval: 3 of 9 cases', 'diagnostic');
    printLine('visual-uat: no such run', 'error');
    expect(out.mock.calls.map(([text]) => text)).toEqual(['visual-uat: baseline pass done\n', '  3 unchanged\n', 'report\n']);
    expect(err.mock.calls.map(([text]) => text)).toEqual(['visual-uat: warning: x\n', 'eval: 3 of 9 cases\n', 'visual-uat: no such run\n']);
  });
});
