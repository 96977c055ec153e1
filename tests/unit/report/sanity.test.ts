import { describe, expect, it } from 'vitest';
import { sameAppWarning } from '../../../src/report/sanity';
import type { RunContext } from '../../../src/types';

const context = (appFiles: string[]): RunContext => ({
  baseBranch: 'main',
  baseRef: 'main',
  baseCommit: 'a'.repeat(40),
  currentBranch: 'feature',
  currentCommit: 'b'.repeat(40),
  dirty: false,
  sameAsBase: false,
  commits: [],
  changedFiles: appFiles.map((file) => `M ${file}`),
  appFilesChanged: appFiles,
  baselineDir: '/b',
  baselineError: null,
});

describe('sameAppWarning', () => {
  it('warns when app files changed and every compared checkpoint is identical', () => {
    expect(sameAppWarning(context(['public/pricing.html', 'public/styles.css']), { pairs: 3, same: 3, oneSided: 0 })).toBe(
      'visual-uat: warning: 2 app files differ from the base (e.g. public/pricing.html), yet all 3 compared checkpoints are the same as their baselines: if those files show on these pages, the base app was probably the current one (a server that reads the current checkout by a fixed path), or their change is within the comparison\'s tolerance (a colour a few levels off); see README "Your web server", and the threshold option',
    );
  });

  it('reads right for one file and one checkpoint', () => {
    expect(sameAppWarning(context(['public/styles.css']), { pairs: 1, same: 1, oneSided: 0 })).toMatch(
      /^visual-uat: warning: 1 app file differs from the base \(e\.g\. public\/styles\.css\), yet the 1 compared checkpoint is the same as its baseline: /,
    );
  });

  it('stays quiet when anything differs, nothing was compared, or only tests and docs changed', () => {
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 3, same: 2, oneSided: 0 })).toBeNull();
    // Within-tolerance pairs (antialiasing) count as the same: noise must not silence the warning.
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 0, same: 0, oneSided: 0 })).toBeNull();
    expect(sameAppWarning(context([]), { pairs: 3, same: 3, oneSided: 0 })).toBeNull();
    expect(sameAppWarning({ ...context(['public/pricing.html']), sameAsBase: true }, { pairs: 3, same: 3, oneSided: 0 })).toBeNull();
    expect(sameAppWarning(null, { pairs: 3, same: 3, oneSided: 0 })).toBeNull();
    // A checkpoint only one side took (here a conditional one the feature dropped) shows the apps differ.
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 1, same: 1, oneSided: 1 })).toBeNull();
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 1, same: 1, oneSided: 0 })).toMatch(
      /yet the 1 compared checkpoint is the same as its baseline: /,
    );
  });
});
