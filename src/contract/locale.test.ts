import { describe, expect, it } from 'vitest';
import { localeOfSearch, localizedPath, negotiateLocale } from './locale.ts';

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

describe('a language fixed in the address (?lang=)', () => {
  it('wins over the stored choice and the browser; an unknown one is ignored', () => {
    expect(negotiateLocale('ru', 'ru-RU', localeOfSearch('?lang=en'))).toBe('en');
    expect(negotiateLocale('en', 'en-US', localeOfSearch('?page=2&lang=ru'))).toBe('ru');
    expect(negotiateLocale('ru', 'en-US', localeOfSearch('?lang=de'))).toBe('ru');
    expect(localeOfSearch('')).toBeUndefined();
  });

  it("sets, replaces or removes a path's language, keeping its query and anchor", () => {
    expect(localizedPath('/about', 'en')).toBe('/about?lang=en');
    expect(localizedPath('/category/mugs?page=2', 'ru')).toBe('/category/mugs?page=2&lang=ru');
    expect(localizedPath('/about?lang=en#wishlist', 'ru')).toBe('/about?lang=ru#wishlist');
    expect(localizedPath('/about?lang=en#wishlist', null)).toBe('/about#wishlist');
    expect(localizedPath('/search/a%20b?lang=ru&page=3', null)).toBe('/search/a%20b?page=3');
  });
});
