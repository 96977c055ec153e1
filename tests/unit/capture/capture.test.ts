import { describe, expect, it } from 'vitest';
import { validateCheckpointName } from '../../../src/capture/names';
import sharp from 'sharp';
import { unsettledArea } from '../../../src/capture/unsettled';
import { elementTimeoutMessage } from '../../../src/capture/element';

describe('validateCheckpointName', () => {
  it('accepts ordinary and Unicode names', () => {
    expect(validateCheckpointName('plans')).toBe('plans');
    expect(validateCheckpointName('Größe – Übersicht')).toBe('Größe – Übersicht');
  });

  it.each([
    ['', /is empty/],
    ['   ', /is empty/],
    ['a/b', /path separator/],
    ['a\\b', /path separator/],
    ['..', /path separator/],
    ['x..y', /path separator/],
    ['nul\0', /NUL/],
    ['x'.repeat(101), /101 characters: use at most 100/],
    ['what?', /not allowed in file names/],
  ])('refuses %j', (name, message) => {
    expect(() => validateCheckpointName(name)).toThrow(message);
  });
});

describe('unsettledArea', () => {
  const image = (colour: { r: number; g: number; b: number }, height = 40) =>
    sharp({ create: { width: 50, height, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 1 } } })
      .composite([{ input: { create: { width: 5, height: 6, channels: 4, background: { ...colour, alpha: 1 } } }, left: 10, top: 12 }])
      .png()
      .toBuffer();

  it('boxes the pixels that differ between the last two captures, or the whole image when its size changed', async () => {
    const [black, red, taller] = await Promise.all([
      image({ r: 0, g: 0, b: 0 }),
      image({ r: 255, g: 0, b: 0 }),
      image({ r: 0, g: 0, b: 0 }, 44),
    ]);
    expect(await unsettledArea(black, red)).toEqual({ x: 10, y: 12, width: 5, height: 6 });
    expect(await unsettledArea(black, taller)).toEqual({ x: 0, y: 0, width: 50, height: 44 });
  });
});

describe('elementTimeoutMessage', () => {
  const subject = `checkpoint "hero": locator('#hero')`;

  it('names the checkpoint and the locator that matched nothing, in one line', () => {
    expect(elementTimeoutMessage('hero', "locator('#hero')", 2000, 'attached', null)).toBe(
      `${subject} matched no element within 2000 ms: check the selector, or wait for the element before the checkpoint`,
    );
  });

  it.each([
    [{ width: 0, height: 0, visibility: 'visible' }, 'it measures 0×0: hidden or empty'],
    [{ width: 1024, height: 0, visibility: 'visible' }, 'it measures 1024×0: hidden or empty'],
    [{ width: 120.4, height: 39.6, visibility: 'hidden' }, 'it measures 120×40, visibility: hidden'],
    [{ width: 120, height: 40, visibility: 'visible' }, 'it measures 120×40 now'],
    [null, 'it matches no element now'],
  ])('says what the element that never showed measures: %j', (measure, now) => {
    const message = elementTimeoutMessage('hero', "locator('#hero')", 2000, 'visible', measure);
    expect(message).toBe(
      `${subject} matched no visible element within 2000 ms (${now}): wait for it to be visible before the checkpoint, or check the selector`,
    );
    expect(message).not.toContain('\n');
  });
});
