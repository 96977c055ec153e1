import { describe, expect, it } from 'vitest';
import { displayUrl, withoutMaskedTexts } from '../../../src/capture/signals';
import {
  compareSignals,
  hasNewSignals,
  normaliseMessage,
  NO_DIFF,
  NO_SIGNALS,
  requestKey,
  testBaseSignals,
  unifiedDiff,
} from '../../../src/compare';
import { failingCheckpoints, type CheckpointOutcome } from '../../../src/report/decide';
import type { CapturedSignals } from '../../../src/types';

const ARIA = ['- banner: Shop', '- main:', '  - heading "Products" [level=1]', '  - heading "Mug" [level=2]', '  - paragraph: 12 EUR'].join(
  '\n',
);

describe('unifiedDiff', () => {
  it('is null for the same text', () => {
    expect(unifiedDiff(ARIA, ARIA)).toBeNull();
  });

  it('shows an insertion with three lines of context, numbered as diff -u does', () => {
    const current = ARIA.replace('[level=1]', '[level=1]\n  - paragraph: Free shipping');
    expect(unifiedDiff(ARIA, current)).toBe(
      [
        '@@ -1,5 +1,6 @@',
        ' - banner: Shop',
        ' - main:',
        '   - heading "Products" [level=1]',
        '+  - paragraph: Free shipping',
        '   - heading "Mug" [level=2]',
        '   - paragraph: 12 EUR',
      ].join('\n'),
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
    expect(normaliseMessage('chunk 3fa9c0d2e1 failed at app.js:12:5')).toBe('chunk # failed at app.js');
    expect(normaliseMessage('checkout failed')).not.toBe(normaliseMessage('payment failed'));
  });

  // As Chromium prints an Error logged by code that a Vite dev server pre-bundled, on two servers.
  const vite = (port: number, chunk: string, v: string, t: string, line: number) => `console.error: Error: Diagram could not render
    at render (http://localhost:${port}/node_modules/.vite/deps/flowDiagram-${chunk}.js?v=${v}:${line}:11)
    at async http://localhost:${port}/src/lib/Editor.svelte?t=${t}:88:5`;

  it('matches the same error from two Vite dev servers: ports, chunk hashes, ?v= and ?t=, positions', () => {
    expect(normaliseMessage(vite(39819, 'NV44I4VS-RGVDGMGZ', '18c5c219', '1763380000000', 1204))).toBe(
      normaliseMessage(vite(3000, 'NV44I4VS-F3MADAZT', '3b91db73', '1763399999999', 1187)),
    );
    expect(normaliseMessage(vite(3000, 'NV44I4VS-F3MADAZT', '3b91db73', '1', 1))).toBe(
      'console.error: Error: Diagram could not render at render (/node_modules/.vite/deps/flowDiagram-#-#.js) at async /src/lib/Editor.svelte',
    );
  });

  it('matches webpack, Next and esbuild bundle names across builds, and keeps the words of a name', () => {
    const pairs = [
      [
        'at Module.render (http://localhost:8080/static/js/main.3f2a1b4c.js:2:1043)',
        'at Module.render (http://localhost:41873/static/js/main.9e0d7c6b.js:2:1051)',
      ],
      [
        'at t (http://127.0.0.1:3000/_next/static/chunks/pages/_app-0a1b2c3d4e5f6a7b.js:1:200)',
        'at t (http://127.0.0.1:40001/_next/static/chunks/pages/_app-7f6e5d4c3b2a1908.js:1:230)',
      ],
      [
        'GET http://127.0.0.1:3000/_next/static/Hx7kq2pL9sX_aB1cD2eF3/_buildManifest.js',
        'GET http://127.0.0.1:40001/_next/static/Zq8rT1mN4bV_cX2dE3fG4/_buildManifest.js',
      ],
      ['at http://localhost:5173/assets/chunk-KZ3XQ2VB.js:1:88', 'at http://localhost:5173/assets/chunk-P4LMN7RT.js:1:90'],
      ['at webpack-internal:///./src/App.js:10:11', 'at webpack-internal:///./src/App.js:12:3'],
    ];
    for (const [base, current] of pairs) expect(normaliseMessage(base), base).toBe(normaliseMessage(current));
    expect(normaliseMessage('at vendors-node_modules_react-dom_index_js.js:1:1')).toBe('at vendors-node_modules_react-dom_index_js.js');
    expect(normaliseMessage('chart failed in /assets/Chart.js')).not.toBe(normaliseMessage('chart failed in /assets/Table.js'));
  });
});

describe('requestKey', () => {
  it('matches a request by method, path and outcome, whatever its origin and query', () => {
    expect(requestKey('GET /api/feed?since=… → net::ERR_INTERNET_DISCONNECTED')).toBe('GET /api/feed → net::ERR_INTERNET_DISCONNECTED');
    expect(requestKey('GET http://127.0.0.1:41002/api/feed → 404')).toBe(requestKey('GET http://127.0.0.1:4000/api/feed → 404'));
    expect(requestKey('GET /api/feed → 404')).not.toBe(requestKey('GET /api/feed → 500'));
    expect(requestKey('POST /api/feed → 404')).not.toBe(requestKey('GET /api/feed → 404'));
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
  return { origin: null, aria: ARIA, consoleErrors: [], failedRequests: [], a11y: [], interaction: null, ...extra };
}

describe('withoutMaskedTexts', () => {
  it('blanks a masked live feed whose items the snapshot joins on one line, however many items it holds at the time', () => {
    const feed = (from: number, count: number) => Array.from({ length: count }, (_, i) => `Order #${from + i} · ${(from + i) % 90} €`);
    const snapshot = (items: string[]) =>
      ['- heading "Orders" [level=1]', `- text: "${items.join(' ')}"`, '- paragraph: Free returns.'].join('\n');
    // innerText, read before and after the snapshot: one item a line, the feed moved on meanwhile.
    const [before, during, after] = [feed(2005, 5), feed(2007, 6), feed(2008, 7)];
    const blanked = withoutMaskedTexts(snapshot(during), [before.join('\n'), ...before, after.join('\n'), ...after]);
    expect(blanked).toBe(['- heading "Orders" [level=1]', '- text: "…"', '- paragraph: Free returns.'].join('\n'));
    const read = (items: string[]) => [items.join('\n'), ...items];
    expect(withoutMaskedTexts(snapshot(feed(2008, 7)), read(feed(2008, 7)))).toBe(
      withoutMaskedTexts(snapshot(feed(2011, 5)), read(feed(2011, 5))),
    );
  });
});

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

  it("maps the base page's origin onto the current one in the ARIA snapshots, whatever local name it goes by", () => {
    const aria = (origin: string) =>
      `- link "Home":\n  - /url: ${origin}/\n- link "Docs":\n  - /url: http://localhost:${new URL(origin).port}/docs`;
    const base = signals({ origin: 'http://127.0.0.1:39819', aria: aria('http://127.0.0.1:39819') });
    const current = signals({ origin: 'http://127.0.0.1:3000', aria: aria('http://127.0.0.1:3000') });
    expect(compareSignals(base, current).ariaDiff).toBeNull();
    const moved = signals({ origin: 'http://127.0.0.1:3000', aria: aria('http://127.0.0.1:3000').replace('/docs', '/guide') });
    expect(compareSignals(base, moved).ariaDiff).toContain('+  - /url: http://localhost:3000/guide');
  });

  it('knows a console error or failed request that another checkpoint of the test saw on the base', () => {
    const first = signals({ failedRequests: ['GET /api/heartbeat → 404'], consoleErrors: ['console.error: offline'] });
    const second = signals({});
    const current = signals({
      failedRequests: ['GET /api/heartbeat → 404', 'GET /api/new → 404'],
      consoleErrors: ['console.error: offline'],
    });
    const result = compareSignals(second, current, testBaseSignals([first, second, null]));
    expect(result.newFailedRequests).toEqual(['GET /api/new → 404']);
    expect(result.newConsoleErrors).toEqual([]);
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
  const checkpoint = (status: CheckpointOutcome['status'], newConsoleErrors: string[] = []): CheckpointOutcome => ({
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
    groups: [],
    groupParts: [],
    change: null,
    intent: null,
    explanation: null,
  });

  it("fails on a status in failOn, and with 'signals' on any new signal, even on an unchanged checkpoint", () => {
    const quiet = checkpoint('unchanged');
    const noisy = checkpoint('unchanged', ['console.error: boom']);
    const regression = checkpoint('regression');
    expect(hasNewSignals(noisy.signals)).toBe(true);
    expect(failingCheckpoints([quiet, noisy, regression], ['regression'])).toEqual([regression]);
    expect(failingCheckpoints([quiet, noisy, regression], ['regression', 'signals'])).toEqual([noisy, regression]);
  });
});
