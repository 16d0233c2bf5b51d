import { describe, expect, it } from 'vitest';
import { countryName, countryOptions, isCountryCode } from './countries.ts';

describe('country list', () => {
  it('has about 250 two-letter codes named in each language', () => {
    for (const locale of ['ru', 'en'] as const) {
      const list = countryOptions(locale);
      expect(list.length).toBeGreaterThan(240);
      expect(list.length).toBeLessThan(260);
      expect(list.every((country) => /^[A-Z]{2}$/.test(country.value))).toBe(true);
    }
    const ru = Object.fromEntries(countryOptions('ru').map((country) => [country.value, country.name]));
    const en = Object.fromEntries(countryOptions('en').map((country) => [country.value, country.name]));
    expect(ru.RU).toBe('Россия');
    expect(ru.US).toBe('США');
    expect(en.DE).toBe('Germany');
    for (const code of ['RU', 'US', 'GB', 'DE', 'FR', 'CN', 'UA', 'BY', 'KZ'])
      expect(ru[code] && en[code]).toBeTruthy();
  });

  it('is sorted by name in the locale', () => {
    const names = countryOptions('ru').map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('ru').compare));
  });

  it('knows valid codes only', () => {
    expect(isCountryCode('KZ')).toBe(true);
    expect(isCountryCode('kz')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
  });

  it('names a country in each language, for the mails, and leaves an unknown code as it is', () => {
    expect(countryName('DE', 'ru')).toBe('Германия');
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('US', 'ru')).toBe('США');
    expect(countryName('XX', 'en')).toBe('XX');
  });
});
