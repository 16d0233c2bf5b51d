import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
import { call, signUp, useCatalogue } from './shop-api.ts';

/**
 * A catalogue page is one document for every visitor with a session (ADR 0048): the page cache
 * keeps it once, it shows nobody's own data, and each shopper's own parts (who is signed in, the
 * badges, the wishlist heart, the review form) arrive once it is hydrated.
 */
describe('signed-in shoppers on shared catalogue pages', () => {
  const browser = useBrowser();
  const catalogue = useCatalogue(browser);

  const badge = (page: Page, name: 'Cart' | 'Wishlist') =>
    page
      .getByRole('banner')
      .getByRole('link', { name: new RegExp(`^${name}`) })
      .locator('.badge');

  it('serves one kept page to every session, and each shopper sees their own parts once hydrated', async () => {
    const { page, baseUrl, context } = browser;
    const product = await catalogue.product('Banner', 10, 900);
    const email = await signUp(page, baseUrl);
    const session = (await context.cookies()).find((cookie) => cookie.name === 'vitrina.sid');
    if (!session) throw new Error('no session cookie after signing up');
    const path = `/product/${product.link}`;

    // The shopper's wishlist holds the product, and the basket one unit of it.
    const cookie = `vitrina.sid=${session.value}; locale=en; overlay-test-info=hidden`;
    expect((await call(baseUrl, 'POST', '/api/wishlist', { product: product.id }, cookie)).status).toBe(200);
    expect((await call(baseUrl, 'POST', '/api/basket', { product: product.id }, cookie)).status).toBe(200);

    // The document: nobody's, kept once for every session, never offered to a CDN.
    const asked = async (sid: string, query = '') => {
      const response = await fetch(`${baseUrl}${path}${query}`, {
        headers: { cookie: `vitrina.sid=${sid}; locale=en; overlay-test-info=hidden` },
      });
      return {
        cache: response.headers.get('x-page-cache'),
        cacheControl: response.headers.get('cache-control'),
        html: await response.text(),
      };
    };
    const first = await asked(session.value);
    expect(first.html).not.toContain(email);
    expect(first.cacheControl).toBe('private, no-cache');
    expect((await asked('someone-else')).cache).toBe('hit');
    expect((await asked(session.value)).cache).toBe('hit');
    // The page a plain form sends its shopper back to is theirs: rendered for them, never kept.
    const added = await asked(session.value, `?added=${product.id}`);
    expect(added.cache).toBeNull();
    expect(added.html).toContain(email);

    // In the browser: the shopper's own parts arrive without a reload.
    await page.goto(path);
    await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
    await expect.poll(() => badge(page, 'Cart').textContent()).toBe('1');
    await expect.poll(() => badge(page, 'Wishlist').textContent()).toBe('1');
    await page.getByRole('button', { name: 'In wishlist' }).waitFor();
    await page.getByLabel('Your review').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // A link followed while the shopper's own parts are on their way: they come on the next page.
    let delayed = false;
    await page.route(/\.data(\?|$)/, async (route) => {
      if (!delayed) {
        delayed = true;
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      await route.continue().catch(() => {});
    });
    await page.goto(path);
    await page.getByRole('banner').getByRole('link', { name: 'Profile' }).waitFor();
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Vitrina/ })
      .click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
    expect(delayed).toBe(true);
    await page.unroute(/\.data(\?|$)/);

    // Signed out, the same address shows a guest's page.
    await context.clearCookies();
    await context.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    await page.goto(path);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: email }).count()).toBe(0);
  });
});
