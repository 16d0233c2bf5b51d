import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { call, signUp, unique, useCatalogue } from './shop-api.ts';

/**
 * Issue 29: a checkout that never surprises (ADR 0059). The amount shown is the amount charged (a
 * changed basket is quoted again; a stale page is refused with the new figures), dollar lines are
 * unit × quantity, the cart keeps a typed count over a reload, an unpaid order is finished from the
 * history, and a shopper registers inside the checkout and pays before confirming the e-mail.
 */

const COST_TIMEOUT = 20_000;
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * A shown amount as a number, as either language writes it (ADR 0082): "20 220 ₽" and "₽20,220" →
 * 20220, "20 220,50 ₽" and "₽20,220.50" → 20220.5, "$259.04" → 259.04. A dot or comma before the
 * last two digits is the decimal one; any other is a thousands separator.
 */
const amountOf = (text: string | null) => {
  const figures = (text ?? '').replace(/[^\d.,]/g, '');
  const decimals = /[.,](\d{2})$/.exec(figures);
  const whole = Number((decimals ? figures.slice(0, decimals.index) : figures).replace(/\D/g, ''));
  return decimals ? whole + Number(decimals[1]) / 100 : whole;
};

/** The summary's value for a label (delivery cost, total…). */
const summaryValue = (page: Page, label: RegExp) =>
  page
    .locator('.summary-list > div')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd');

async function waitForCost(page: Page, label: RegExp) {
  const cost = summaryValue(page, label);
  await expect
    .poll(async () => amountOf(await cost.textContent()), { timeout: COST_TIMEOUT, interval: 250 })
    .toBeGreaterThan(0);
}

/** A product of the test's own, weighing 450 g, so a few more units cost more to send. */
async function heavyProduct(baseUrl: string, quantity = 30, price = 1290) {
  const login = await call(baseUrl, 'POST', '/api/login', { ...ADMIN, remember: 1 });
  const cookie = login.cookies.map((line) => line.split(';')[0]).join('; ');
  const initial = await call<{ projects: Array<{ id: number }> }>(baseUrl, 'GET', '/api/initial?locale=en');
  const link = unique('parcel-mug');
  const answer = await call<{ product: { id: number; name_en: string } }>(
    baseUrl,
    'POST',
    '/api/admin/products',
    {
      project: initial.json.projects[0]?.id,
      name_en: `Parcel mug ${link.slice(-6)}`,
      name_ru: `Кружка ${link.slice(-6)}`,
      link,
      price,
      quantity,
      weight: 450,
      visible: true,
    },
    cookie,
  );
  expect(answer.status).toBe(200);
  return answer.json.product;
}

/** Puts `count` units of a product in the visitor's basket through the basket API. */
async function putInBasket(page: Page, product: number, count = 1) {
  const status = await page.evaluate(
    async ({ product, count }) => {
      const add = await fetch('/api/basket', {
        method: 'POST',
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ product: String(product) }),
      });
      if (!add.ok || count === 1) return add.status;
      return (
        await fetch('/api/basket/0', {
          method: 'POST',
          headers: { accept: 'application/json' },
          body: new URLSearchParams({ _method: 'PATCH', product: String(product), count: String(count) }),
        })
      ).status;
    },
    { product, count },
  );
  expect(status).toBe(200);
}

const LABELS = {
  en: {
    first: 'First name',
    last: 'Last name',
    phone: 'Phone',
    country: 'Country',
    city: 'City',
    zip: 'Postcode',
    address: 'Address',
    next: 'Next',
    pay: 'Pay',
    payNow: 'Pay now',
    cancelOrder: 'Cancel order',
    history: 'Order history',
    awaits: (id: number) => `Order #${id} awaits payment`,
    paid: 'Thank you for your order!',
    cancelled: 'The payment has been cancelled. The items are back in your cart.',
    placeOrder: 'Place order',
    createAccount: 'Create an account',
    inCheckout: /go on with your order/,
    email: 'E-mail',
    password: 'Password',
    passwordConfirmation: 'Password confirmation',
    consent: /personal data/,
    consentRequired: 'Please accept the personal data agreement.',
    register: 'Create account',
    unconfirmed: /Confirm your e-mail by the link/,
    confirmed: 'Your e-mail is confirmed. Thank you!',
    delivery: /^Delivery$/,
    total: /^Total$/,
  },
  ru: {
    first: 'Имя',
    last: 'Фамилия',
    phone: 'Телефон',
    country: 'Страна',
    city: 'Город',
    zip: 'Индекс',
    address: 'Адрес',
    next: 'Далее',
    pay: 'Оплатить',
    payNow: 'Оплатить сейчас',
    cancelOrder: 'Отменить заказ',
    history: 'История заказов',
    awaits: (id: number) => `Заказ №${id} ждёт оплаты`,
    paid: 'Спасибо за заказ!',
    cancelled: 'Оплата отменена. Товары снова в вашей корзине.',
    placeOrder: 'Оформить заказ',
    createAccount: 'Зарегистрируйтесь',
    inCheckout: /продолжить оформление/,
    email: 'E-mail',
    password: 'Пароль',
    passwordConfirmation: 'Подтверждение пароля',
    consent: /персональных данных/,
    consentRequired: 'Примите соглашение об обработке персональных данных.',
    register: 'Зарегистрироваться',
    unconfirmed: /Подтвердите e-mail по ссылке/,
    confirmed: 'E-mail подтверждён. Спасибо!',
    delivery: /^Доставка$/,
    total: /^Итого$/,
  },
} as const;

type Locale = keyof typeof LABELS;

/** Fills the delivery step (Russian Post) and goes on to the payment step. */
async function shipTo(page: Page, locale: Locale, where: { country: string; city: string; zip: string }) {
  const labels = LABELS[locale];
  await page.goto('/order/shipping');
  await page.getByRole('textbox', { name: labels.first }).fill('Ada');
  await page.getByRole('textbox', { name: labels.last }).fill('Lovelace');
  await page.getByRole('textbox', { name: labels.phone }).fill('+7 900 123 45 67');
  await page.getByRole('combobox', { name: labels.country }).selectOption(where.country);
  await page.getByRole('textbox', { name: labels.city }).fill(where.city);
  await page.getByRole('textbox', { name: labels.zip }).fill(where.zip);
  await page.getByRole('textbox', { name: labels.address, exact: true }).fill('Abay ave. 1');
  await waitForCost(page, labels.delivery);
  await page.getByRole('button', { name: labels.next }).click();
  await page.waitForURL((url) => url.pathname === '/order/payment');
  // The address changes before the new page is drawn: until then the summary read is the delivery
  // step's, in the shopper's currency rather than the one the payment method charges.
  await page.locator('input[name="paymentMethod"]').first().waitFor();
}

/** Presses Pay and answers the amount the provider form asks Robokassa for (its OutSum). */
async function payAndReadOutSum(page: Page, locale: Locale): Promise<number> {
  const posted = page.waitForRequest(
    (request: Request) =>
      request.method() === 'POST' && new URL(request.url()).pathname === '/sandbox/robokassa',
  );
  await page.getByRole('button', { name: LABELS[locale].pay, exact: true }).click();
  const outSum = Number(new URLSearchParams((await posted).postData() ?? '').get('OutSum'));
  // The sandbox's page is drawn before the test goes on (or its browser context is closed).
  await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
  return outSum;
}

const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } };

describe.each([
  ['ru', VIEWPORTS.desktop],
  ['en', VIEWPORTS.phone],
] as const)('the amount shown is the amount charged (%s)', (locale, viewport) => {
  const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport });
  const labels = LABELS[locale];

  it('quotes a changed basket again on the way back to payment and charges what it then shows', async () => {
    const { page, baseUrl } = browser;
    const product = await heavyProduct(baseUrl);
    await signUp(page, baseUrl, locale);
    await putInBasket(page, product.id, 1);
    await shipTo(page, locale, { country: 'KZ', city: 'Almaty', zip: '050000' });
    const delivery = summaryValue(page, labels.delivery);
    const firstDelivery = amountOf(await delivery.textContent());

    // Back to the cart, three more, the save's 5 s, browser Back to the payment step.
    await page.goto('/cart');
    const quantity = page.getByRole('spinbutton').first();
    await quantity.fill('4');
    await page.waitForTimeout(6000);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/order/payment');
    await page
      .getByRole('status')
      .filter({ hasText: /quoted again|рассчитана заново/ })
      .waitFor();
    const newDelivery = amountOf(await delivery.textContent());
    expect(newDelivery).toBeGreaterThan(firstDelivery);
    const shownTotal = amountOf(await summaryValue(page, labels.total).textContent());
    expect(await axeViolations(page, '.checkout')).toEqual([]);

    expect(await payAndReadOutSum(page, locale)).toBeCloseTo(shownTotal, 2);
  }, 120_000);

  it('refuses a page whose total went stale with a clear message and the new figures, then charges them', async () => {
    const { page, baseUrl } = browser;
    const product = await heavyProduct(baseUrl);
    await signUp(page, baseUrl, locale);
    await putInBasket(page, product.id, 1);
    await shipTo(page, locale, { country: 'KZ', city: 'Almaty', zip: '050000' });
    const total = summaryValue(page, labels.total);
    const staleTotal = amountOf(await total.textContent());

    // Another tab adds three more while this page still shows the old total.
    await putInBasket(page, product.id, 4);
    await page.getByRole('button', { name: labels.pay, exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /total has changed|Сумма изменилась/ })
      .waitFor();
    expect(pathOf(page)).toBe('/order/payment');
    await expect.poll(async () => amountOf(await total.textContent())).toBeGreaterThan(staleTotal);
    const newTotal = amountOf(await total.textContent());
    // Nothing was placed meanwhile.
    const orders = await page.evaluate(async () => (await (await fetch('/api/order')).json()).orders.length);
    expect(orders).toBe(0);
    expect(await axeViolations(page, '.checkout')).toEqual([]);

    expect(await payAndReadOutSum(page, locale)).toBeCloseTo(newTotal, 2);
  }, 120_000);
});

describe('dollar lines unit × quantity (en)', () => {
  const browser = useBrowser({ viewport: VIEWPORTS.desktop });

  it('shows each English cart line as unit × quantity, in the cart and at the payment step', async () => {
    const { page, baseUrl } = browser;
    const product = await heavyProduct(baseUrl, 30, 1377);
    await signUp(page, baseUrl, 'en');
    await putInBasket(page, product.id, 3);
    await page.goto('/cart');
    const line = page.locator('.product-line').first();
    const unit = amountOf(await line.locator('.price__current').textContent());
    const lineTotal = amountOf(await line.locator('.product-line__total').textContent());
    expect(unit).toBeGreaterThan(0);
    expect(lineTotal).toBeCloseTo(unit * 3, 2);

    await shipTo(page, 'en', { country: 'RU', city: 'Kazan', zip: '420111' });
    // PayPal charges dollars (ADR 0052); Robokassa roubles, with dollars as a guide (ADR 0051).
    await page.getByRole('radio', { name: /PayPal/ }).check();
    await expect
      .poll(async () => amountOf(await summaryValue(page, /^Products/).textContent()))
      .toBeCloseTo(unit * 3, 2);
  }, 120_000);
});

describe.each([
  ['en', 'Cart', VIEWPORTS.desktop],
  ['ru', 'Корзина', VIEWPORTS.phone],
] as const)('a cart that keeps what was typed (%s)', (locale, cartName, viewport) => {
  const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport });
  const catalogue = useCatalogue(browser);

  it('keeps a typed quantity over a reload right after typing; the badge follows at once', async () => {
    const { page } = browser;
    const product = await catalogue.product('Reload keeper', 10);
    await page.goto('/');
    await putInBasket(page, product.id, 1);
    await page.goto('/cart');
    await page.getByRole('spinbutton').first().fill('3');
    const badge = page
      .getByRole('banner')
      .getByRole('link', { name: new RegExp(cartName) })
      .locator('.badge');
    await expect.poll(async () => (await badge.textContent())?.trim()).toBe('3');
    await page.reload();
    await expect.poll(async () => page.getByRole('spinbutton').first().inputValue()).toBe('3');
    await expect.poll(async () => (await badge.textContent())?.trim()).toBe('3');
  }, 60_000);
});

const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

describe.each([
  ['ru', VIEWPORTS.phone],
  ['en', VIEWPORTS.desktop],
] as const)('finishing an order (%s)', (locale, viewport) => {
  const browser = useBrowser({ locale: locale === 'ru' ? 'ru-RU' : 'en-US', viewport });
  const labels = LABELS[locale];

  it('resumes an unpaid order from the history and pays it; cancels another there; the recipient is remembered', async () => {
    const { page, baseUrl } = browser;
    const product = await heavyProduct(baseUrl);
    await signUp(page, baseUrl, locale);
    await putInBasket(page, product.id, 1);
    await shipTo(page, locale, { country: 'RU', city: 'Kazan', zip: '420111' });
    await page.getByRole('button', { name: labels.pay, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');

    // The shopper leaves the provider; the empty basket's payment step goes to the unpaid order.
    await page.goto('/order/payment');
    await page.waitForURL((url) => url.searchParams.has('order'));
    const unpaid = Number(new URL(page.url()).searchParams.get('order'));
    await page.getByRole('heading', { level: 1, name: labels.awaits(unpaid) }).waitFor();

    // The history offers Pay now and Cancel for it.
    await page.goto('/order/history');
    // The one order awaiting payment: its buttons name it.
    await page.getByRole('button', { name: new RegExp(`^${labels.cancelOrder}.*${unpaid}$`) }).waitFor();
    expect(await axeViolations(page, '.order-history')).toEqual([]);
    await page.getByRole('link', { name: new RegExp(`^${labels.payNow}.*${unpaid}$`) }).click();
    await page.getByRole('heading', { level: 1, name: labels.awaits(unpaid) }).waitFor();
    await page.getByRole('button', { name: labels.payNow }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
    await page.getByRole('button', { name: locale === 'ru' ? 'Оплатить' : 'Pay', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: labels.paid }).waitFor();
    await page.goto('/order/history');
    await page.getByRole('heading', { level: 1, name: labels.history }).waitFor();
    expect(await page.getByRole('link', { name: new RegExp(`^${labels.payNow}`) }).count()).toBe(0);

    // A second order, cancelled from the history page.
    await putInBasket(page, product.id, 1);
    await page.goto('/order/shipping');
    // The recipient comes back from the last order.
    expect(await page.getByRole('textbox', { name: labels.first }).inputValue()).toBe('Ada');
    await page.getByRole('button', { name: labels.next }).click();
    await page.waitForURL((url) => url.pathname === '/order/payment');
    await page.getByRole('button', { name: labels.pay, exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
    await page.goto('/order/history');
    await page
      .getByRole('button', { name: new RegExp(`^${labels.cancelOrder}`) })
      .first()
      .click();
    await page.getByText(labels.cancelled).waitFor();

    // After the cancelled order, the next checkout still knows the recipient.
    await page.goto('/order/shipping');
    expect(await page.getByRole('textbox', { name: labels.first }).inputValue()).toBe('Ada');
    expect(await page.getByRole('textbox', { name: labels.phone }).inputValue()).toBe('+7 900 123 45 67');
    expect(await page.getByRole('textbox', { name: labels.zip }).inputValue()).toBe('420111');
  }, 180_000);

  it('registers inside the checkout with the basket kept and pays before confirming the e-mail', async () => {
    const { page, baseUrl } = browser;
    const product = await heavyProduct(baseUrl);
    await page.goto('/');
    await putInBasket(page, product.id, 2);
    await page.goto('/cart');
    await page.getByRole('link', { name: labels.placeOrder }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('link', { name: labels.createAccount }).click();
    await page.waitForURL((url) => url.pathname === '/registration');
    await page.getByText(labels.inCheckout).waitFor();

    const email = `${unique('checkout-register')}@example.test`;
    await page.getByLabel(labels.email).fill(email);
    await page.getByLabel(labels.password, { exact: true }).fill('register-in-checkout-1');
    await page.getByLabel(labels.passwordConfirmation).fill('register-in-checkout-1');
    const consent = page.getByRole('checkbox', { name: labels.consent });
    expect(await consent.isChecked()).toBe(false);
    await page.getByRole('button', { name: labels.register }).click();
    await page.getByText(labels.consentRequired).waitFor();
    expect(await axeViolations(page, '.auth-card')).toEqual([]);
    await consent.check();
    await page.getByRole('button', { name: labels.register }).click();

    // Back at the delivery step, signed in, the basket as it was.
    await page.waitForURL((url) => url.pathname === '/order/shipping');
    expect(await page.getByRole('textbox', { name: labels.email }).inputValue()).toBe(email);
    const basket = await page.evaluate(
      async () =>
        (await (await fetch('/api/basket')).json()) as { products: Record<string, { count: number }> },
    );
    expect(basket.products[String(product.id)]?.count).toBe(2);
    await shipTo(page, locale, { country: 'RU', city: 'Kazan', zip: '420111' });
    const shownTotal = amountOf(await summaryValue(page, labels.total).textContent());
    expect(await payAndReadOutSum(page, locale)).toBeCloseTo(shownTotal, 2);
    await page.getByRole('button', { name: locale === 'ru' ? 'Оплатить' : 'Pay', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: labels.paid }).waitFor();

    // Until the e-mail is confirmed the history says so; the link then confirms it.
    await page.goto('/order/history');
    await page.getByText(labels.unconfirmed).waitFor();
    expect(await axeViolations(page, '.order-history')).toEqual([]);
    const link = new URL((await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0] ?? '');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText(labels.confirmed).waitFor();
    await page.goto('/order/history');
    expect(await page.getByText(labels.unconfirmed).count()).toBe(0);
  }, 180_000);
});
