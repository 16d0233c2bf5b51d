import type { Route } from './+types/sitemap';

/** Info pages listed for search engines besides the catalogue. */
const STATIC_PAGES = ['/shipping', '/payment', '/about', '/partners', '/privacy-policy'];

interface Entry {
  path: string;
  lastmod?: Date;
}

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );

/** Every page a shopper can reach without signing in: home, info pages, categories, projects, products. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, publicUrl, locale } = context;
  const [initial, products] = await Promise.all([
    services.catalog.initial(locale),
    services.sitemap.productLinks(),
  ]);
  const entries: Entry[] = [
    { path: '/' },
    ...STATIC_PAGES.map((path) => ({ path })),
    ...initial.value.categories.map((category) => ({
      path: `/category/${encodeURIComponent(category.link)}`,
    })),
    ...initial.value.projects.map((project) => ({ path: `/project/${encodeURIComponent(project.link)}` })),
    ...products.map((product) => ({
      path: `/product/${encodeURIComponent(product.link)}`,
      lastmod: product.updatedAt,
    })),
  ];
  const urls = entries.map((entry) =>
    [
      '  <url>',
      `    <loc>${escapeXml(`${publicUrl}${entry.path}`)}</loc>`,
      ...(entry.lastmod ? [`    <lastmod>${entry.lastmod.toISOString()}</lastmod>`] : []),
      '  </url>',
    ].join('\n'),
  );
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  return new Response(xml, {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
