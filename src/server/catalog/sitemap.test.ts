import { describe, expect, it } from 'vitest';
import { type SitemapEntry, sitemapEntries, sitemapFile } from './sitemap.ts';

const SHOP = 'https://shop.example';
const locs = (xml: string | null) =>
  [...(xml ?? '').matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

describe('sitemap', () => {
  const entries = sitemapEntries(
    { categories: [{ link: 't-shirts' }], projects: [{ link: 'northwind & co' }] },
    [{ link: 'compass-rose', updatedAt: new Date('2026-11-01T10:00:00Z') }],
  );

  it('lists home, all products, the info pages, categories, projects and products in each language, escaped, with product dates', () => {
    const xml = sitemapFile(entries, SHOP, null);
    expect(xml).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    expect(locs(xml)).toEqual(
      [
        '/',
        '/products',
        '/shipping',
        '/payment',
        '/about',
        '/partners',
        '/privacy-policy',
        '/category/t-shirts',
        '/project/northwind%20%26%20co',
        '/product/compass-rose',
      ].flatMap((path) => [`${SHOP}${path}?lang=ru`, `${SHOP}${path}?lang=en`]),
    );
    expect(xml).toContain(
      `<loc>${SHOP}/product/compass-rose?lang=en</loc>\n    <lastmod>2026-11-01T10:00:00.000Z</lastmod>`,
    );
  });

  it("names every language's address and the visitor's own (x-default) as alternates of each", () => {
    const xml = sitemapFile([{ path: '/about' }], SHOP, null) ?? '';
    const alternates = [
      `<xhtml:link rel="alternate" hreflang="ru" href="${SHOP}/about?lang=ru"/>`,
      `<xhtml:link rel="alternate" hreflang="en" href="${SHOP}/about?lang=en"/>`,
      `<xhtml:link rel="alternate" hreflang="x-default" href="${SHOP}/about"/>`,
    ].join('\n    ');
    expect(xml).toContain(`<loc>${SHOP}/about?lang=ru</loc>\n    ${alternates}`);
    expect(xml).toContain(`<loc>${SHOP}/about?lang=en</loc>\n    ${alternates}`);
  });

  it('becomes an index of parts past the limit of URLs per file, each part within it', () => {
    const many: SitemapEntry[] = Array.from({ length: 5 }, (_, index) => ({ path: `/product/p${index}` }));
    const index = sitemapFile(many, SHOP, null, 2);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    // Five pages in two languages: ten addresses, two per part.
    expect(locs(index)).toEqual([1, 2, 3, 4, 5].map((part) => `${SHOP}/sitemap.xml?part=${part}`));
    expect(locs(sitemapFile(many, SHOP, '1', 2))).toEqual([
      `${SHOP}/product/p0?lang=ru`,
      `${SHOP}/product/p0?lang=en`,
    ]);
    expect(locs(sitemapFile(many, SHOP, '5', 2))).toEqual([
      `${SHOP}/product/p4?lang=ru`,
      `${SHOP}/product/p4?lang=en`,
    ]);
  });

  it('has no part past the last, nor one that is not a number', () => {
    const many: SitemapEntry[] = Array.from({ length: 5 }, (_, index) => ({ path: `/product/p${index}` }));
    for (const part of ['0', '6', '-1', '1.5', 'x', '', '01', '99999999']) {
      expect(sitemapFile(many, SHOP, part, 2)).toBeNull();
    }
    expect(locs(sitemapFile(entries, SHOP, '1'))).toHaveLength(20);
    expect(sitemapFile(entries, SHOP, '2')).toBeNull();
  });
});
