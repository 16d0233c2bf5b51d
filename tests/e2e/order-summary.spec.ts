import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { signUp, useCatalogue } from './shop-api.ts';

/**
 * After the payment: the thank-you page sums up the paid order (items, delivery, address, totals,
 * what happens next) for its owner only, the payment mail says the same; repeating the order later
 * names, on the cart page, what could not go back into the cart. In both languages, on a desktop
 * and a phone.
 */

const TEXTS = {
  en: {
    pay: 'Pay',
    thanks: 'Thank you for your order!',
    summary: 'Your order',
    method: 'Russian Post',
    next: 'What happens next',
    monthByPost: 'Russian Post then takes up to a month',
    // Robokassa charges roubles whatever the language (ADR 0051), written the English way (ADR 0082).
    total: /^₽\d/,
    mailNext: /What happens next/,
    history: 'Order history',
    orderNumber: (id: number) => `Order #${id}`,
    repeat: 'Repeat order',
    cart: 'Cart',
    notAdded: 'Not everything from the order went back into the cart:',
    soldOut: (name: string) => `${name}: sold out`,
    limited: (name: string) => `${name}: 1 of 3 added, there are no more in stock`,
  },
  ru: {
    pay: 'Оплатить',
    thanks: 'Спасибо за заказ!',
    summary: 'Ваш заказ',
    method: 'Почта России',
    next: 'Что дальше',
    monthByPost: 'Почта России доставляет посылку до месяца',
    total: /₽$/,
    mailNext: /Что дальше/,
    history: 'История заказов',
    orderNumber: (id: number) => `Заказ №${id}`,
    repeat: 'Повторить заказ',
    cart: 'Корзина',
    notAdded: 'Не всё из заказа вернулось в корзину:',
    soldOut: (name: string) => `${name}: нет в наличии`,
    limited: (name: string) => `${name}: добавлено 1 из 3, больше нет в наличии`,
  },
} as const;

/**
 * Puts `items` in the signed-in shopper's cart and places an order for Russian Post through the
 * API, then posts the provider's form to the Robokassa sandbox, as the payment step does.
 */
async function placeOrder(page: Page, locale: 'en' | 'ru', email: string, items: Array<[number, number]>) {
  const payment = await page.evaluate(
    async ({ items, order }) => {
      const send = async (body: Record<string, string>, path = '/api/basket') => {
        const answer = await fetch(path, {
          method: 'POST',
          headers: { accept: 'application/json' },
          body: new URLSearchParams(body),
        });
        if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${await answer.text()}`);
        return answer.json();
      };
      for (const [product, count] of items) {
        await send({ product: String(product) });
        await send({ _method: 'PATCH', product: String(product), count: String(count) }, '/api/basket/0');
      }
      return (await send(order, '/api/order')).payment as { url: string; fields: Record<string, string> };
    },
    {
      items,
      order: {
        locale,
        paymentMethod: 'robokassa',
        email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        phone: '+7 900 123 45 67',
        deliveryMethod: 'russian_post',
        country: 'RU',
        city: 'Kazan',
        address: 'Baumana 44',
        zip: '420111',
      },
    },
  );
  await page.evaluate(({ url, fields }) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = url;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }, payment);
  await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
}

const VARIANTS = [
  { locale: 'en', browserLocale: 'en-US', viewport: { width: 1366, height: 900 } },
  { locale: 'ru', browserLocale: 'ru-RU', viewport: { width: 390, height: 844 } },
] as const;

for (const { locale, browserLocale, viewport } of VARIANTS) {
  describe(`after the payment, in ${locale} at ${viewport.width} px`, () => {
    const browser = useBrowser({ locale: browserLocale, viewport });
    const catalogue = useCatalogue(browser);
    const text = TEXTS[locale];

    it('thanks with the paid order and the next steps, mails the same, and a repeat names what it could not add', async () => {
      const { page, baseUrl } = browser;
      const poster = await catalogue.product('Poster', 10, 1500);
      const badge = await catalogue.product('Badge', 2, 300);
      const posterName = `Poster ${poster.link.slice(-6)}`;
      const badgeName = `Badge ${badge.link.slice(-6)}`;
      const email = await signUp(page, baseUrl, locale);
      await placeOrder(page, locale, email, [
        [poster.id, 3],
        [badge.id, 2],
      ]);
      await page.getByRole('button', { name: text.pay, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
      const resultAddress = page.url();
      const orderId = Number(new URL(resultAddress).searchParams.get('InvId'));

      // The thank-you page: the items, the delivery, the address, the totals, what happens next.
      await page.getByRole('heading', { level: 1, name: text.thanks }).waitFor();
      const summary = page.getByRole('region', { name: text.summary, exact: true });
      await summary.getByRole('link', { name: posterName }).waitFor();
      expect(await summary.getByRole('listitem').filter({ hasText: posterName }).textContent()).toContain(
        '× 3',
      );
      expect(await summary.getByRole('listitem').filter({ hasText: badgeName }).textContent()).toContain(
        '× 2',
      );
      await summary.getByText(text.method, { exact: true }).waitFor();
      await summary.getByText(/420111, .+, Kazan, Baumana 44/).waitFor();
      const shownTotal = (await summary.locator('.summary-list__total dd').textContent())?.trim() ?? '';
      expect(shownTotal).toMatch(text.total);
      const next = page.getByRole('region', { name: text.next });
      await next.getByText(text.monthByPost, { exact: false }).waitFor();
      expect(await axeViolations(page, '.order-outcome')).toEqual([]);
      mkdirSync('test-results', { recursive: true });
      await page.screenshot({
        path: `test-results/thank-you-${locale}-${viewport.width}.png`,
        fullPage: true,
      });

      // The payment mail: the same summary and next steps, in the shopper's language.
      const mail = await waitForMail(email, text.mailNext);
      expect(mail).toContain(`${posterName} × 3`);
      expect(mail).toContain(`${badgeName} × 2`);
      expect(mail).toContain(text.method);
      expect(mail).toContain('Kazan, Baumana 44');
      // The page and the mail write the total alike, in the shopper's language (ADR 0082).
      const spaced = (value: string) => value.replace(/\s/g, ' ');
      expect(spaced(mail)).toContain(spaced(shownTotal));

      // Nobody else sees the order's details at its (signed) return address.
      const stranger = await browser.browser.newContext({ baseURL: baseUrl, locale: browserLocale });
      const strangerPage = await stranger.newPage();
      await strangerPage.goto(resultAddress);
      expect(await strangerPage.getByRole('region', { name: text.summary, exact: true }).count()).toBe(0);
      expect(await strangerPage.getByText(posterName).count()).toBe(0);
      await stranger.close();

      // Later: fewer posters left, the badges sold out. Repeating the order says so on the cart page.
      await catalogue.setStock(poster, 1);
      await page.goto('/order/history');
      const card = page.getByRole('listitem').filter({ hasText: text.orderNumber(orderId) });
      await card.getByText(text.orderNumber(orderId)).click();
      await card.getByRole('button', { name: text.repeat }).click();
      await page.waitForURL((url) => url.pathname === '/cart');
      await page.getByRole('heading', { level: 1, name: text.cart }).waitFor();
      const notice = page.getByRole('status').filter({ hasText: text.notAdded });
      await notice.getByText(text.soldOut(badgeName), { exact: true }).waitFor();
      await notice.getByText(text.limited(posterName), { exact: true }).waitFor();
      expect(await axeViolations(page, '.cart-page')).toEqual([]);
      await page.screenshot({ path: `test-results/repeat-${locale}-${viewport.width}.png`, fullPage: true });
      // Told once: opening the cart again no longer says it.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: text.cart }).waitFor();
      expect(await page.getByText(text.notAdded).count()).toBe(0);
    }, 120_000);
  });
}
