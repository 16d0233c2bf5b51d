import countries from 'i18n-iso-countries';
import enNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import ruNames from 'i18n-iso-countries/langs/ru.json' with { type: 'json' };
import type { Locale } from './locale.ts';

countries.registerLocale(enNames);
countries.registerLocale(ruNames);

export interface CountryOption {
  /** ISO 3166-1 alpha-2 code, two uppercase letters. */
  value: string;
  name: string;
}

/** About 250 countries from the maintained ISO list, named in the locale and sorted by name. */
export function countryOptions(locale: Locale): CountryOption[] {
  const names = countries.getNames(locale, { select: 'alias' });
  const collator = new Intl.Collator(locale);
  return Object.entries(names)
    .map(([value, name]) => ({ value, name }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

export const isCountryCode = (value: string): boolean => /^[A-Z]{2}$/.test(value) && countries.isValid(value);

/** A country's name in the locale ("Германия", "Germany"); the code itself when it is no country. */
export const countryName = (code: string, locale: Locale): string =>
  countries.getName(code, locale, { select: 'alias' }) ?? code;
