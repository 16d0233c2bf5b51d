import { describe, expect, it } from 'vitest';
import { translator } from '../i18n/messages.ts';
import { reviewCount } from './reviews.tsx';

describe('review counts', () => {
  it('use the plural forms of each language', () => {
    const en = translator('en');
    const ru = translator('ru');
    expect(reviewCount(en, 'en', 1)).toBe('1 review');
    expect(reviewCount(en, 'en', 2)).toBe('2 reviews');
    expect(reviewCount(ru, 'ru', 1)).toBe('1 отзыв');
    expect(reviewCount(ru, 'ru', 3)).toBe('3 отзыва');
    expect(reviewCount(ru, 'ru', 5)).toBe('5 отзывов');
    expect(reviewCount(ru, 'ru', 21)).toBe('21 отзыв');
  });
});
