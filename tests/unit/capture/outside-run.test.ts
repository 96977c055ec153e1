import { describe, expect, it } from 'vitest';
import { outsideRunError } from '../../../src/capture/target';

describe('a checkpoint outside a visual-uat run', () => {
  it('fails with one line naming the checkpoint, the config file and the fix', () => {
    expect(outsideRunError('hero', '/repo/web/playwright.config.mts', {})).toBe(
      'visual-uat: checkpoint "hero" ran without withVisualUat, so nothing compared it: wrap the export of playwright.config.mts in withVisualUat (npx visual-uat init does it)',
    );
  });

  it('names the usual config file when the run has none', () => {
    expect(outsideRunError('hero', undefined, {})).toContain('wrap the export of playwright.config.ts in withVisualUat');
  });

  it("passes inside a run: the global setup's run context (withVisualUat or visual-uat/global-setup by hand), or the baseline pass", () => {
    expect(
      outsideRunError('hero', '/repo/playwright.config.ts', { VISUAL_UAT_CONTEXT_FILE: '/repo/test-results/run-context.json' }),
    ).toBeNull();
    expect(outsideRunError('hero', '/repo/playwright.config.ts', { VISUAL_UAT_ROLE: 'baseline' })).toBeNull();
  });
});
