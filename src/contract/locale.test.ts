import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './locale.ts';

describe('negotiateLocale', () => {
  it('prefers the stored choice', () => {
    expect(negotiateLocale('ru', 'en-US,en;q=0.9')).toBe('ru');
    expect(negotiateLocale('en', 'ru-RU')).toBe('en');
  });

  it("falls back to the browser's languages by quality", () => {
    expect(negotiateLocale(undefined, 'ru-RU,ru;q=0.9,en;q=0.8')).toBe('ru');
    expect(negotiateLocale(undefined, 'de-DE,en;q=0.5,ru;q=0.7')).toBe('ru');
    expect(negotiateLocale('xx', 'fr, en;q=0.1')).toBe('en');
  });

  it('ends with English', () => {
    expect(negotiateLocale(undefined, undefined)).toBe('en');
    expect(negotiateLocale(undefined, 'de, fr')).toBe('en');
    expect(negotiateLocale(undefined, 'ru;q=0')).toBe('en');
  });
});
