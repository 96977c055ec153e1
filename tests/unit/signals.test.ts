import { describe, expect, it } from 'vitest';
import { displayUrl } from '../../src/capture/signals';
import { compareSignals, hasNewSignals, normaliseMessage, NO_DIFF, NO_SIGNALS, unifiedDiff } from '../../src/compare';
import { failingCheckpoints, type CheckpointVerdict } from '../../src/report/decide';
import type { CapturedSignals } from '../../src/types';

const ARIA = ['- banner: Shop', '- main:', '  - heading "Products" [level=1]', '  - heading "Mug" [level=2]', '  - paragraph: 12 EUR'].join('\n');

describe('unifiedDiff', () => {
  it('is null for the same text', () => {
    expect(unifiedDiff(ARIA, ARIA)).toBeNull();
  });

  it('shows an insertion with three lines of context, numbered as diff -u does', () => {
    const current = ARIA.replace('[level=1]', '[level=1]\n  - paragraph: Free shipping');
    expect(unifiedDiff(ARIA, current)).toBe(
      ['@@ -1,5 +1,6 @@', ' - banner: Shop', ' - main:', '   - heading "Products" [level=1]', '+  - paragraph: Free shipping', '   - heading "Mug" [level=2]', '   - paragraph: 12 EUR'].join('\n'),
    );
  });

  it('shows a changed line as removed then added, and far-apart changes as separate hunks', () => {
    const base = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const current = base.replace('line 2\n', 'line two\n').replace('line 17', 'line seventeen');
    expect(unifiedDiff(base, current)).toBe(
      [
        '@@ -1,6 +1,6 @@',
        ' line 0',
        ' line 1',
        '-line 2',
        '+line two',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -15,6 +15,6 @@',
        ' line 14',
        ' line 15',
        ' line 16',
        '-line 17',
        '+line seventeen',
        ' line 18',
        ' line 19',
      ].join('\n'),
    );
  });

  it('numbers an empty range by the line before it', () => {
    expect(unifiedDiff('a', 'a\nb')).toBe(['@@ -1 +1,2 @@', ' a', '+b'].join('\n'));
    expect(unifiedDiff('', 'x')).toBe(['@@ -1 +1 @@', '-', '+x'].join('\n'));
  });
});

describe('normaliseMessage', () => {
  it('folds numbers, hashes and whitespace that differ between two runs of the same code', () => {
    expect(normaliseMessage('tracker blocked (session 536560)')).toBe(normaliseMessage('tracker  blocked (session 12)'));
    expect(normaliseMessage('chunk 3fa9c0d2e1 failed at app.js:12:5')).toBe('chunk # failed at app.js:#:#');
    expect(normaliseMessage('checkout failed')).not.toBe(normaliseMessage('payment failed'));
  });
});

describe('displayUrl', () => {
  it('makes same-origin URLs paths, drops query values, credentials and fragments', () => {
    expect(displayUrl('http://127.0.0.1:4100/api/x?token=s3cr3t&id=4#top', 'http://127.0.0.1:4100')).toBe('/api/x?token=…&id=…');
    expect(displayUrl('https://user:pw@cdn.example.com/lib.js', 'http://127.0.0.1:4100')).toBe('https://cdn.example.com/lib.js');
    expect(displayUrl('data:text/plain,hi', null)).toBeNull();
  });
});

function signals(extra: Partial<CapturedSignals> = {}): CapturedSignals {
  return { aria: ARIA, consoleErrors: [], failedRequests: [], a11y: [], ...extra };
}

describe('compareSignals', () => {
  it('reports what only current has, each once, and ignores what both sides share', () => {
    const base = signals({ consoleErrors: ['console.error: tracker blocked (session 1)'], failedRequests: ['GET /pixel.gif → 404'] });
    const current = signals({
      consoleErrors: ['console.error: tracker blocked (session 2)', 'console.error: widget failed', 'console.error: widget failed'],
      failedRequests: ['GET /pixel.gif → 404', 'GET /api/x?token=… → 404', 'GET /api/x?token=… → 404'],
    });
    expect(compareSignals(base, current)).toEqual({
      ariaDiff: null,
      newConsoleErrors: ['console.error: widget failed'],
      newFailedRequests: ['GET /api/x?token=… → 404'],
      newA11yViolations: [],
    });
  });

  it('calls a request that fails differently new', () => {
    const result = compareSignals(signals({ failedRequests: ['GET /api → 404'] }), signals({ failedRequests: ['GET /api → 500'] }));
    expect(result.newFailedRequests).toEqual(['GET /api → 500']);
  });

  it('matches a11y violations by rule and target', () => {
    const base = signals({ a11y: [{ id: 'image-alt', impact: 'critical', targets: ['header > img'] }] });
    const current = signals({
      a11y: [
        { id: 'image-alt', impact: 'critical', targets: ['header > img', 'main > img'] },
        { id: 'color-contrast', impact: 'serious', targets: ['header > img'] },
      ],
    });
    expect(compareSignals(base, current).newA11yViolations).toEqual([
      { id: 'image-alt', impact: 'critical', targets: ['main > img'] },
      { id: 'color-contrast', impact: 'serious', targets: ['header > img'] },
    ]);
  });

  it('compares nothing it cannot: a side without signals, or a11y not checked on one side', () => {
    const noisy = signals({ consoleErrors: ['console.error: boom'], a11y: [{ id: 'image-alt', impact: 'critical', targets: ['img'] }] });
    expect(compareSignals(null, noisy)).toEqual(NO_SIGNALS);
    expect(compareSignals(signals({ a11y: null }), noisy).newA11yViolations).toEqual([]);
    expect(compareSignals(signals({ aria: null }), signals({ aria: 'x' })).ariaDiff).toBeNull();
  });
});

describe('failingCheckpoints', () => {
  const verdict = (status: CheckpointVerdict['status'], newConsoleErrors: string[] = []): CheckpointVerdict => ({
    name: status,
    status,
    baselineImage: null,
    currentImage: null,
    diffImage: null,
    diffMetrics: NO_DIFF,
    evaluation: null,
    reason: '',
    signals: { ...NO_SIGNALS, newConsoleErrors },
    stable: true,
  });

  it("fails on a status in failOn, and with 'signals' on any new signal, even on an unchanged checkpoint", () => {
    const quiet = verdict('unchanged');
    const noisy = verdict('unchanged', ['console.error: boom']);
    const regression = verdict('regression');
    expect(hasNewSignals(noisy.signals)).toBe(true);
    expect(failingCheckpoints([quiet, noisy, regression], ['regression'])).toEqual([regression]);
    expect(failingCheckpoints([quiet, noisy, regression], ['regression', 'signals'])).toEqual([noisy, regression]);
  });
});
