import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';

/**
 * An order's whole life (issue 15): a Russian shopper buys and pays on Robokassa's sandbox page;
 * the manager ships it with a track code, refunds part of it, then the rest with the units back in
 * stock; the shopper's mails, in Russian, are in the outbox.
 */

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const PASSWORD = 'lifecycle-password-1';
const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

/** A confirmed, signed-in Russian shopper (registration through the API, the mailed link opened). */
async function russianShopper(page: Page): Promise<string> {
  const email = `lifecycle-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  await page.goto('/');
  const registered = await page.request.post('/api/registration', {
    headers: { origin: new URL(page.url()).origin },
    data: { locale: 'ru', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
  });
  expect(registered.status()).toBe(200);
  const link = (await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0];
  if (!link) throw new Error('no activation link');
  const url = new URL(link);
  await page.goto(`${url.pathname}${url.search}`);
  await page.waitForURL((current) => current.pathname === '/profile');
  return email;
}

interface PlacedOrder {
  order: { id: number; amount: string };
  payment: { url: string; fields: Record<string, string> };
}

describe('order lifecycle', () => {
  const browser = useBrowser({ locale: 'ru-RU' });

  it('buy, pay, ship with a track code, refund part, refund the rest with restock; the mails are in Russian', async () => {
    const { page, baseUrl } = browser;
    const origin = { origin: baseUrl };

    // The shopper buys two units of a product in stock and pays on the provider's page.
    const email = await russianShopper(page);
    const product = await page.evaluate(async () => {
      const initial = (await (await fetch('/api/initial?locale=ru')).json()) as {
        week: Array<{ id: number; inStock: number; name: string; hasOptions: boolean }>;
      };
      const found = initial.week.find((item) => item.inStock >= 3 && !item.hasOptions);
      if (!found) throw new Error('no product in stock');
      return found;
    });
    expect(
      (await page.request.post('/api/basket', { headers: origin, data: { product: product.id } })).status(),
    ).toBe(200);
    expect(
      (await page.request.post('/api/basket', { headers: origin, data: { product: product.id } })).status(),
    ).toBe(200);
    const placed = await page.request.post('/api/order', {
      headers: origin,
      data: {
        locale: 'ru',
        paymentMethod: 'robokassa',
        email,
        firstName: 'Анна',
        lastName: 'Петрова',
        phone: '+7 900 123-45-67',
        deliveryMethod: 'russian_post',
        country: 'RU',
        city: 'Казань',
        zip: '420111',
        address: 'ул. Баумана, 44',
      },
    });
    expect(placed.status(), await placed.text()).toBe(200);
    const { order, payment } = (await placed.json()) as PlacedOrder;
    // The payment step's form, posted to the sandbox as the page posts it.
    await page.setContent(
      `<form method="post" action="${payment.url}">${Object.entries(payment.fields)
        .map(
          ([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`,
        )
        .join('')}<button>Оплатить заказ</button></form>`,
    );
    await page.getByRole('button', { name: 'Оплатить заказ' }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
    await page.getByRole('button', { name: 'Оплатить', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
    await waitForMail(email, /Мы получили оплату заказа/);

    // The manager ships it with a track code.
    const manager = await browser.browser.newContext({ baseURL: baseUrl, locale: 'en-US' });
    await manager.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    const admin = await manager.newPage();
    admin.on('dialog', (dialog) => void dialog.accept());
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto(`/admin/orders/${order.id}`);
    await admin.getByRole('heading', { level: 1, name: `Order No. ${order.id}` }).waitFor();
    const trackCode = `RA${String(Date.now()).slice(-9)}RU`;
    await admin.getByLabel('Status', { exact: true }).selectOption({ label: 'Shipped' });
    await admin.getByLabel('Track code').fill(trackCode);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('The order has been saved.').waitFor();
    // The page loads the saved order and starts the editor afresh; "saved" stays on the screen.
    await admin.waitForLoadState('networkidle');
    expect(await admin.getByText('The order has been saved.').isVisible()).toBe(true);
    expect(await waitForMail(email, new RegExp(trackCode))).toContain('в пути');

    // A part refunded, no units back.
    const payments = admin.getByRole('region', { name: 'Payments and refunds' });
    await payments.getByRole('radio', { name: 'Part of it' }).check();
    await payments.getByLabel('Amount to refund, RUB').fill('100');
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await payments.getByText('The refund has been sent.').waitFor();
    await payments.getByRole('row').filter({ hasText: 'Refund' }).getByText('done').waitFor();
    const partMail = await waitForMail(email, /Мы вернули 100/);
    expect(partMail).not.toContain('Заказ отменён');

    // The rest refunded with both units back in stock: the order is cancelled. The English back
    // office names the item in English.
    const stockBefore = await stockOf(page, product.id);
    const englishName = await page.evaluate(async (id) => {
      const initial = (await (await fetch('/api/initial?locale=en')).json()) as {
        week: Array<{ id: number; name: string }>;
      };
      return initial.week.find((item) => item.id === id)?.name ?? '';
    }, product.id);
    // Ticking both units and the delivery fills the amount with everything that is left.
    await payments.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(englishName)}`) }).check();
    await payments.getByRole('checkbox', { name: /^The delivery/ }).check();
    // That ends the order: the form asks why, and the customer's mail quotes it.
    const why = 'Both shirts came back unworn';
    await payments.getByLabel('Why the order is cancelled').fill(why);
    await payments.getByRole('button', { name: 'Refund', exact: true }).click();
    await admin
      .getByRole('region', { name: 'Order timeline' })
      .getByText('Cancelled', { exact: true })
      .waitFor();
    expect(await payments.getByRole('row').filter({ hasText: 'Refund' }).count()).toBe(2);
    await payments.getByRole('button', { name: 'Refund', exact: true }).waitFor({ state: 'detached' });
    const fullMail = await waitForMail(email, /Заказ отменён/);
    expect(fullMail).toMatch(/Мы вернули/);
    expect(fullMail).toContain('Причина, которую указал магазин:');
    expect(fullMail).toContain(why);
    expect(await stockOf(page, product.id)).toBe(stockBefore + 2);
    await manager.close();
  }, 180_000);
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The product's units in stock, as the shop reports them. */
async function stockOf(page: Page, productId: number): Promise<number> {
  return page.evaluate(async (id) => {
    const initial = (await (await fetch('/api/initial?locale=ru')).json()) as {
      week: Array<{ id: number; inStock: number; hasOptions: boolean }>;
    };
    return initial.week.find((item) => item.id === id)?.inStock ?? -1;
  }, productId);
}
