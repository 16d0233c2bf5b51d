import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { hydrated, useBrowser } from './browser.ts';

/** The root layout fills the menu panel once the page is hydrated: links then navigate in the page. */
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

describe('React Router’s scroll restoration', () => {
  // A phone's screen: two cards a row, so every list is taller than the screen.
  const browser = useBrowser({ viewport: { width: 390, height: 700 } });

  for (const list of ['/', '/category/t-shirts', '/project/northwind-saga', '/search/mug']) {
    it(`brings the shopper back to where they were on ${list} after a product`, async () => {
      const { page } = browser;
      await page.goto(list);
      await hydrated(page);
      const cards = page.locator('.product-grid .product-card__link');
      expect(await cards.count()).toBeGreaterThan(4);
      const card = cards.nth((await cards.count()) - 2);
      await card.scrollIntoViewIfNeeded();
      const position = await scrollY(page);
      expect(position).toBeGreaterThan(300);
      const name = (await card.locator('.product-card__name').textContent()) ?? '';

      await card.click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      // A new page opens at its top.
      await expect.poll(() => scrollY(page)).toBe(0);

      await page.goBack();
      await page.locator('.product-grid').waitFor();
      await expect.poll(() => scrollY(page)).toBe(position);
    });
  }

  it('keeps the list where it is when a filter is switched', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/category/t-shirts');
    await hydrated(page);
    // The shopper has scrolled down a little; the filter they click stays in the window.
    const filter = page.getByRole('complementary').locator('input[name="project"]:not([disabled])').last();
    const box = await filter.boundingBox();
    if (!box) throw new Error('the project filter is not shown');
    await page.evaluate((y) => window.scrollTo(0, y), Math.max(40, Math.round(box.y - 250)));
    const before = await scrollY(page);
    expect(before).toBeGreaterThan(0);
    await filter.click();
    await expect.poll(() => page.url()).toMatch(/[?&]project=/);
    expect(await scrollY(page)).toBe(before);
  });
});

describe('one router for every address', () => {
  const baseUrl = inject('baseUrl');
  const answer = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.text(),
    };
  };

  it('answers an address in capitals as React Router matches it, whatever the kind of route', async () => {
    // React Router matches paths without regard to case: a page, a guarded back-office page and a
    // resource route alike.
    const sitemap = await answer('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    const shouted = await answer('/SITEMAP.XML');
    expect(shouted.status).toBe(200);
    expect(shouted.type).toBe(sitemap.type);
    expect(shouted.body).toBe(sitemap.body);

    const admin = await answer('/admin');
    expect(admin.status).toBe(403);
    expect((await answer('/Admin')).status).toBe(admin.status);
    expect((await answer('/ADMIN/products')).status).toBe(admin.status);

    const product = (await fetch(`${baseUrl}/sitemap.xml`).then((response) => response.text())).match(
      /\/product\/([^<]+)<\/loc>/,
    )?.[1];
    if (!product) throw new Error('the sitemap lists no product');
    expect((await answer(`/product/${product}`)).status).toBe(200);
    expect((await answer(`/Product/${product}`)).status).toBe(200);
    expect((await answer('/no-such-page')).status).toBe(404);
  });
});

describe('the stylesheet React Router links (ADR 0097)', () => {
  const baseUrl = inject('baseUrl');
  const browser = useBrowser({ viewport: { width: 390, height: 700 } });

  it('links one stylesheet that the browser keeps, instead of writing it into every page', async () => {
    const page = await fetch(`${baseUrl}/category/t-shirts`).then((response) => response.text());
    expect(page).not.toContain('<style');
    const links = [...page.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map(([link]) => link);
    expect(links).toHaveLength(1);
    const href = links[0]?.match(/href="(\/assets\/styles-[\w-]+\.css)"/)?.[1];
    if (!href) throw new Error(`no stylesheet of the build in ${links[0]}`);

    const stylesheet = await fetch(`${baseUrl}${href}`, { headers: { 'accept-encoding': 'br' } });
    expect(stylesheet.status).toBe(200);
    expect(stylesheet.headers.get('content-type')).toMatch(/^text\/css/);
    expect(stylesheet.headers.get('content-encoding')).toBe('br');
    expect(stylesheet.headers.get('cache-control')).toContain('immutable');
  });

  it('styles the page from the file, also after a navigation to a page of another kind', async () => {
    const { page } = browser;
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname);
    });
    await page.goto('/category/t-shirts');
    await hydrated(page);
    // The shop's layout: the body is a column, the skip link is placed out of the flow.
    expect(await page.evaluate(() => getComputedStyle(document.body).flexDirection)).toBe('column');
    expect(await page.locator('.skip-link').evaluate((link) => getComputedStyle(link).position)).toBe(
      'absolute',
    );

    await page.locator('.product-grid .product-card__link').first().click();
    await page.locator('h1').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).flexDirection)).toBe('column');
    // One stylesheet for the whole visit.
    expect(stylesheets).toHaveLength(1);
  });
});
