import { describe, expect, it } from 'vitest';
import { appliedProperties, utilityProperties } from '../../../src/git/utility-classes';

describe('Tailwind utility classes', () => {
  it('reads the property a utility sets, through its variants, sign and arbitrary value', () => {
    const read = (names: string[]) => Object.fromEntries(names.map((name) => [name, utilityProperties(name)]));
    expect(
      read(['px-8', 'md:-mt-4', 'w-[75px]', 'max-w-7xl', 'lg:text-center', 'text-3xl', 'text-forth', 'font-black', 'shadow-md', 'hidden']),
    ).toEqual({
      'px-8': ['padding'],
      'md:-mt-4': ['margin'],
      'w-[75px]': ['width'],
      'max-w-7xl': ['max-width'],
      'lg:text-center': ['text-align'],
      'text-3xl': ['font-size', 'line-height'],
      'text-forth': ['color'],
      'font-black': ['font-weight'],
      'shadow-md': ['box-shadow'],
      hidden: ['display'],
    });
    expect(read(['[&>svg]:size-4', 'hover:bg-smoke-300', 'bg-cover', 'rounded-3xl', 'border', 'border-main'])).toEqual({
      '[&>svg]:size-4': ['width', 'height'],
      'hover:bg-smoke-300': ['background-color'],
      'bg-cover': null,
      'rounded-3xl': ['border-radius'],
      border: ['border-width'],
      'border-main': ['border-color'],
    });
    // A project's own classes are no utilities: their rules say what they set.
    expect(['main-container', 'special-card__right', 'fade-in', 'top-0', 'flex-1'].map(utilityProperties)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('says what an @apply sets only when every class is a utility', () => {
    expect(appliedProperties(['max-w-md', 'lg:max-w-7xl', 'mx-auto'])).toEqual(['max-width', 'margin']);
    expect(appliedProperties(['btn', 'px-4'])).toBeNull();
  });
});
