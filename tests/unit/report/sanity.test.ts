import { describe, expect, it } from 'vitest';
import { changedWithinAllowance, sameAppWarning } from '../../../src/report/sanity';
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
    expect(sameAppWarning(context(['public/pricing.html', 'public/styles.css']), { pairs: 3, same: 3, oneSided: 0, allowed: [] })).toBe(
      'visual-uat: warning: 2 app files differ from the base (e.g. public/pricing.html), yet all 3 compared checkpoints are the same as their baselines: if those files show on these pages, the base app was probably the current one (a server that reads the current checkout by a fixed path), or their change is within the comparison\'s tolerance (a colour a few levels off); see README "Your web server", and the threshold option',
    );
  });

  it('reads right for one file and one checkpoint', () => {
    expect(sameAppWarning(context(['public/styles.css']), { pairs: 1, same: 1, oneSided: 0, allowed: [] })).toMatch(
      /^visual-uat: warning: 1 app file differs from the base \(e\.g\. public\/styles\.css\), yet the 1 compared checkpoint is the same as its baseline: /,
    );
  });

  it("names the pixel allowance, not the base server, when every page changed within a test's maxDiffPixelRatio", () => {
    expect(
      sameAppWarning(context(['src/styles/global.css', 'src/components/Nav.astro']), {
        pairs: 3,
        same: 3,
        oneSided: 0,
        allowed: [0.07, 3.52, 0.02],
      }),
    ).toBe(
      "visual-uat: warning: 2 app files differ from the base (e.g. src/styles/global.css), and all 3 compared checkpoints differ from their baselines (in up to 3.52 % of the pixels), but by no more than their maxDiffPixels or maxDiffPixelRatio allow: unchanged, as toHaveScreenshot would pass them; to see such changes, lower that allowance (the test's toHaveScreenshot options, or expect.toHaveScreenshot in the config)",
    );
  });

  it('names both the base server and the allowance when some pages are identical and others changed within it (noise, or a change it hid)', () => {
    expect(
      sameAppWarning(context(['src/styles/global.css', 'src/components/Nav.astro']), {
        pairs: 16,
        same: 16,
        oneSided: 0,
        allowed: [0.07, 3.52, 0.02],
      }),
    ).toBe(
      'visual-uat: warning: 2 app files differ from the base (e.g. src/styles/global.css), yet all 16 compared checkpoints are the same as their baselines: ' +
        'if those files show on these pages, the base app was probably the current one (a server that reads the current checkout by a fixed path), ' +
        'or their change is within the comparison\'s tolerance (a colour a few levels off); see README "Your web server", and the threshold option; ' +
        '3 of them changed, in up to 3.52 % of the pixels, but by no more than their maxDiffPixels or maxDiffPixelRatio allow: lower that allowance to see such changes',
    );
    expect(sameAppWarning(context(['src/styles/global.css']), { pairs: 1, same: 1, oneSided: 0, allowed: [0.4] })).toMatch(
      /, and the 1 compared checkpoint differs from its baseline \(in up to 0\.4 % of the pixels\), but/,
    );
    expect(sameAppWarning(context(['src/styles/global.css']), { pairs: 2, same: 2, oneSided: 0, allowed: [0, 0] })).toMatch(
      /, and all 2 compared checkpoints differ from their baselines \(in under 0\.01 % of the pixels\), but/,
    );
  });

  it('stays quiet when anything differs, nothing was compared, or only tests and docs changed', () => {
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 3, same: 2, oneSided: 0, allowed: [] })).toBeNull();
    // Within-tolerance pairs (antialiasing) count as the same: noise must not silence the warning.
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 0, same: 0, oneSided: 0, allowed: [] })).toBeNull();
    expect(sameAppWarning(context([]), { pairs: 3, same: 3, oneSided: 0, allowed: [] })).toBeNull();
    expect(
      sameAppWarning({ ...context(['public/pricing.html']), sameAsBase: true }, { pairs: 3, same: 3, oneSided: 0, allowed: [] }),
    ).toBeNull();
    expect(sameAppWarning(null, { pairs: 3, same: 3, oneSided: 0, allowed: [] })).toBeNull();
    // A checkpoint only one side took (here a conditional one the feature dropped) shows the apps differ.
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 1, same: 1, oneSided: 1, allowed: [] })).toBeNull();
    expect(sameAppWarning(context(['public/pricing.html']), { pairs: 1, same: 1, oneSided: 0, allowed: [] })).toMatch(
      /yet the 1 compared checkpoint is the same as its baseline: /,
    );
  });
});

describe('changedWithinAllowance', () => {
  const region = { x: 0, y: 0, width: 4, height: 2 };
  it('holds an unchanged checkpoint whose pixels changed past the colour threshold', () => {
    expect(changedWithinAllowance({ status: 'unchanged', diffMetrics: { pixelDiffPercent: 0.4, changedRegions: [region] } })).toBe(true);
  });
  it('leaves out an identical one, one whose pixels differ within the colour threshold, and a change', () => {
    expect(changedWithinAllowance({ status: 'unchanged', diffMetrics: { pixelDiffPercent: 0, changedRegions: [] } })).toBe(false);
    expect(changedWithinAllowance({ status: 'unchanged', diffMetrics: { pixelDiffPercent: 0.01, changedRegions: [] } })).toBe(false);
    expect(changedWithinAllowance({ status: 'needs_review', diffMetrics: { pixelDiffPercent: 3, changedRegions: [region] } })).toBe(false);
  });
});
