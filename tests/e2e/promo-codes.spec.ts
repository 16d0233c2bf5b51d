import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { signUp } from './shopper.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const CODE = `ZIMA${suffix}`;

/** Signs the admin in through the API and sets the page's language; answers the headers writes need. */
async function asAdmin(page: Page, baseUrl: string, locale: 'ru' | 'en') {
  await page.context().addCookies([
    { name: 'locale', value: locale, url: baseUrl },
    // The test-mode notice, once answered, stays answered: its modal would cover the order page.
    { name: 'overlay-test-info', value: 'hidden', url: baseUrl },
  ]);
  const login = await page.request.post('/api/login', { headers: { origin: baseUrl }, data: ADMIN });
  expect(login.status(), await login.text()).toBe(200);
}

/** A shopper of `locale` with a product of this journey's own (1000 ₽) in the cart, on the cart page. */
async function shopperWithProduct(page: Page, baseUrl: string, locale: 'ru' | 'en', productId: number) {
  await page.context().clearCookies();
  await page.context().addCookies([
    { name: 'overlay-test-info', value: 'hidden', url: baseUrl },
    { name: 'locale', value: locale, url: baseUrl },
  ]);
  const email = await signUp(page, locale);
  const added = await page.request.post('/api/basket', {
    headers: { origin: baseUrl },
    form: { product: String(productId) },
  });
  expect(added.status(), await added.text()).toBe(200);
  await page.goto('/cart');
  return email;
}

/** The summary's value for a label. */
const summaryValue = (page: Page, label: RegExp) =>
  page
    .locator('.summary-list > div')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd');

describe('a promo code in Russian at 1440 px', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });

  it('is created in the back office, entered in the cart, paid at the Robokassa sandbox, seen in the order, the mail, the back office and its receipt, and partly refunded', async () => {
    const { page, baseUrl } = browser;
    await asAdmin(page, baseUrl, 'ru');
    const projects = (await (await page.request.get('/api/admin/projects')).json()) as {
      projects: Array<{ id: number }>;
    };
    const product = await page.request.post('/api/admin/products', {
      headers: { origin: baseUrl },
      data: {
        project: projects.projects[0]?.id,
        name_ru: `Значок ${suffix}`,
        name_en: `Pin ${suffix}`,
        link: `promo-pin-${suffix.toLowerCase()}`,
        price: 1000,
        quantity: 20,
      },
    });
    expect(product.status(), await product.text()).toBe(200);
    const productId = ((await product.json()) as { product: { id: number } }).product.id;

    await page.goto('/admin/promo-codes');
    await page.getByRole('heading', { level: 1, name: 'Промокоды' }).waitFor();
    await page.getByRole('link', { name: 'Новый промокод' }).click();
    await page.getByRole('heading', { level: 1, name: 'Новый промокод' }).waitFor();
    await page.getByLabel('Код', { exact: true }).fill(CODE);
    await page.getByLabel('Скидка', { exact: true }).selectOption('percent');
    await page.getByLabel('Процент или рубли').fill('150');
    await page.getByLabel('Использований всего').fill('5');
    await page.getByLabel('Использований на покупателя').fill('1');
    // A percent over 100 is refused next to its field, in Russian.
    await page.getByRole('button', { name: 'Создать промокод' }).click();
    await page.getByText('Процент — целое число от 1 до 100.').waitFor();
    await page.getByLabel('Процент или рубли').fill('10');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.getByRole('button', { name: 'Создать промокод' }).click();
    await page.getByRole('heading', { level: 1, name: `Промокод ${CODE}` }).waitFor();
    await page.getByText('Этим промокодом ещё не пользовались.').waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    // Saved again from its page: the editor starts afresh from the code as stored, and says so.
    await page.getByLabel('Использований на покупателя').fill('2');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await page.getByText('Промокод сохранён.').waitFor();
    expect(await page.getByLabel('Использований на покупателя').inputValue()).toBe('2');

    // The shopper types it in lower case in the cart: 10 % of 1000 ₽.
    const email = await shopperWithProduct(page, baseUrl, 'ru', productId);
    await page.getByRole('heading', { level: 1, name: 'Корзина' }).waitFor();
    await page.getByLabel('Промокод').fill('nope');
    await page.getByRole('button', { name: 'Применить' }).click();
    await page.getByText('Такого промокода нет. Проверьте, как он написан.').waitFor();
    await page.getByLabel('Промокод').fill(CODE.toLowerCase());
    await page.getByRole('button', { name: 'Применить' }).click();
    await page.getByText(new RegExp(`Промокод ${CODE}: −100\\s₽`)).waitFor();
    await page
      .locator('.cart-summary__total')
      .getByText(/^900\s₽$/)
      .waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);

    await page.getByRole('link', { name: 'Оформить заказ' }).click();
    await page.getByRole('heading', { level: 1, name: 'Доставка' }).waitFor();
    await page.getByRole('textbox', { name: 'Имя' }).fill('Анна');
    await page.getByRole('textbox', { name: 'Фамилия' }).fill('Петрова');
    await page.getByRole('textbox', { name: 'Телефон' }).fill('+7 900 123 45 67');
    await page.getByRole('combobox', { name: 'Страна' }).selectOption('RU');
    await page.getByRole('textbox', { name: 'Город' }).fill('Казань');
    await page.getByRole('textbox', { name: 'Индекс' }).fill('420111');
    await page.getByRole('textbox', { name: 'Адрес', exact: true }).fill('ул. Баумана, 44');
    await expect
      .poll(async () => (await summaryValue(page, /^Доставка$/).textContent())?.trim() ?? '', {
        timeout: 20_000,
      })
      .toMatch(/^\d[\d\s]*₽$/);
    await page.getByRole('button', { name: 'Далее' }).click();

    await page.waitForURL((url) => url.pathname === '/order/payment');
    await page.getByRole('heading', { level: 1, name: 'Оплата' }).waitFor();
    expect(
      (await summaryValue(page, new RegExp(`^Скидка по промокоду ${CODE}$`)).textContent())?.trim(),
    ).toMatch(/^−100\s₽$/);
    expect((await summaryValue(page, /^Товары/).textContent())?.trim()).toMatch(/^900\s₽$/);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.getByRole('button', { name: 'Оплатить' }).click();
    await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
    // The sandbox is asked for the discounted total: 900 ₽ and the delivery.
    await page.locator('button.pay').click();
    await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
    const orderId = Number(new URL(page.url()).searchParams.get('InvId'));
    expect(orderId).toBeGreaterThan(0);

    // The mail, the history and the order carry the discount.
    const mail = await waitForMail(email, /Мы получили оплату заказа/);
    expect(mail).toMatch(/Скидка по промокоду: −100\s₽/);
    await page.goto('/order/history');
    const card = page.getByRole('listitem').filter({ hasText: `Заказ №${orderId}` });
    await card.getByText(`Заказ №${orderId}`).click();
    await card.getByText(`Скидка по промокоду ${CODE}`).waitFor();

    // The back office: one use of five, one paid order, its revenue; the order names the code.
    await page.context().clearCookies();
    await asAdmin(page, baseUrl, 'ru');
    await page.goto('/admin/promo-codes');
    const row = page.getByRole('row').filter({ hasText: CODE });
    await row.getByRole('cell', { name: '1 / 5' }).waitFor();
    expect(await row.textContent()).toMatch(/действует/);
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.goto((await row.getByRole('link', { name: CODE }).getAttribute('href')) ?? '');
    await page.getByRole('heading', { level: 1, name: `Промокод ${CODE}` }).waitFor();
    await page.getByRole('link', { name: String(orderId), exact: true }).waitFor();
    await page.goto(`/admin/orders/${orderId}`);
    await page.getByText(`Скидка по промокоду ${CODE}`).waitFor();

    // The payment's 54-FZ receipt sold the item at its discounted sum, with VAT and method in words.
    const receiptRow = (purpose: RegExp) =>
      page
        .getByRole('region', { name: 'Чеки (54-ФЗ)' })
        .getByRole('table', { name: purpose })
        .getByRole('row')
        .filter({ hasText: `Значок ${suffix}` });
    const cells = async (purpose: RegExp) =>
      (await receiptRow(purpose).getByRole('cell').allInnerTexts()).map((cell) =>
        cell.replace(/\s/g, ' ').trim(),
      );
    await receiptRow(/^Оплата/).waitFor();
    expect(await cells(/^Оплата/)).toEqual([
      `Значок ${suffix}`,
      '1',
      'без НДС',
      'предоплата 100 %',
      '900,00 ₽',
    ]);

    // A partial refund of 300 ₽: sent, done, and its own receipt returns 300 ₽ of the item.
    page.on('dialog', (dialog) => void dialog.accept());
    const payments = page.getByRole('region', { name: 'Оплаты и возвраты' });
    await payments.getByRole('radio', { name: 'Часть' }).check();
    await payments.getByLabel('Сумма возврата, RUB').fill('300');
    await payments.getByRole('button', { name: 'Вернуть деньги', exact: true }).click();
    await payments.getByRole('row').filter({ hasText: 'Возврат' }).getByText('выполнен').waitFor();
    await payments.getByRole('row').filter({ hasText: 'Оплата · Robokassa' }).getByText('получена').waitFor();
    await receiptRow(/^Возврат/).waitFor();
    expect(await cells(/^Возврат/)).toEqual([
      `Значок ${suffix}`,
      '1',
      'без НДС',
      'предоплата 100 %',
      '300,00 ₽',
    ]);
    const refundMail = await waitForMail(email, /Мы вернули 300/);
    expect(refundMail).not.toContain('Заказ отменён');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.screenshot({ path: 'test-results/promo-code-refund-ru-1440.png', fullPage: true });
  }, 300_000);
});

describe('a promo code in English at 390 px', () => {
  const browser = useBrowser({ viewport: { width: 390, height: 844 } });

  it('shows the discount in dollars in the cart, a paused code’s reason, and fits the phone', async () => {
    const { page, baseUrl } = browser;
    await asAdmin(page, baseUrl, 'en');
    const projects = (await (await page.request.get('/api/admin/projects')).json()) as {
      projects: Array<{ id: number }>;
    };
    const product = await page.request.post('/api/admin/products', {
      headers: { origin: baseUrl },
      data: {
        project: projects.projects[0]?.id,
        name_ru: `Брелок ${suffix}`,
        name_en: `Keyring ${suffix}`,
        link: `promo-keyring-${suffix.toLowerCase()}`,
        price: 1000,
        quantity: 20,
      },
    });
    expect(product.status(), await product.text()).toBe(200);
    const productId = ((await product.json()) as { product: { id: number } }).product.id;
    const created = await page.request.post('/api/admin/promo-codes', {
      headers: { origin: baseUrl },
      data: {
        code: `EN${suffix}`,
        kind: 'amount',
        value: '200',
        projects: [],
        categories: [],
        products: [productId],
      },
    });
    expect(created.status(), await created.text()).toBe(200);

    await shopperWithProduct(page, baseUrl, 'en', productId);
    await page.getByRole('heading', { level: 1, name: 'Cart' }).waitFor();
    await page.getByLabel('Promo code').fill(`en${suffix}`.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(new RegExp(`Promo code EN${suffix}: −\\$\\d+\\.\\d{2}`)).waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page, 'main')).toEqual([]);

    // Paused in the back office: the cart keeps the code and says why it no longer applies.
    const shopperCookies = await page.context().cookies();
    await page.context().clearCookies();
    await asAdmin(page, baseUrl, 'en');
    await page.goto('/admin/promo-codes');
    await page.getByRole('button', { name: `Pause EN${suffix}` }).click();
    await page.getByText(`Promo code EN${suffix} is paused.`).waitFor();
    await page.getByRole('button', { name: `Resume EN${suffix}` }).waitFor();
    await page.context().clearCookies();
    await page.context().addCookies(shopperCookies);
    await page.goto('/cart');
    await page
      .getByText(`Promo code EN${suffix} does not apply now: This promo code is paused by the shop.`)
      .waitFor();
    await page.getByRole('button', { name: 'Remove the promo code' }).click();
    await page.getByLabel('Promo code').waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
  }, 120_000);
});
