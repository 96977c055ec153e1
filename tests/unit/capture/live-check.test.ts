import { describe, expect, it } from 'vitest';
import { stableCapture } from '../../../src/capture/settle';
import { retakeDecision, type BaselineLook } from '../../../src/capture/live-check';

const MATCH: BaselineLook = { matches: true, explained: null, difference: '' };
const UNEXPLAINED: BaselineLook = {
  matches: false,
  explained: null,
  difference: '0.4% of pixels in 1 region, which no element added, removed, moved or restyled explains',
};
const EXPLAINED: BaselineLook = {
  matches: false,
  explained: '.promo added (960×120)',
  difference: '6% of pixels in 1 region: .promo added (960×120)',
};

describe('what a capture beside its baseline calls for', () => {
  it('ends on a match, on a difference the layout record explains once the page held still for it, and retakes one nothing explains', () => {
    expect(retakeDecision(MATCH, false)).toBe('matched');
    expect(retakeDecision(EXPLAINED, true)).toBe('change');
    // Content still arriving (a first capture, or one unlike the one before) is let arrive.
    expect(retakeDecision(EXPLAINED, false)).toBe('retake');
    expect(retakeDecision(UNEXPLAINED, true)).toBe('retake');
    expect(retakeDecision(UNEXPLAINED, false)).toBe('retake');
  });
});

/** Captures as a page gives them: each a distinct image until the page reaches `rest`. */
function frames(...images: string[]) {
  let taken = 0;
  const capture = async () => Buffer.from(images[Math.min(taken++, images.length - 1)]);
  return { capture, taken: () => taken };
}

describe('captures compared with their baseline while the page is alive', () => {
  const baseline = Buffer.from('base');

  it('costs one screenshot and no comparison when the first is byte-identical to the baseline', async () => {
    const page = frames('base');
    let looked = 0;
    const settled = await stableCapture(page.capture, 5000, baseline, null, async () => {
      looked++;
      return MATCH;
    });
    expect([page.taken(), looked, settled.captures, settled.sameAsBaseline]).toEqual([1, 0, 1, true]);
  });

  it('captures again while nothing explains the difference, and says how many it took and what differed first', async () => {
    const page = frames('mid-transition', 'at rest');
    const look = async (png: Buffer) => (png.toString() === 'at rest' ? MATCH : UNEXPLAINED);
    const settled = await stableCapture(page.capture, 5000, baseline, null, look);
    expect(settled).toMatchObject({ stable: true, captures: 2, firstDifference: UNEXPLAINED.difference });
    expect(settled.png.toString()).toBe('at rest');
  });

  it('stops on an explained difference as soon as the page held still for it: a real change does not wait out the timeout', async () => {
    const page = frames('with promo');
    let looked = 0;
    const started = Date.now();
    const settled = await stableCapture(page.capture, 5000, baseline, null, async () => {
      looked++;
      return EXPLAINED;
    });
    expect([page.taken(), looked, settled.captures, settled.firstDifference]).toEqual([2, 1, 2, EXPLAINED.difference]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('lets content still arriving arrive: an explained difference on a page that moved is taken again', async () => {
    const page = frames('no quotes yet', 'quotes arrived');
    const look = async (png: Buffer) => (png.toString() === 'quotes arrived' ? MATCH : EXPLAINED);
    const settled = await stableCapture(page.capture, 5000, baseline, null, look);
    expect(settled).toMatchObject({ captures: 2, firstDifference: EXPLAINED.difference });
    expect(settled.png.toString()).toBe('quotes arrived');
  });

  it('retakes a still page that differs unexplained until the timeout, without comparing the same image twice', async () => {
    const page = frames('offset by 3 px');
    let looked = 0;
    const settled = await stableCapture(page.capture, 400, baseline, null, async () => {
      looked++;
      return UNEXPLAINED;
    });
    expect(looked).toBe(1);
    expect(page.taken()).toBeGreaterThan(2);
    expect(settled).toMatchObject({ stable: true, firstDifference: UNEXPLAINED.difference });
  });

  it('settles on two alike, as without a check, when the baseline cannot be compared', async () => {
    const page = frames('current');
    const settled = await stableCapture(page.capture, 5000, baseline, null, async () => ({
      matches: false,
      explained: 'the baseline could not be compared',
      difference: 'the baseline could not be compared',
    }));
    expect([page.taken(), settled.stable]).toEqual([2, true]);
  });
});
