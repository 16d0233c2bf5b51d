import { asc, eq } from 'drizzle-orm';
import { LOCALES, type Locale, localizedPath } from '../../contract/locale.ts';
import type { Executor } from '../db/client.ts';
import { products, projects } from '../db/schema.ts';
import { isListed } from './release.ts';

export interface ProductLink {
  link: string;
  updatedAt: Date;
}

/** Every listed product (visible, in a visible project, released), for sitemap.xml. */
export function listProductLinks(db: Executor, now: Date = new Date()): Promise<ProductLink[]> {
  return db
    .select({ link: products.link, updatedAt: products.updatedAt })
    .from(products)
    .innerJoin(projects, eq(projects.id, products.projectId))
    .where(isListed(now))
    .orderBy(asc(products.position), asc(products.id));
}

/** Info pages listed for search engines besides the catalogue. */
const STATIC_PAGES = ['/shipping', '/payment', '/about', '/partners', '/privacy-policy'];

/** Every page a shopper can reach without signing in: home, all products, info pages, categories, projects, products. */
export function sitemapEntries(
  sections: { categories: Array<{ link: string }>; projects: Array<{ link: string }> },
  products: ProductLink[],
): SitemapEntry[] {
  return [
    { path: '/' },
    { path: '/products' },
    ...STATIC_PAGES.map((path) => ({ path })),
    ...sections.categories.map((category) => ({ path: `/category/${encodeURIComponent(category.link)}` })),
    ...sections.projects.map((project) => ({ path: `/project/${encodeURIComponent(project.link)}` })),
    ...products.map((product) => ({
      path: `/product/${encodeURIComponent(product.link)}`,
      lastmod: product.updatedAt,
    })),
  ];
}

export interface SitemapEntry {
  /** The page's path, encoded: `/product/…`. */
  path: string;
  lastmod?: Date;
}

/** The sitemap protocol's limit of URLs in one file (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char,
  );

const xmlDocument = (lines: string[]) => ['<?xml version="1.0" encoding="UTF-8"?>', ...lines, ''].join('\n');

/** Each language's address of a page, with every address of it as alternates (ADR 0034). */
function localizedUrl(entry: SitemapEntry, locale: Locale, publicUrl: string): string {
  const alternates = [...LOCALES, null].map(
    (language) =>
      `    <xhtml:link rel="alternate" hreflang="${language ?? 'x-default'}" href="${escapeXml(
        `${publicUrl}${localizedPath(entry.path, language)}`,
      )}"/>`,
  );
  return [
    '  <url>',
    `    <loc>${escapeXml(`${publicUrl}${localizedPath(entry.path, locale)}`)}</loc>`,
    ...(entry.lastmod ? [`    <lastmod>${entry.lastmod.toISOString()}</lastmod>`] : []),
    ...alternates,
    '  </url>',
  ].join('\n');
}

/**
 * What `/sitemap.xml` answers: every page once per language (`?lang=ru`, `?lang=en`), each naming
 * the others. While they fit in one file it is their list; past `maxUrls` addresses it is an index
 * of parts, `/sitemap.xml?part=1` and on, each a list of at most `maxUrls` addresses. `part` is the
 * query's value; null for a part that does not exist.
 */
export function sitemapFile(
  entries: SitemapEntry[],
  publicUrl: string,
  part: string | null,
  maxUrls = SITEMAP_MAX_URLS,
): string | null {
  const localized = entries.flatMap((entry) => LOCALES.map((locale) => ({ entry, locale })));
  const parts = Math.max(1, Math.ceil(localized.length / maxUrls));
  if (part === null && parts > 1) {
    const files = Array.from({ length: parts }, (_, index) =>
      [
        '  <sitemap>',
        `    <loc>${escapeXml(`${publicUrl}/sitemap.xml?part=${index + 1}`)}</loc>`,
        '  </sitemap>',
      ].join('\n'),
    );
    return xmlDocument([
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...files,
      '</sitemapindex>',
    ]);
  }
  const number = part === null ? 1 : /^[1-9]\d{0,5}$/.test(part) ? Number(part) : 0;
  if (number < 1 || number > parts) return null;
  const urls = localized
    .slice((number - 1) * maxUrls, number * maxUrls)
    .map(({ entry, locale }) => localizedUrl(entry, locale, publicUrl));
  return xmlDocument([
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
  ]);
}
