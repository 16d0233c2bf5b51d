import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';

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
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

async function register(page: Page, email: string, password: string) {
  await page.goto('/registration');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password confirmation').fill(password);
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
    await editor.getByRole('rowheader', { name: 'Size: M' }).waitFor();
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
    await shopper.getByText('This option is sold out').waitFor();
    await shopper.getByRole('button', { name: 'Notify me when back' }).click();
    await shopper.getByText('We will write to you once, when it is back in stock.').waitFor();

    await setAllStock(page, '5');
    const mail = await waitForMail(email, /is back in stock/);
    expect(mail).toContain('Size: S');
    await shopperContext.close();
  });
});
