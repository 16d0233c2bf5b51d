import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LOCALE } from '../../contract/locale.ts';
import { translator } from '../i18n/messages.ts';
import type { loader as rootLoader } from '../root.tsx';

export { OVERLAY_COOKIE } from '../../contract/cookies.ts';

export type RootData = Awaited<ReturnType<typeof rootLoader>>;

/** Data every page shares (locale, rate, sections), loaded once by the root route. */
export function useShop() {
  const data = useRouteLoaderData<typeof rootLoader>('root');
  const locale = data?.locale ?? DEFAULT_LOCALE;
  return { data, locale, t: translator(locale), usdRate: data?.currencyUsd ?? 0 };
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
