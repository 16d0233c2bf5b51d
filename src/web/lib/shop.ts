import { use } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE } from '../../contract/locale.ts';
import { loadedTexts, loadTexts } from '../i18n/texts.ts';
import type { loader as rootLoader } from '../root.tsx';

export { OVERLAY_COOKIE } from '../../contract/cookies.ts';

export type RootData = Awaited<ReturnType<typeof rootLoader>>;

/**
 * Data every page shares (locale, rate, sections), loaded once by the root route, and the texts of
 * its language. The page's own language is there before hydration; after a change of language
 * the render waits for the other's texts (a router update is a transition: the page on screen
 * stays until they are here).
 */
export function useShop() {
  const data = useRouteLoaderData<typeof rootLoader>('root');
  const locale = data?.locale ?? DEFAULT_LOCALE;
  const t = loadedTexts(locale) ?? use(loadTexts(locale));
  return { data, locale, t, usdRate: data?.currencyUsd ?? 0 };
}

/** Reads one cookie from a Fetch request. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}
