import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { signUp, useCatalogue } from './shop-api.ts';

const pathOf = (page: Page) => new URL(page.url()).pathname;
const badge = (page: Page, name: 'Cart' | 'Wishlist' | 'Корзина') =>
  page
    .getByRole('banner')
    .getByRole('link', { name: new RegExp(`^${name}`) })
    .locator('.badge');
const line = (page: Page, name: string): Locator => page.locator('.product-line').filter({ hasText: name });
const countOf = (page: Page, name: string) =>
  page.getByRole('spinbutton', { name: `Quantity of ${name}` }).inputValue();

describe('cart, wishlist and reviews', () => {
  const browser = useBrowser();
  const catalogue = useCatalogue(browser);

  it('adds from the product page → edits counts that survive leaving the cart → removes → wishlists → reviews', async () => {
    const { page, baseUrl } = browser;
    const lantern = await catalogue.product('Lantern', 10, 1200);
    const scarf = await catalogue.product('Scarf', 10, 800);
    const lanternName = `Lantern ${lantern.link.slice(-6)}`;
    const scarfName = `Scarf ${scarf.link.slice(-6)}`;
    await signUp(page, baseUrl);

    // Add to cart: no navigation, a confirmation, the badge counts it.
    await page.goto(`/product/${lantern.link}`);
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Added to cart.' }).waitFor();
    expect(pathOf(page)).toBe(`/product/${lantern.link}`);
    await expect.poll(() => badge(page, 'Cart').textContent()).toBe('1');
    await page.goto(`/product/${scarf.link}`);
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Added to cart' })
      .getByRole('link', { name: 'Go to cart' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    expect(await page.title()).toBe('Cart · Vitrina');
    expect(await page.locator('.product-line').count()).toBe(2);
    expect(await badge(page, 'Cart').textContent()).toBe('2');

    // Counts: + and typing change the page at once.
    await page.getByRole('button', { name: `Increase the quantity of ${lanternName}` }).click();
    await page.getByRole('spinbutton', { name: `Quantity of ${scarfName}` }).fill('4');
    expect(await countOf(page, lanternName)).toBe('2');
    await page.getByText('Items: 6').waitFor();
    const total = (await page.locator('.cart-summary__total strong').textContent()) ?? '';
    expect(Number(total.replace(/[^\d.]/g, ''))).toBeGreaterThan(0);

    // Leaving the cart saves them at once (well before the 5 s quiet period); they are there on return.
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Vitrina/ })
      .click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => badge(page, 'Cart').textContent()).toBe('6');
    await page.getByRole('banner').getByRole('link', { name: /^Cart/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    expect(await countOf(page, lanternName)).toBe('2');
    expect(await countOf(page, scarfName)).toBe('4');

    // Remove: gone at once, and for good.
    await page.getByRole('button', { name: `Remove ${scarfName} from the cart` }).click();
    await expect.poll(() => line(page, scarfName).count()).toBe(0);
    await expect.poll(() => badge(page, 'Cart').textContent()).toBe('2');
    await page.reload();
    expect(await page.locator('.product-line').count()).toBe(1);

    // The heart in the cart: pressed, counted, and the wishlist page shows the product.
    const heart = line(page, lanternName).getByRole('button', { name: 'Add to wishlist' });
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.click();
    // Its label says where the product now is.
    const added = line(page, lanternName).getByRole('button', { name: 'In wishlist' });
    await expect.poll(() => added.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => badge(page, 'Wishlist').textContent()).toBe('1');
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Wishlist/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Wishlist' }).waitFor();
    await page.getByRole('link', { name: lanternName }).waitFor();
    // Removal from the wishlist is optimistic and confirmed.
    await page.getByRole('button', { name: `Remove ${lanternName} from the wishlist` }).click();
    await page.getByText('Your wishlist is empty.').waitFor();
    // An empty wishlist shows no badge rather than a 0.
    await expect.poll(() => badge(page, 'Wishlist').count()).toBe(0);

    // A review: the rating stars and the text; it shows at once with the average.
    await page.goto(`/product/${lantern.link}`);
    await page.getByText('No reviews yet.').waitFor();
    await page.getByRole('radio', { name: '4 of 5' }).check();
    const text = 'Bright and sturdy.\n<b>Not bold</b>, just honest.';
    await page.getByLabel('Your review').fill(text);
    await page.getByText(`${text.length} of 2000 characters`).waitFor();
    await page.getByRole('button', { name: 'Publish the review' }).click();
    await page.getByText('Thank you! Your review is published.').waitFor();
    const review = page.locator('.review').first();
    await review.waitFor();
    expect(await review.locator('.review__author').textContent()).toBe('Shopper');
    // Plain text: the markup is shown as typed, never rendered.
    expect((await review.locator('.review__body').textContent())?.replace(/\r\n/g, '\n')).toBe(text);
    expect(await review.locator('b').count()).toBe(0);
    expect(await page.locator('.rating-summary').textContent()).toContain('4 of 5 · 1 review');
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
    expect(JSON.parse(jsonLd ?? '{}').aggregateRating).toMatchObject({ ratingValue: 4, reviewCount: 1 });
  });

  it("sends a guest's heart to the wishlist page, which explains signing in", async () => {
    const { page } = browser;
    const candle = await catalogue.product('Candle', 5);
    await page.goto(`/product/${candle.link}`);
    await page.getByRole('link', { name: 'Add to wishlist' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wishlist' }).waitFor();
    await page.getByText('The wishlist is available to signed-in users.').waitFor();
    expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBeGreaterThan(0);
    const response = await page.goto('/wishlist');
    expect(response?.status()).toBe(200);
    // Reviews need an account too.
    await page.goto(`/product/${candle.link}`);
    const signIn = new URL(
      (await page.getByRole('link', { name: 'Sign in to leave a review' }).getAttribute('href')) ?? '',
      browser.baseUrl,
    );
    expect([signIn.pathname, signIn.searchParams.get('redirectTo')]).toEqual([
      '/login',
      `/product/${candle.link}`,
    ]);
  });

  it('marks a count over the stock and blocks ordering until it is lowered', async () => {
    const { page, baseUrl } = browser;
    const figure = await catalogue.product('Figure', 3, 5000);
    const name = `Figure ${figure.link.slice(-6)}`;
    await page.goto(`/product/${figure.link}`);
    // The drawer opens from the hydrated page (the root layout fills the menu panel once hydrated);
    // a click before that sends the plain form instead.
    await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Added to cart' })
      .getByRole('link', { name: 'Go to cart' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    // Typed counts are kept between 1 and the stock; + stops there.
    await page.getByRole('spinbutton', { name: `Quantity of ${name}` }).fill('9');
    expect(await countOf(page, name)).toBe('3');
    expect(await page.getByRole('button', { name: `Increase the quantity of ${name}` }).isDisabled()).toBe(
      true,
    );
    expect(await page.getByRole('link', { name: 'Place order' }).getAttribute('href')).toBe(
      '/order/shipping',
    );
    await page
      .getByRole('banner')
      .getByRole('link', { name: /^Vitrina/ })
      .click();
    await page.waitForURL(`${baseUrl}/`);

    // Stock drops below the count: the cart says so and will not go on to ordering.
    await catalogue.setStock(figure, 1);
    await page.goto('/cart');
    await page.getByRole('alert').filter({ hasText: 'Some cart items are unavailable' }).waitFor();
    await line(page, name).getByText('Only 1 in stock').waitFor();
    expect(await page.getByRole('button', { name: 'Place order' }).isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Place order' }).count()).toBe(0);
    await page.getByText('Remove the unavailable items or lower their quantity').waitFor();

    // − brings an over-stock count down to the stock: the warning goes, ordering is possible again.
    await page.getByRole('button', { name: `Decrease the quantity of ${name}` }).click();
    expect(await countOf(page, name)).toBe('1');
    await page.getByRole('link', { name: 'Place order' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Some cart items are unavailable' }).count()).toBe(
      0,
    );
  });
});

describe('cart without JavaScript, in Russian', () => {
  const browser = useBrowser({
    javaScriptEnabled: false,
    locale: 'ru-RU',
    viewport: { width: 390, height: 844 },
  });
  const catalogue = useCatalogue(browser);

  it('adds, changes counts and removes with plain forms', async () => {
    const { page } = browser;
    const mug = await catalogue.product('Mug', 5, 900);
    const name = `Mug ${mug.link.slice(-6)}`;
    await page.goto(`/product/${mug.link}`);
    await page.getByRole('button', { name: 'В корзину', exact: true }).click();
    await page.getByText('Добавлено в корзину.').waitFor();
    expect(page.url()).toContain(`/product/${mug.link}?added=${mug.id}`);
    expect(await badge(page, 'Корзина').textContent()).toBe('1');

    await page.getByRole('link', { name: 'Перейти в корзину' }).click();
    await page.getByRole('heading', { level: 1, name: 'Корзина' }).waitFor();
    await page.getByRole('button', { name: `Увеличить количество: ${name}` }).click();
    expect(await page.getByRole('spinbutton', { name: `Количество: ${name}` }).inputValue()).toBe('2');
    await page.getByRole('spinbutton', { name: `Количество: ${name}` }).fill('4');
    await page.getByRole('button', { name: 'Обновить' }).click();
    expect(await page.getByRole('spinbutton', { name: `Количество: ${name}` }).inputValue()).toBe('4');
    expect(await badge(page, 'Корзина').textContent()).toBe('4');
    expect(pathOf(page)).toBe('/cart');

    await page.getByRole('button', { name: `Удалить из корзины: ${name}` }).click();
    await page.getByText('Ваша корзина пуста.').waitFor();
    expect(await badge(page, 'Корзина').count()).toBe(0);
  });
});
