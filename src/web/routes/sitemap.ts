import type { Route } from './+types/sitemap';

/** The sitemap for search engines, an index of parts for a large catalogue (catalog/sitemap.ts). */
export async function loader({ context, url }: Route.LoaderArgs) {
  const xml = await context.services.sitemap.file(url.searchParams.get('part'));
  if (xml === null) {
    return new Response('No such sitemap part.\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(xml, {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
