import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
import { signUp } from './shopper.ts';

/**
 * Issue 29's phone comfort: the sticky add-to-cart bar of a product page on a phone, which adds the
 * chosen size (or asks for one), and the added-to-cart drawer (a bottom sheet on a phone, a side
 * drawer on a wide screen) with the cart's lines, the total and Checkout, keyboard-accessible.
 */

/** Demo products (src/server/seed/catalogue.ts): a T-shirt in sizes, a mug without options. */
const TEE = { link: 'northwind-compass-rose-tee', name: 'Compass Rose T-shirt' };
const MUG = { link: 'northwind-navigator-mug', name: 'Кружка «Штурман»' };

async function open(page: Page, baseUrl: string, path: string, locale: 'en' | 'ru') {
  await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);
  await page.goto(path);
  // Hydrated: the menu panel is filled in by the browser.
  await page.locator('#navigation-panel .navigation-panel__close').waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
}

async function screenshot(page: Page, name: string) {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/${name}.png` });
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return {
      text: element?.textContent?.trim() ?? '',
      name: element?.getAttribute('name') ?? null,
      form: element?.getAttribute('form') ?? null,
      inDialog: element?.closest('dialog[open]') !== null,
    };
  });

describe('on a phone (en, 390 px)', () => {
  const browser = useBrowser({ viewport: { width: 390, height: 844 } });

  it('the sticky bar asks for a size, then adds the chosen one; the sheet shows it and Checkout leads on', async () => {
    const { page } = browser;
    await signUp(page, 'en');
    await open(page, browser.baseUrl, `/product/${TEE.link}`, 'en');
    const bar = page.locator('.sticky-add');
    const mainButton = page.locator('.product__actions').getByRole('button', { name: 'Add to cart' });
    expect(await bar.count(), 'no bar while the page’s own button is in view').toBe(0);

    // Scrolled past the page's own button: the bar is there with the name and a price.
    await page.mouse.wheel(0, 2500);
    await bar.waitFor();
    expect(await bar.textContent()).toContain(TEE.name);
    expect(await bar.locator('.price').textContent()).toMatch(/\$\d/);

    // No size yet: the bar's button brings the picker into view with the question, nothing added.
    await bar.getByRole('button', { name: `Add to cart: ${TEE.name}` }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose the size' }).waitFor();
    expect((await focused(page)).name).toBe('size');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await mainButton.isVisible()).toBe(true);

    // A size in stock chosen: its price is the bar's price; the bar adds it.
    const size = page.locator('.option-picker label.option-value:not(.option-value--sold-out)').first();
    const sizeName = (await size.textContent())?.trim() ?? '';
    await size.click();
    const price = (await page.locator('.product__price .price').first().textContent())?.trim();
    await page.mouse.wheel(0, 2500);
    await bar.waitFor();
    expect((await bar.locator('.price').textContent())?.trim()).toBe(price);
    await bar.getByRole('button', { name: `Add to cart: ${TEE.name}` }).click();

    // The sheet: along the bottom of the screen, the line with its size, the total, Checkout.
    const sheet = page.getByRole('dialog', { name: 'Added to cart' });
    const line = sheet.getByRole('article', { name: TEE.name });
    await line.waitFor();
    expect(await line.textContent()).toContain(`Size: ${sizeName}`);
    expect(await line.textContent()).toContain('Quantity: 1');
    expect(await sheet.textContent()).toContain(`Total${price}`);
    const box = await sheet.boundingBox();
    expect(box?.width).toBe(390);
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
    expect((await focused(page)).inDialog).toBe(true);
    const badge = page.locator('.site-header .icon-link[href="/cart"] .badge');
    expect(await badge.textContent()).toBe('1');
    await screenshot(page, 'phone-comfort-en-390-sheet');

    await sheet.getByRole('link', { name: 'Checkout' }).click();
    await page.waitForURL((url) => url.pathname === '/order/shipping');
    // The sheet goes with the page it was opened on.
    await sheet.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).waitFor();
  });
});

describe('on a wide screen (ru, 1366 px)', () => {
  const browser = useBrowser({ viewport: { width: 1366, height: 900 } });

  it('adding opens the side drawer, which passes axe; Escape closes it and focus returns to the button', async () => {
    const { page } = browser;
    await open(page, browser.baseUrl, `/product/${MUG.link}`, 'ru');
    const add = page.locator('.product__actions').getByRole('button', { name: 'В корзину' });
    await add.click();

    const drawer = page.getByRole('dialog', { name: 'Товар в корзине' });
    await drawer.getByRole('article', { name: MUG.name }).waitFor();
    expect(await drawer.textContent()).toContain('Количество: 1');
    expect(await drawer.getByRole('link', { name: 'Оформить заказ' }).getAttribute('href')).toBe(
      '/order/shipping',
    );
    const box = await drawer.boundingBox();
    expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(1366);
    expect(box?.height).toBe(900);
    expect(box?.width).toBeLessThanOrEqual(420);
    expect((await focused(page)).inDialog).toBe(true);
    // No sticky bar on a wide screen.
    expect(await page.locator('.sticky-add').isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'phone-comfort-ru-1366-drawer');

    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatchObject({ text: 'В корзину', inDialog: false, form: null });

    // "Continue shopping" closes it too, with the focus back on the button.
    await add.click();
    await drawer.getByRole('button', { name: 'Продолжить покупки' }).click();
    await drawer.waitFor({ state: 'hidden' });
    expect((await focused(page)).text).toBe('В корзину');

    // A product card's quick add opens it as well, with that product's line.
    await open(page, browser.baseUrl, '/category/mugs', 'ru');
    const card = page
      .locator('.product-card')
      .filter({ has: page.getByRole('button', { name: /^В корзину: / }) });
    const cardName = (await card.first().locator('.product-card__name').textContent()) ?? '';
    await card
      .first()
      .getByRole('button', { name: /^В корзину: / })
      .click();
    await drawer.getByRole('article', { name: cardName }).waitFor();
  });
});
