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

  it('lists home, all products, the info pages, categories, projects and products, escaped, with product dates', () => {
    const xml = sitemapFile(entries, SHOP, null);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(xml)).toEqual([
      `${SHOP}/`,
      `${SHOP}/products`,
      `${SHOP}/shipping`,
      `${SHOP}/payment`,
      `${SHOP}/about`,
      `${SHOP}/partners`,
      `${SHOP}/privacy-policy`,
      `${SHOP}/category/t-shirts`,
      `${SHOP}/project/northwind%20%26%20co`,
      `${SHOP}/product/compass-rose`,
    ]);
    expect(xml).toContain(
      `<loc>${SHOP}/product/compass-rose</loc>\n    <lastmod>2026-11-01T10:00:00.000Z</lastmod>`,
    );
  });

  it('becomes an index of parts past the limit of URLs per file, each part within it', () => {
    const many: SitemapEntry[] = Array.from({ length: 5 }, (_, index) => ({ path: `/product/p${index}` }));
    const index = sitemapFile(many, SHOP, null, 2);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual([1, 2, 3].map((part) => `${SHOP}/sitemap.xml?part=${part}`));
    expect(locs(sitemapFile(many, SHOP, '1', 2))).toEqual([`${SHOP}/product/p0`, `${SHOP}/product/p1`]);
    expect(locs(sitemapFile(many, SHOP, '3', 2))).toEqual([`${SHOP}/product/p4`]);
  });

  it('has no part past the last, nor one that is not a number', () => {
    const many: SitemapEntry[] = Array.from({ length: 5 }, (_, index) => ({ path: `/product/p${index}` }));
    for (const part of ['0', '4', '-1', '1.5', 'x', '', '01', '99999999']) {
      expect(sitemapFile(many, SHOP, part, 2)).toBeNull();
    }
    expect(locs(sitemapFile(entries, SHOP, '1'))).toHaveLength(10);
    expect(sitemapFile(entries, SHOP, '2')).toBeNull();
  });
});
