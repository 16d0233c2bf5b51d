import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser.ts';
import { signUp } from './shopper.ts';

/**
 * Paying with PayPal through the Orders v2 simulator (ADR 0052): the shop creates PayPal's order,
 * the shopper approves it on the sandbox's page and comes back, and the shop captures it; a shopper
 * who closes the tab after approving is paid by the webhook; a manager refunds from the back office.
 * The dollar cart's lines are unit × quantity, and PayPal's lines and total are the same figures.
 */

const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

interface Initial {
  week: Array<{ id: number; inStock: number; hasOptions: boolean }>;
}

/** Puts `count` units of an in-stock product without sizes in the cart. */
async function fillCart(page: Page, count: number): Promise<void> {
  await page.evaluate(async (wanted) => {
    const initial = (await (await fetch('/api/initial?locale=en')).json()) as Initial;
    const product = initial.week.find((item) => item.inStock >= wanted + 2 && !item.hasOptions);
    if (!product) throw new Error('no product in stock');
    const headers = { accept: 'application/json' };
    await fetch('/api/basket', {
      method: 'POST',
      headers,
      body: new URLSearchParams({ product: String(product.id) }),
    });
    const set = await fetch(`/api/basket/${product.id}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ product: product.id, count: wanted }),
    });
    if (!set.ok) throw new Error(`basket answered ${set.status}`);
  }, count);
}

/** Through the shipping step to the payment step, with PayPal chosen. */
async function toPayment(page: Page, locale: 'en' | 'ru') {
  await page.goto('/order/shipping');
  const en = locale === 'en';
  await page.getByRole('textbox', { name: en ? 'First name' : 'Имя' }).fill('Ada');
  await page.getByRole('textbox', { name: en ? 'Last name' : 'Фамилия' }).fill('Lovelace');
  await page.getByRole('textbox', { name: en ? 'Phone' : 'Телефон' }).fill('+7 900 123 45 67');
  await page.getByRole('combobox', { name: en ? 'Country' : 'Страна' }).selectOption('RU');
  await page
    .getByRole('textbox', { name: en ? 'City' : 'Город' })
    .fill(en ? 'Saint Petersburg' : 'Санкт-Петербург');
  await page.getByRole('textbox', { name: en ? 'Postcode' : 'Индекс' }).fill('191025');
  await page.getByRole('textbox', { name: en ? 'Address' : 'Адрес', exact: true }).fill('Nevsky 88');
  const next = page.getByRole('button', { name: en ? 'Next' : 'Далее' });
  await expect.poll(async () => next.isEnabled(), { timeout: 20_000 }).toBe(true);
  await next.click();
  await page.waitForURL((url) => url.pathname === '/order/payment');
  await page.getByRole('radio', { name: /PayPal/ }).check();
}

const text = async (page: Page, selector: string) =>
  (await page.locator(selector).allTextContents()).map((value) => value.trim());
/** Cents of a shown dollar amount ('$1,234.50', '1 234,50 $'): amounts always carry two decimals. */
const cents = (shown: string) => Number(shown.replace(/\D/g, ''));

describe('paying with PayPal', () => {
  const browser = useBrowser({ locale: 'en-US', viewport: { width: 1366, height: 900 } });

  it('pays a dollar cart: its lines are unit × quantity, PayPal shows the same lines and total, and the return captures it', async () => {
    const { page } = browser;
    await signUp(page, 'en');
    await fillCart(page, 3);
    await toPayment(page, 'en');
    const shownTotal =
      (
        await page.locator('.summary-list > div').filter({ hasText: 'Total' }).locator('dd').textContent()
      )?.trim() ?? '';
    const [shownLine] = await text(page, '.summary-items__price');
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL((url) => url.pathname === '/sandbox/paypal/checkoutnow');
    const [line] = await text(page, 'tbody tr td:nth-child(2)');
    const [lineSum] = await text(page, 'tbody tr td:nth-child(3)');
    const [, unit] = /3 × (\$[\d,.]+)/.exec(line ?? '') ?? [];
    expect(unit).toBeDefined();
    // PayPal's line is unit × 3, and it is the line the payment step showed.
    expect(cents(lineSum ?? '')).toBe(cents(unit ?? '') * 3);
    expect(cents(lineSum ?? '')).toBe(cents(shownLine ?? ''));
    expect(cents((await page.locator('[data-total]').textContent()) ?? '')).toBe(cents(shownTotal));
    await page.getByRole('button', { name: 'Approve and pay' }).click();

    await page.waitForURL((url) => url.pathname === '/order/result/paypal');
    await page.getByRole('heading', { level: 1, name: 'Thank you for your order!' }).waitFor();
    const orderId = Number(new URL(page.url()).searchParams.get('order'));
    await page.goto(`/order/history/${orderId}`);
    // The history's total is the one shown and charged.
    await page.getByText(shownTotal).first().waitFor();
  }, 120_000);

  it('pays the order of a shopper who closes the tab after approving, by the webhook', async () => {
    const { page, context } = browser;
    await signUp(page, 'en');
    await fillCart(page, 1);
    await toPayment(page, 'en');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/paypal/checkoutnow');
    // PayPal takes the approval, but the way back never loads: the tab is closed at that moment.
    let approved = false;
    await page.route('**/sandbox/paypal/checkoutnow/approve', async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 });
      approved = answer.status() === 303;
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'tab closed' });
    });
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await page.getByText('tab closed').waitFor();
    expect(approved).toBe(true);
    const fresh = await context.newPage();
    await page.close();
    await fresh.goto('/order/history');
    await expect
      .poll(
        async () => {
          await fresh.reload();
          return fresh.getByText('in processing').count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
  }, 120_000);

  it('refunds a PayPal order from the back office', async () => {
    const { page } = browser;
    await signUp(page, 'en');
    await fillCart(page, 1);
    await toPayment(page, 'en');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/paypal/checkoutnow');
    await page.getByRole('button', { name: 'Approve and pay' }).click();
    await page.waitForURL((url) => url.pathname === '/order/result/paypal');
    const orderId = Number(new URL(page.url()).searchParams.get('order'));

    // The manager signs in on the same browser (the test-mode notice stays hidden).
    const origin = new URL(page.url()).origin;
    await page.context().clearCookies();
    await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: origin }]);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`/admin/orders/${orderId}`);
    // A dollar order: its items, payments and refund in dollars, roubles beside, at the rate shown.
    await page
      .getByText(/^Dollar rate of this order: [\d,]+\.\d{4} ₽ per \$1$/)
      .first()
      .waitFor();
    const payments = page.getByRole('region', { name: 'Payments and refunds' });
    expect(await payments.getByText(/^Everything left: \$[\d,.]+ \(₽[\d,.]+\)$/).count()).toBe(1);
    const items = page.getByRole('region', { name: 'Items' });
    expect(await items.getByRole('row').nth(1).textContent()).toMatch(/\$[\d,.]+ \(₽[\d,.]+\)/);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/paypal-admin-order-en.png', fullPage: true });
    // Everything left ends the order: it takes the reason the customer is told.
    await payments.getByLabel('Why the order is cancelled').fill('The parcel could not be sent abroad');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('The refund has been sent.').waitFor();
    await page.reload();
    await page.getByText('done').first().waitFor();
  }, 120_000);
});

describe('paying with PayPal in Russian', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });

  it('shows the dollar total PayPal charges beside the roubles, and says cancelled after a cancel at PayPal', async () => {
    const { page } = browser;
    await signUp(page, 'ru');
    await fillCart(page, 2);
    await toPayment(page, 'ru');
    const dollars = page.getByTestId('paypal-dollar-total');
    await expect
      .poll(async () => (await dollars.textContent()) ?? '')
      .toMatch(/PayPal списывает доллары США: \d[\d\s]*,\d{2}\s\$/);
    // Dollars written the Russian way on a Russian page (ADR 0082): "25,18 $".
    const promised = /\d[\d\s]*,\d\d\s\$/.exec((await dollars.textContent()) ?? '')?.[0] ?? '';
    await page.getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/paypal/checkoutnow');
    expect(cents((await page.locator('[data-total]').textContent()) ?? '')).toBe(cents(promised));
    await page.getByRole('button', { name: 'Отменить и вернуться в магазин' }).click();

    await page.waitForURL((url) => url.pathname === '/order/cancel/paypal');
    await page.getByText('Вы отменили оплату в PayPal: деньги не списаны.').waitFor();
    const orderId = Number(new URL(page.url()).searchParams.get('order'));
    await page.getByRole('button', { name: 'Отменить заказ' }).click();
    await page.getByText('Оплата отменена. Товары снова в вашей корзине.').waitFor();
    await page.goto(`/order/result/paypal?order=${orderId}`);
    await page.getByRole('heading', { level: 1, name: 'Заказ отменён' }).waitFor();
    expect(await page.getByText(/отклон/i).count()).toBe(0);
  }, 120_000);
});
