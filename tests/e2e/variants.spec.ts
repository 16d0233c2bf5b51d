import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { signUp } from './shopper.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
/** A seeded mug without options, in stock. */
const PRODUCT = 'northwind-drakkar-tavern-mug';
const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // At phone widths the header's account link is in the menu: the page leaving /login says it.
  await page.waitForURL((url) => url.pathname !== '/login');
}

async function register(page: Page, email: string, password: string) {
  await page.goto('/registration');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password confirmation').fill(password);
  // The personal-data consent is given actively (issue 29).
  await page.getByRole('checkbox', { name: /personal data/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  const link = (await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0];
  if (!link) throw new Error('no activation link');
  await page.goto(link);
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

async function setAllStock(page: Page, stock: string) {
  const editor = page.getByRole('form', { name: 'Options and variants' });
  await editor.getByLabel('Column').selectOption({ label: 'Stock' });
  await editor.getByLabel('Value for every row').fill(stock);
  await editor.getByRole('button', { name: 'Set for all rows' }).click();
  await editor.getByRole('button', { name: 'Save options and variants' }).click();
  await editor.getByText('Options and variants have been saved.').waitFor();
}

describe('sizes', () => {
  const browser = useBrowser();

  it('a manager gives a product sizes with stock per size; a shopper asks to hear when it is back and gets one mail after the restock', async () => {
    const { page, browser: chromium, baseUrl } = browser;
    await signIn(page, ADMIN.email, ADMIN.password);
    const found = (await (
      await page.request.get(`/api/admin/products?search=${PRODUCT}&locale=en`)
    ).json()) as {
      list: Array<{ id: number; link: string }>;
    };
    const productId = found.list.find((row) => row.link === PRODUCT)?.id;
    await page.goto(`/admin/products/${productId}`);
    const editor = page.getByRole('form', { name: 'Options and variants' });
    await editor.getByRole('button', { name: 'Add an option' }).click();
    const option = editor.getByRole('group', { name: 'Option 1' });
    await option.getByLabel('Value (Russian) 1').fill('S');
    await option.getByLabel('Value (English) 1').fill('S');
    await option.getByRole('button', { name: 'Add a value' }).click();
    await option.getByLabel('Value (Russian) 2').fill('M');
    await option.getByLabel('Value (English) 2').fill('M');
    await option.getByLabel('Name (Russian)').fill('Размер');
    // The option's group is called by its name once it has one.
    await option.getByLabel('Name (English)').fill('Size');
    await editor.getByRole('group', { name: 'Size' }).waitFor();
    await editor.getByRole('button', { name: 'Generate all combinations' }).click();
    await editor
      .getByRole('table', { name: 'Options and variants' })
      .getByRole('rowheader', { name: 'Size: M' })
      .waitFor();
    await editor.getByLabel('Stock of Size: S').fill('2');
    await editor.getByLabel('Stock of Size: M').fill('1');
    await editor.getByRole('button', { name: 'Save options and variants' }).click();
    await editor.getByText('Options and variants have been saved.').waitFor();
    expect(await editor.getByLabel('SKU of Size: M').inputValue()).toBe(`${PRODUCT}-m`);
    await page.getByText('This product has options: its stock is set per variant below.').waitFor();

    mkdirSync('test-results', { recursive: true });
    await editor.screenshot({ path: 'test-results/variants-admin-1366-en.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await editor.screenshot({ path: 'test-results/variants-admin-390-en.png' });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Sold out in every size: a signed-in shopper asks to be told.
    await setAllStock(page, '0');
    const shopperContext = await chromium.newContext({ baseURL: baseUrl, serviceWorkers: 'block' });
    await shopperContext.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    const shopper = await shopperContext.newPage();
    const email = `waiting-${Date.now().toString(36)}@example.com`;
    await register(shopper, email, 'shopper-password-1');
    // The sold-out size S, chosen in the address: the shopper asks to hear when it is back.
    await shopper.goto(`/product/${PRODUCT}?size=S`);
    await shopper.locator('.stock').getByText('This option is sold out').waitFor();
    await shopper.getByRole('button', { name: 'Notify me when back' }).click();
    await shopper.getByText('We will write to you once, when it is back in stock.').waitFor();

    await setAllStock(page, '5');
    const mail = await waitForMail(email, /is back in stock/);
    expect(mail).toContain('Size: S');
    await shopperContext.close();
  });
});

const CHECKOUT_TEXT = {
  en: {
    size: 'Size',
    add: 'Add to cart',
    added: 'Added to cart',
    labels: {
      first: 'First name',
      last: 'Last name',
      phone: 'Phone',
      country: 'Country',
      city: 'City',
      zip: 'Postcode',
      address: 'Address',
    },
    next: 'Next',
    pay: 'Pay',
    order: (id: number) => `Order #${id}`,
  },
  ru: {
    size: 'Размер',
    add: 'В корзину',
    added: 'Добавлено в корзину',
    labels: {
      first: 'Имя',
      last: 'Фамилия',
      phone: 'Телефон',
      country: 'Страна',
      city: 'Город',
      zip: 'Индекс',
      address: 'Адрес',
    },
    next: 'Далее',
    pay: 'Оплатить',
    order: (id: number) => `Заказ №${id}`,
  },
} as const;

interface SizedTee {
  link: string;
  name: string;
  sizes: Array<{ size: string; sku: string }>;
}

/** A demo T-shirt with two sizes that have at least two units each, as the shop's API tells them. */
async function teeWithTwoSizes(page: Page, locale: 'en' | 'ru'): Promise<SizedTee> {
  return page.evaluate(async (locale) => {
    const category = (await (await fetch(`/api/category?link=t-shirts&locale=${locale}`)).json()) as {
      products: Array<{ link: string }>;
    };
    for (const { link } of category.products) {
      const { product } = (await (await fetch(`/api/product?link=${link}&locale=${locale}`)).json()) as {
        product: {
          name: string;
          options: Array<{ values: Array<{ id: number; value: string }> }>;
          variants: Array<{ sku: string; values: number[]; inStock: number }>;
        };
      };
      const sizeNames = new Map(product.options[0]?.values.map((option) => [option.id, option.value]));
      const sizes = product.variants
        .filter((variant) => variant.inStock >= 2)
        .map((variant) => ({ size: sizeNames.get(variant.values[0] ?? -1) ?? '', sku: variant.sku }));
      if (sizes.length >= 2) return { link, name: product.name, sizes: sizes.slice(0, 2) };
    }
    throw new Error('no T-shirt with two sizes in stock');
  }, locale);
}

describe('two sizes of one T-shirt, bought and shipped', () => {
  for (const { locale, width } of [
    { locale: 'en', width: 1366 },
    { locale: 'ru', width: 390 },
  ] as const) {
    describe(`${locale}, ${width} px`, () => {
      const text = CHECKOUT_TEXT[locale];
      const browser = useBrowser({
        locale: locale === 'ru' ? 'ru-RU' : 'en-US',
        viewport: { width, height: 900 },
      });

      it(`${locale}, ${width} px: the shopper pays for both sizes, sees them in the history; the manager sees both lines with SKU and size`, async () => {
        const { page, baseUrl } = browser;
        await signUp(page, locale);
        const tee = await teeWithTwoSizes(page, locale);

        // Both sizes put in the basket from the product page, as a shopper picks them.
        for (const { size } of tee.sizes) {
          await page.goto(`/product/${tee.link}`);
          await page
            .getByRole('group', { name: text.size })
            .getByRole('radio', { name: size, exact: true })
            .click();
          await expect.poll(() => new URL(page.url()).searchParams.get('size')).toBe(size);
          await page.getByRole('button', { name: text.add, exact: true }).click();
          await expect.poll(() => page.getByRole('status').first().textContent()).toContain(text.added);
        }

        // Checkout: Russian Post to Kazan, paid on the Robokassa sandbox.
        await page.goto('/order/shipping');
        await page.getByRole('textbox', { name: text.labels.first }).fill('Ada');
        await page.getByRole('textbox', { name: text.labels.last }).fill('Lovelace');
        await page.getByRole('textbox', { name: text.labels.phone }).fill('+7 900 123 45 67');
        await page.getByRole('combobox', { name: text.labels.country }).selectOption('RU');
        await page.getByRole('textbox', { name: text.labels.city }).fill('Kazan');
        await page.getByRole('textbox', { name: text.labels.zip }).fill('420111');
        await page.getByRole('textbox', { name: text.labels.address, exact: true }).fill('Baumana 44');
        const next = page.getByRole('button', { name: text.next });
        await expect.poll(() => next.isEnabled(), { timeout: 20_000 }).toBe(true);
        await next.click();
        await page.waitForURL((url) => url.pathname === '/order/payment');
        await page.getByRole('button', { name: text.pay }).click();
        await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
        await page.getByRole('button', { name: text.pay, exact: true }).click();
        await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
        const orderId = Number(new URL(page.url()).searchParams.get('InvId'));
        expect(orderId).toBeGreaterThan(0);

        // The order history: both sizes of the one T-shirt, one unit each.
        await page.goto('/order/history');
        const card = page
          .getByRole('listitem')
          .filter({ hasText: text.order(orderId) })
          .first();
        await card.getByText(text.order(orderId)).click();
        for (const { size } of tee.sizes) {
          await card
            .locator('.order-item')
            .filter({ hasText: tee.name })
            .filter({ hasText: `${text.size}: ${size} · × 1` })
            .waitFor();
        }

        // The manager's order page: two lines, each with its size and SKU.
        const manager = await browser.browser.newContext({
          baseURL: baseUrl,
          locale: 'en-US',
          viewport: { width, height: 900 },
        });
        await manager.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
        const admin = await manager.newPage();
        await signIn(admin, ADMIN.email, ADMIN.password);
        await admin.goto(`/admin/orders/${orderId}`);
        const items = admin.getByRole('region', { name: 'Items' });
        for (const { size, sku } of tee.sizes) {
          await items
            .getByRole('row')
            .filter({ hasText: `Size: ${size}` })
            .filter({ hasText: `SKU ${sku}` })
            .waitFor();
        }
        mkdirSync('test-results', { recursive: true });
        await admin.screenshot({
          path: `test-results/variants-admin-order-${locale}-${width}.png`,
          fullPage: true,
        });
        await manager.close();
      }, 120_000);
    });
  }
});
