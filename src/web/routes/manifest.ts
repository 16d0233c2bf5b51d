import { translator } from '../i18n/messages.ts';
import type { Route } from './+types/manifest';

const THEME_COLOR = '#1d1b3a';
const BACKGROUND_COLOR = '#ffffff';

/** The web app manifest, in the visitor's language. */
export function loader({ context }: Route.LoaderArgs) {
  const t = translator(context.locale);
  const manifest = {
    name: t('site-title'),
    short_name: t('site-title'),
    description: t('site-description'),
    lang: context.locale,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      'content-type': 'application/manifest+json; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      vary: 'Cookie, Accept-Language',
    },
  });
}
