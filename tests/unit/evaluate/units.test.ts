import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../src/evaluate';
import { planView, viewNote } from '../../../src/evaluate/images';
import { extractJsonObject, parseVerdict } from '../../../src/evaluate/parse';
import { costOf, DEFAULT_PRICES, priceFor } from '../../../src/evaluate/prices';

describe('statusOf', () => {
  const t = { approveAt: 0.8, rejectAt: 0.7 };
  const e = (pass: boolean, confidence: number, needsReview = false) => ({ pass, confidence, needsReview, reason: 'r' });
  it('maps the thresholds at their edges', () => {
    expect(statusOf(e(true, 0.8), t)).toBe('changed');
    expect(statusOf(e(true, 0.79), t)).toBe('needs_review');
    expect(statusOf(e(false, 0.7), t)).toBe('regression');
    expect(statusOf(e(false, 0.69), t)).toBe('needs_review');
  });
  it('sends anything that asks for a person to review', () => {
    expect(statusOf(e(true, 1, true), t)).toBe('needs_review');
    expect(statusOf(e(false, 1, true), t)).toBe('needs_review');
  });
});

describe('parseVerdict', () => {
  it('takes the first balanced object out of prose and fences', () => {
    expect(extractJsonObject('x ```json\n{"a": "}{", "b": {"c": 1}}\n``` y {"d": 2}')).toBe('{"a": "}{", "b": {"c": 1}}');
    expect(extractJsonObject('{"open": ')).toBeNull();
  });
  it('names every schema problem', () => {
    const parsed = parseVerdict('{"pass": 1, "confidence": -0.1, "needsReview": false}');
    expect(parsed).toEqual({
      ok: false,
      error:
        'the JSON does not match the schema: "pass" must be true or false; "confidence" must be a number from 0 to 1; "reason" must be a non-empty string',
    });
  });
  it('reports empty and invalid replies', () => {
    expect(parseVerdict('')).toEqual({ ok: false, error: 'the reply was empty' });
    expect(parseVerdict('{pass: true}')).toMatchObject({ ok: false, error: expect.stringMatching(/^the reply is not valid JSON/) });
  });
  it('ignores extra fields', () => {
    expect(parseVerdict('{"pass": true, "confidence": 1, "needsReview": false, "reason": " ok ", "extra": 1}')).toEqual({
      ok: true,
      evaluation: { pass: true, confidence: 1, needsReview: false, reason: 'ok' },
    });
  });
});

describe('prices', () => {
  it('finds dated snapshots and router-prefixed names by their longest listed prefix', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceFor('openai/gpt-4o', DEFAULT_PRICES)).toBe(DEFAULT_PRICES['gpt-4o']);
    expect(priceFor('llava', DEFAULT_PRICES)).toBeNull();
  });
  it('charges cached input at the cached rate, or the input rate when none is given', () => {
    const tokens = { inputTokens: 1_000_000, cachedInputTokens: 250_000, outputTokens: 1_000_000 };
    expect(costOf(tokens, { input: 2, cachedInput: 1, output: 10 })).toBeCloseTo(1.5 + 0.25 + 10);
    expect(costOf(tokens, { input: 2, output: 10 })).toBeCloseTo(2 + 10);
  });
});

describe('planView', () => {
  const size = (width: number, height: number) => ({ width, height });
  it('cuts even a viewport-sized capture to the rows around its changes', () => {
    const plan = planView(size(1280, 720), size(1280, 720), [{ x: 0, y: 600, width: 10, height: 10 }]);
    expect(plan.bands).toEqual([{ y0: 440, y1: 720 }]);
    expect(plan.maxScale).toBe(0.8);
    expect(viewNote(plan, 0.8)).toBe('The capture is 1280×720 px; the images show only rows 440–720 around the changes, scaled to 80%.');
  });
  it('merges nearby changes into one band', () => {
    const plan = planView(size(1000, 5000), size(1000, 5000), [
      { x: 0, y: 1000, width: 10, height: 10 },
      { x: 0, y: 1400, width: 10, height: 10 },
      { x: 0, y: 4000, width: 10, height: 10 },
    ]);
    expect(plan.bands).toEqual([
      { y0: 840, y1: 1570 },
      { y0: 3840, y1: 4170 },
    ]);
    expect(viewNote(plan, 1)).toBe(
      'The capture is 1000×5000 px; the images show only rows 840–1570, 3840–4170 around the changes, stacked top to bottom and separated by a magenta line.',
    );
  });
  it('stops at the height budget when changes are everywhere', () => {
    const regions = Array.from({ length: 20 }, (_, i) => ({ x: 0, y: i * 600, width: 1280, height: 100 }));
    const plan = planView(size(1280, 12_000), size(1280, 12_000), regions);
    const gap = Math.round(8 * plan.maxScale);
    const scaledHeight = plan.bands.reduce((sum, b) => sum + Math.round((b.y1 - b.y0) * plan.maxScale), 0) + gap * (plan.bands.length - 1);
    expect(scaledHeight).toBeLessThanOrEqual(2048);
    expect(plan.bands.length).toBeLessThan(20);
    expect(plan.shown).toContain(`(the first ${plan.bands.length} of 20 changed areas; the others are not shown)`);
  });
});
