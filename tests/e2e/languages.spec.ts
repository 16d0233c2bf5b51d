import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InitialResponse } from '../../src/contract/catalog.ts';
import { useBrowser } from './browser.ts';

/**
 * Each language's page has its own address (`?lang=`, ADR 0034): canonical and hreflang alternates
 * in the head, the server honouring the address over the cookie, the choice kept for the links
 * followed from there, and product data for search engines in the page's own currency.
 */

interface Offer {
  priceCurrency: string;
  price: string;
  availability: string;
  url: string;
}

/** The head's canonical address and its alternates by hreflang. */
async function headLinks(page: Page) {
  return {
    canonical: await page.locator('link[rel="canonical"]').getAttribute('href'),
    alternates: Object.fromEntries(
      await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) =>
          links.map((link) => [link.getAttribute('hreflang'), link.getAttribute('href')]),
        ),
    ),
  };
}

/** The offer of the product page's schema.org data, if any. */
async function productOffer(page: Page): Promise<Offer | undefined> {
  const scripts = await page.locator('script[type="application/ld+json"]').allTextContents();
  const product = scripts
    .map((text) => JSON.parse(text) as { '@type': string; offers?: Offer })
    .find((item) => item['@type'] === 'Product');
  return product?.offers;
}

const HOODIE = 'northwind-aurora-hoodie';

describe('language in the address, for a Russian browser at 390 px', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });

  it('shows the English page at ?lang=en with its own canonical and the alternates, keeps English after, and the switcher drops it', async () => {
    const { page, baseUrl } = browser;
    const initial = (await (await fetch(`${baseUrl}/api/initial?locale=en`)).json()) as InitialResponse;
    const product = initial.week.find((item) => item.inStock > 0 && !item.hasOptions);
    if (!product) throw new Error('demo data has no featured product in stock');
    const path = `/product/${product.link}`;

    // Without a language in the address, the browser's language; the head names both pages, and
    // the address is its own canonical (x-default).
    await page.goto(path);
    expect(await page.locator('html').getAttribute('lang')).toBe('ru');
    expect(await headLinks(page)).toEqual({
      canonical: `${baseUrl}${path}`,
      alternates: {
        ru: `${baseUrl}${path}?lang=ru`,
        en: `${baseUrl}${path}?lang=en`,
        'x-default': `${baseUrl}${path}`,
      },
    });
    const rouble = await productOffer(page);
    expect(rouble).toMatchObject({ priceCurrency: 'RUB', availability: 'https://schema.org/InStock' });
    expect(rouble?.url).toBe(`${baseUrl}${path}?lang=ru`);

    // The English page's address: English whatever the browser says, its own canonical, dollars.
    await page.goto(`${path}?lang=en`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('button', { name: 'Add to cart', exact: true }).waitFor();
    expect((await headLinks(page)).canonical).toBe(`${baseUrl}${path}?lang=en`);
    expect(await page.locator('meta[property="og:url"]').getAttribute('content')).toBe(
      `${baseUrl}${path}?lang=en`,
    );
    const dollar = await productOffer(page);
    expect(dollar?.priceCurrency).toBe('USD');
    const shown = (
      await page
        .locator('.product__price .price__sale, .product__price .price__current')
        .first()
        .textContent()
    )?.trim();
    expect(shown).toBe(`$${Number(dollar?.price).toFixed(2)}`);

    // The links followed from there carry no language and stay in English.
    await page.locator('header .brand').click();
    await page.getByRole('heading', { name: 'Featured this week' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.goto('/about');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect((await headLinks(page)).canonical).toBe(`${baseUrl}/about`);

    // Choosing Russian in the header's switcher (a desktop's) on a ?lang=en page lands on the page
    // without the parameter.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/about?lang=en');
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    await page.getByRole('banner').getByRole('button', { name: 'Rus' }).click();
    await page.waitForURL((url) => url.pathname === '/about' && url.search === '');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('ru');
    expect((await headLinks(page)).canonical).toBe(`${baseUrl}/about`);
  });
});

describe('language in the address, raw answers', () => {
  const browser = useBrowser();

  for (const locale of ['ru', 'en'] as const) {
    it(`serves /about?lang=${locale} in ${locale} over a cookie of the other language, storing ${locale}`, async () => {
      const { baseUrl } = browser;
      const other = locale === 'ru' ? 'en' : 'ru';
      const answer = await fetch(`${baseUrl}/about?lang=${locale}`, {
        headers: { cookie: `locale=${other}` },
      });
      expect(answer.status).toBe(200);
      const html = await answer.text();
      expect(html).toContain(`<html lang="${locale}"`);
      const head = html.split('</head>')[0] ?? '';
      expect(head).toContain(`<link rel="canonical" href="${baseUrl}/about?lang=${locale}"/>`);
      for (const language of ['ru', 'en'])
        expect(head).toContain(
          `<link rel="alternate" hrefLang="${language}" href="${baseUrl}/about?lang=${language}"/>`,
        );
      expect(head).toContain(`<link rel="alternate" hrefLang="x-default" href="${baseUrl}/about"/>`);
      expect(answer.headers.getSetCookie().some((cookie) => cookie.startsWith(`locale=${locale};`))).toBe(
        true,
      );
      // The cookie alone, as before, when the address names no language.
      const plain = await fetch(`${baseUrl}/about`, { headers: { cookie: `locale=${other}` } });
      expect(await plain.text()).toContain(`<html lang="${other}"`);
      expect(plain.headers.getSetCookie().some((cookie) => cookie.startsWith('locale='))).toBe(false);
      // A catalogue page kept by the page cache stores the address's language too.
      for (let visit = 0; visit < 2; visit++) {
        const home = await fetch(`${baseUrl}/?lang=${locale}`, { headers: { cookie: `locale=${other}` } });
        expect(await home.text()).toContain(`<html lang="${locale}"`);
        expect(home.headers.getSetCookie().some((cookie) => cookie.startsWith(`locale=${locale};`))).toBe(
          true,
        );
        if (visit === 1) expect(home.headers.get('x-page-cache')).not.toBe('miss');
      }
    });
  }

  it('lists both languages of every page in the sitemap, and an envisioned item is no pre-order', async () => {
    const { page, baseUrl } = browser;
    const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${baseUrl}/about?lang=ru</loc>`);
    expect(sitemap).toContain(`<loc>${baseUrl}/about?lang=en</loc>`);
    expect(sitemap).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${baseUrl}/about"/>`);

    await page.goto(`/product/${HOODIE}?lang=en`);
    const offer = await productOffer(page);
    expect(offer?.availability).toBe('https://schema.org/OutOfStock');
  });
});

describe("each page's own language's texts in the browser (ADR 0086)", () => {
  const browser = useBrowser({ viewport: { width: 1366, height: 900 } });

  it('loads the English texts alone for an English page, and the Russian ones when the shopper switches, without a reload', async () => {
    const { page } = browser;
    const texts: string[] = [];
    page.on('request', (request) => {
      const name = /\/assets\/(dictionary-(?:en|ru))-[\w-]+\.js$/.exec(new URL(request.url()).pathname)?.[1];
      if (name) texts.push(name);
    });
    await page.goto(`/product/${HOODIE}?lang=en`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    // The panel's close button is rendered once the page is hydrated, which needs the texts.
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    expect(texts).toEqual(['dictionary-en']);

    // A mark the page keeps only as long as it is not loaded anew.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('banner').getByRole('button', { name: 'Rus' }).click();
    // The page changes once the form's answer and the Russian texts are both here.
    await page.locator('html[lang="ru"]').waitFor({ state: 'attached' });
    await page
      .getByRole('banner')
      .getByRole('link', { name: /Корзина/ })
      .first()
      .waitFor();
    await page.getByRole('combobox', { name: 'Поиск' }).waitFor();
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(texts).toEqual(['dictionary-en', 'dictionary-ru']);

    // And back: the English texts are still here, nothing more is loaded.
    await page.getByRole('banner').getByRole('button', { name: 'Eng' }).click();
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
    await page.getByRole('combobox', { name: 'Search' }).waitFor();
    expect(texts).toEqual(['dictionary-en', 'dictionary-ru']);
  });

  it("names its own language's texts among the scripts the page preloads, and not the other's", async () => {
    const { baseUrl } = browser;
    for (const [locale, other] of [
      ['ru', 'en'],
      ['en', 'ru'],
    ] as const) {
      const head = (await (await fetch(`${baseUrl}/?lang=${locale}`)).text()).split('</head>')[0] ?? '';
      const preloads = [...head.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
        (match) => match[1],
      );
      expect(preloads.filter((href) => href?.includes('/dictionary-'))).toEqual([
        expect.stringMatching(new RegExp(`^/assets/dictionary-${locale}-[\\w-]+\\.js$`)),
      ]);
      expect(head).not.toContain(`dictionary-${other}-`);
    }
  });
});
