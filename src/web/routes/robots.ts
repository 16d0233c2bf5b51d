import type { Route } from './+types/robots';

/** Personal, transactional and search-result pages stay out of search engines. */
const DISALLOWED = ['/admin', '/api/', '/cart', '/order/', '/profile', '/wishlist', '/search/'];

export function loader({ context }: Route.LoaderArgs) {
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${context.publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
