export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_COOKIE = 'locale';

/** The `Set-Cookie` value that stores a language for a year. */
export const localeCookie = (locale: Locale) =>
  `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax`;

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/**
 * The query parameter that fixes a page's language in its address (`/about?lang=en`, ADR 0034):
 * each language's page has an address of its own for search engines, while the address without it
 * keeps showing the visitor's stored or negotiated language.
 */
export const LANG_PARAMETER = 'lang';

/** The language an address asks for with `?lang=`, if it names one of ours. */
export function localeOfSearch(search: string): Locale | undefined {
  const value = new URLSearchParams(search).get(LANG_PARAMETER);
  return isLocale(value) ? value : undefined;
}

/**
 * A shop path (`/category/mugs?page=2`) with its language fixed to `locale`, or with no language
 * (`null`: the visitor's own, the `x-default` page).
 */
export function localizedPath(path: string, locale: Locale | null): string {
  const hashStart = path.indexOf('#');
  const hash = hashStart === -1 ? '' : path.slice(hashStart);
  const address = hashStart === -1 ? path : path.slice(0, hashStart);
  const queryStart = address.indexOf('?');
  const pathname = queryStart === -1 ? address : address.slice(0, queryStart);
  const query = new URLSearchParams(queryStart === -1 ? '' : address.slice(queryStart + 1));
  query.delete(LANG_PARAMETER);
  if (locale !== null) query.set(LANG_PARAMETER, locale);
  const search = query.toString();
  return `${pathname}${search === '' ? '' : `?${search}`}${hash}`;
}

/**
 * The query parameter of a preview (`/payment?lang=en&preview=1`): the page shows in the language of
 * its address without storing it as the visitor's choice, so a back-office preview of the English
 * page leaves the staff member's back office in their own language.
 */
export const PREVIEW_PARAMETER = 'preview';

/** A shop path in `locale` for a preview, which does not change the visitor's stored language. */
export const previewPath = (path: string, locale: Locale): string => {
  const localized = localizedPath(path, locale);
  const hashStart = localized.indexOf('#');
  const address = hashStart === -1 ? localized : localized.slice(0, hashStart);
  const hash = hashStart === -1 ? '' : localized.slice(hashStart);
  return `${address}${address.includes('?') ? '&' : '?'}${PREVIEW_PARAMETER}=1${hash}`;
};

/** Whether an address is a preview (`?preview=1`). */
export const isPreviewSearch = (search: string): boolean =>
  new URLSearchParams(search).get(PREVIEW_PARAMETER) === '1';

/**
 * The language the address fixes (`?lang=`), else the stored choice (the `locale` cookie), else the
 * first supported language of Accept-Language, else English.
 */
export function negotiateLocale(
  cookieValue: string | undefined,
  acceptLanguage: string | undefined,
  addressLocale?: Locale,
): Locale {
  if (addressLocale) return addressLocale;
  if (isLocale(cookieValue)) return cookieValue;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const quality = parameters.find((parameter) => parameter.trim().startsWith('q='));
      return {
        language: tag.trim().toLowerCase().split('-')[0],
        quality: quality ? Number(quality.trim().slice(2)) : 1,
        index,
      };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isLocale) ?? DEFAULT_LOCALE;
}
