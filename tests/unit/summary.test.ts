import { describe, expect, it } from 'vitest';
import { fitTail } from '../../src/report/summary';

describe('fitTail', () => {
  it('keeps a title that fits, padded to the column', () => {
    expect(fitTail('home › landing', 20)).toBe('home › landing      ');
  });

  it('drops whole leading parts before cutting into one', () => {
    expect(fitTail('site.spec.ts › site › pricing › plans › plans', 38).trimEnd()).toBe('… › site › pricing › plans › plans');
    expect(fitTail('site.spec.ts › site › pricing › plans › plans', 24).trimEnd()).toBe('… › plans › plans');
  });

  it('cuts the start of a single part that is too long on its own', () => {
    expect(fitTail('a-very-long-checkpoint-name', 10)).toBe('…oint-name');
  });
});
