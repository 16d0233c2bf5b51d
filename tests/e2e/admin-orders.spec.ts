import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { acceptStaffInvitation } from './shop-api.ts';

/**
 * The order desk of the back office (issue 19, points 3 and 8): a paid order is announced to the
 * shop and counted in the menu; a manager adds notes to it and prints its packing slip, in English
 * at 1440 px and in Russian at 390 px; leaving a changed form asks first.
 */

/** The admin the e2e server seeds (tests/e2e/server.global.ts), and the shop's own address. */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const SHOP_EMAIL = 'shop@vitrina.example';
const PASSWORD = 'desk-password-1';
const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

/** A confirmed account made through registration and its mailed link; signed in afterwards. */
async function register(page: Page, baseUrl: string, email: string) {
  await page.goto('/');
  const registered = await page.request.post('/api/registration', {
    headers: { origin: baseUrl },
    data: { locale: 'en', email, password: PASSWORD, password_confirmation: PASSWORD, privacy_policy: 1 },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const link = new URL((await waitForMail(email, ACTIVATE_LINK)).match(ACTIVATE_LINK)?.[0] ?? '');
  await page.goto(`${link.pathname}${link.search}`);
  await page.waitForURL((current) => current.pathname === '/profile');
}

/**
 * A shopper's order of `units` of a product without sizes (registered as `email` unless signed in
 * already), in `locale`; answers the order and its Robokassa payment form.
 */
async function placeOrder(
  page: Page,
  baseUrl: string,
  options: { email: string; register: boolean; units: number; locale: 'en' | 'ru' },
) {
  const { email } = options;
  if (options.register) await register(page, baseUrl, email);
  const product = await page.evaluate(async (units) => {
    const initial = (await (await fetch('/api/initial?locale=en')).json()) as {
      week: Array<{ id: number; inStock: number; hasOptions: boolean }>;
    };
    const found = initial.week.find((item) => item.inStock >= units + 1 && !item.hasOptions);
    if (!found) throw new Error('no product in stock');
    return found;
  }, options.units);
  const origin = { origin: baseUrl };
  for (let unit = 0; unit < options.units; unit += 1) {
    expect(
      (await page.request.post('/api/basket', { headers: origin, data: { product: product.id } })).status(),
    ).toBe(200);
  }
  const placed = await page.request.post('/api/order', {
    headers: origin,
    data: {
      locale: options.locale,
      paymentMethod: 'robokassa',
      email,
      firstName: 'Sam',
      lastName: 'Packer',
      phone: '+7 900 765-43-21',
      deliveryMethod: 'russian_post',
      country: 'RU',
      city: 'Kazan',
      zip: '420111',
      address: 'Bauman st. 44',
      comment: 'Please wrap it as a gift',
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  return (await placed.json()) as {
    order: { id: number };
    payment: { url: string; fields: Record<string, string> };
  };
}

/** A shopper's paid order of one unit of a product without sizes, paid on Robokassa's sandbox. */
async function paidOrder(page: Page, baseUrl: string) {
  const email = `desk-buyer-${suffix}@example.test`;
  const { order, payment } = await placeOrder(page, baseUrl, {
    email,
    register: true,
    units: 1,
    locale: 'en',
  });
  await payOnSandbox(page, baseUrl, payment);
  return order.id;
}

/** Pays an order's Robokassa form on the sandbox, then signs the shopper out. */
async function payOnSandbox(
  page: Page,
  baseUrl: string,
  payment: { url: string; fields: Record<string, string> },
) {
  await page.setContent(
    `<form method="post" action="${payment.url}">${Object.entries(payment.fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`)
      .join('')}<button>Pay</button></form>`,
  );
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL((url) => url.pathname === '/sandbox/robokassa');
  // The sandbox speaks the order's language; its pay button is the one of class "pay".
  await page.locator('button.pay').click();
  await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
}

/** A registered account the admin invites as a manager, which accepts; answers its e-mail. */
async function manager(page: Page, baseUrl: string) {
  const email = `desk-manager-${suffix}@example.test`;
  await register(page, baseUrl, email);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
  await signIn(page, ADMIN.email, ADMIN.password);
  const made = await page.request.post('/api/admin/staff?locale=en', {
    headers: { origin: baseUrl },
    data: { email, role: 'manager' },
  });
  expect(made.status(), await made.text()).toBe(200);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
  // An invitation grants nothing until its owner accepts it (ADR 0056).
  await acceptStaffInvitation(baseUrl, email, PASSWORD, { hasAccount: true });
  return email;
}

const screenshot = async (page: Page, name: string) => {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/admin-orders-${name}.png`, fullPage: true });
};

const texts = {
  en: {
    navigation: 'Back office',
    note: 'Customer asked for a gift box',
    newNote: 'New note',
    addNote: 'Add note',
    slip: 'Packing slip',
    print: 'Print',
    shipTo: 'Ship to',
    orderTitle: (id: number) => `Order No. ${id}`,
    units: 'Units in total',
    toShip: /to ship: \d+/,
    topProducts: 'Best sellers, last 30 days',
  },
  ru: {
    navigation: 'Управление магазином',
    note: 'Упаковать в подарочную коробку',
    newNote: 'Новая заметка',
    addNote: 'Добавить заметку',
    slip: 'Упаковочный лист',
    print: 'Печать',
    shipTo: 'Получатель',
    orderTitle: (id: number) => `Заказ № ${id}`,
    units: 'Всего штук',
    toShip: /к отправке: \d+/,
    topProducts: 'Лидеры продаж за 30 дней',
  },
} as const;

describe('back office order desk', () => {
  const browser = useBrowser();
  let orderId = 0;
  let managerEmail = '';

  it('announces a paid order to the shop and counts it in the menu; a manager adds notes and prints the packing slip, in English at 1440 px and Russian at 390 px', async () => {
    const { page, baseUrl } = browser;
    orderId = await paidOrder(page, baseUrl);
    const announced = await waitForMail(SHOP_EMAIL, new RegExp(`Заказ №\\s${orderId} оплачен`));
    expect(announced).toContain('Sam Packer');
    expect(announced).toContain(`/admin/orders/${orderId}`);
    managerEmail = await manager(page, baseUrl);

    for (const [locale, width] of [
      ['en', 1440],
      ['ru', 390],
    ] as const) {
      const text = texts[locale];
      await page.setViewportSize({ width, height: 900 });
      await page.context().clearCookies();
      await page.context().addCookies([
        { name: 'overlay-test-info', value: 'hidden', url: baseUrl },
        { name: 'locale', value: locale, url: baseUrl },
      ]);
      await page.goto('/login?lang=en');
      await page.getByLabel('E-mail').fill(managerEmail);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname !== '/login');
      // Signing in brings the account's own language; the manager reads this round in `locale`.
      await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);

      // The menu counts the paid orders waiting to be shipped (the list on wide screens, the select on phones).
      await page.goto('/admin');
      const navigation = page.getByRole('navigation', { name: text.navigation });
      const menuText =
        width > 900
          ? await navigation.getByRole('list').textContent()
          : await navigation.locator('select').textContent();
      expect(menuText).toMatch(text.toShip);
      // The dashboard: orders to ship, unread feedback, and the best sellers of 30 days with this sale.
      await page.getByRole('heading', { level: 2, name: text.topProducts }).waitFor();
      expect(Number(await page.getByRole('link', { name: /^\d+$/ }).first().textContent())).toBeGreaterThan(
        0,
      );
      expect(await axeViolations(page, 'main')).toEqual([]);
      await screenshot(page, `dashboard-${locale}-${width}`);

      await page.goto(`/admin/orders/${orderId}`);
      await page.getByRole('heading', { level: 1, name: text.orderTitle(orderId) }).waitFor();
      await page.getByLabel(text.newNote).fill(text.note);
      await page.getByRole('button', { name: text.addNote }).click();
      const note = page.locator('.admin-timeline > li').filter({ hasText: text.note });
      await note.waitFor();
      expect(await note.textContent()).toContain(managerEmail);
      // The shopper's own comment stays apart from the notes.
      await page.getByText('Please wrap it as a gift').waitFor();
      expect(await axeViolations(page, 'main')).toEqual([]);
      await screenshot(page, `order-${locale}-${width}`);
      expect(await sidewaysOverflow(page)).toEqual([]);

      await page.getByRole('link', { name: text.slip }).click();
      await page.getByRole('heading', { level: 2, name: new RegExp(text.slip) }).waitFor();
      const slip = page.locator('.packing-slip');
      const slipText = (await slip.textContent()) ?? '';
      expect(slipText).toContain(String(orderId));
      expect(slipText).toContain(text.shipTo);
      expect(slipText).toContain('Sam Packer');
      expect(slipText).toContain('Bauman st. 44');
      expect(slipText).toContain('420111 Kazan');
      // The total row says its figure once: its heading, then the count.
      const total = slip
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: text.units, exact: true }) });
      expect(await total.getByRole('cell').allInnerTexts()).toEqual(['1']);
      expect(slipText).toContain('Please wrap it as a gift');
      expect(await axeViolations(page, 'main')).toEqual([]);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await screenshot(page, `slip-${locale}-${width}`);

      // The Print button opens the browser's printing.
      await page.evaluate(() => {
        window.print = () => document.documentElement.setAttribute('data-printed', 'yes');
      });
      await page.getByRole('button', { name: text.print }).click();
      expect(await page.getAttribute('html', 'data-printed')).toBe('yes');

      // On paper: the slip alone, without the shop's header, the menu or the buttons.
      await page.emulateMedia({ media: 'print' });
      expect(await slip.isVisible()).toBe(true);
      expect(await page.locator('.site-header').isVisible()).toBe(false);
      expect(await page.locator('.admin-nav').isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: text.print }).isVisible()).toBe(false);
      await screenshot(page, `slip-print-${locale}-${width}`);
      await page.emulateMedia({ media: 'screen' });
    }
  }, 180_000);

  it('asks before leaving a changed form, and stays with what was typed when told to', async () => {
    const { page } = browser;
    await signIn(page, managerEmail || ADMIN.email, managerEmail ? PASSWORD : ADMIN.password);
    await page.goto(`/admin/orders/${orderId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByLabel('Track code').fill('RA000000001RU');

    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toBe('You have changes that are not saved. Leave this page and lose them?');
    expect(new URL(page.url()).pathname).toBe(`/admin/orders/${orderId}`);
    expect(await page.getByLabel('Track code').inputValue()).toBe('RA000000001RU');

    // Closing the tab asks too (the browser's own question).
    const closing = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await closing).toBe('beforeunload');

    // Unchanged, the same link just goes.
    const again = await browser.context.newPage();
    await again.goto(`/admin/orders/${orderId}`);
    await again.getByRole('heading', { level: 1 }).waitFor();
    await again
      .getByRole('navigation', { name: 'Back office' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await again.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  });
  it('finds the order by its number under another status filter and in a period to the minute, and downloads the CSV for Russian Excel (ru, 1440 px)', async () => {
    const { page, baseUrl } = browser;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    // "Shipped" is chosen: the paid order is not, but its number finds it.
    await page.goto('/admin/orders?status=5');
    await page.getByLabel('Номер заказа').fill(String(orderId));
    await page.getByRole('main').getByRole('button', { name: 'Поиск', exact: true }).click();
    const found = page.getByRole('link', { name: `№ ${orderId}`, exact: true });
    await found.waitFor();
    // A period around now, typed as the manager's wall-clock times.
    const [from, before] = await page.evaluate(() => {
      const local = (moment: Date) => {
        const two = (value: number) => String(value).padStart(2, '0');
        return `${moment.getFullYear()}-${two(moment.getMonth() + 1)}-${two(moment.getDate())}T${two(moment.getHours())}:${two(moment.getMinutes())}`;
      };
      return [local(new Date(Date.now() - 3600_000)), local(new Date(Date.now() + 60_000))];
    });
    await page.getByLabel('Оформлен с').fill(from ?? '');
    await page.getByLabel('Оформлен до').fill(before ?? '');
    await page.getByRole('main').getByRole('button', { name: 'Поиск', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('from') === from);
    await found.waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    await screenshot(page, 'search-ru-1440');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Скачать CSV' }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.startsWith('\uFEFFНомер заказа;Дата (')).toBe(true);
    const row = csv.split('\n').find((line) => line.startsWith(`${orderId};`)) ?? '';
    expect(row).toContain(';В обработке;');
    expect(row).toMatch(/;RUB;\d+,\d{2};/);
  }, 120_000);
});

describe('refunds and cancellations with care (issue 30, point 6)', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });

  it('fills the refund amount from the ticked units, and asks why before cancelling (by a refund or a status), in Russian at 1440 px', async () => {
    const { page, baseUrl } = browser;
    const email = `care-buyer-${suffix}@example.test`;
    /** Signs in on the English form (the browser speaks Russian). */
    const signInAs = async (account: string, password: string) => {
      await page.goto('/login?lang=en');
      await page.getByLabel('E-mail').fill(account);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname !== '/login');
    };
    // An order of two units, paid; then a new one left unpaid (a new order replaces an unpaid one).
    const paid = await placeOrder(page, baseUrl, { email, register: true, units: 2, locale: 'ru' });
    await payOnSandbox(page, baseUrl, paid.payment);
    await signInAs(email, PASSWORD);
    const unpaid = await placeOrder(page, baseUrl, { email, register: false, units: 1, locale: 'ru' });
    await page.context().clearCookies();
    await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);

    await signInAs(ADMIN.email, ADMIN.password);
    // The back office in Russian.
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    const detail = (await (await page.request.get(`/api/admin/orders/${paid.order.id}`)).json()) as {
      order: { products: Array<{ price: number; sale: number | null; count: number }> };
    };
    const unit = detail.order.products[0];
    expect(unit?.count).toBe(2);
    const unitPrice = (unit?.sale ?? unit?.price ?? 0).toFixed(2);

    await page.goto(`/admin/orders/${paid.order.id}`);
    await page.getByRole('heading', { level: 1, name: `Заказ № ${paid.order.id}` }).waitFor();
    const payments = page.getByRole('region', { name: 'Оплаты и возвраты' });
    // Ticking the units fills the amount: both, then one of them; the amount stays editable.
    await payments.getByRole('checkbox', { name: /\(не больше 2\)$/ }).check();
    const amount = payments.getByLabel('Сумма возврата, RUB');
    expect(await amount.inputValue()).toBe((Number(unitPrice) * 2).toFixed(2));
    await payments.getByLabel('Количество').fill('1');
    expect(await amount.inputValue()).toBe(unitPrice);
    expect(await axeViolations(page, 'main')).toEqual([]);
    await screenshot(page, 'refund-units-ru-1440');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await payments.getByRole('button', { name: 'Вернуть деньги', exact: true }).click();
    await payments.getByText('Возврат отправлен.').waitFor();
    expect(asked[0]).toContain('Вернуть покупателю');
    await payments.getByRole('row').filter({ hasText: 'Возврат' }).first().waitFor();

    // All that is left cancels the order: the form asks why (and says so before anything is sent).
    await payments.getByRole('radio', { name: /^Весь остаток/ }).check();
    await payments.getByRole('button', { name: 'Вернуть деньги', exact: true }).click();
    await payments.getByText(/укажите причину \(покупатель прочтёт её в письме о возврате\)/).waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);
    await screenshot(page, 'refund-cancel-reason-ru-1440');
    expect(await payments.getByRole('row').filter({ hasText: 'Возврат' }).count()).toBe(1);
    const why = 'Второй футболки нет на складе, возвращаем всё';
    await payments.getByLabel('Причина отмены заказа').fill(why);
    page.once('dialog', (dialog) => void dialog.accept());
    await payments.getByRole('button', { name: 'Вернуть деньги', exact: true }).click();
    await page
      .getByRole('region', { name: 'Хронология заказа' })
      .getByText(`заказ отменён: «${why}»`, { exact: false })
      .waitFor();
    const refundMail = await waitForMail(email, new RegExp(why));
    expect(refundMail).toContain('Причина, которую указал магазин');
    expect(refundMail).toContain('Заказ отменён');

    // Cancelling the unpaid order asks for a reason first, and refuses to go on without one.
    await page.goto(`/admin/orders/${unpaid.order.id}`);
    await page.getByRole('heading', { level: 1, name: `Заказ № ${unpaid.order.id}` }).waitFor();
    await page.getByLabel('Статус', { exact: true }).selectOption({ label: 'Отменён' });
    await page
      .locator('form[aria-labelledby="order-edit-heading"]')
      .getByRole('button', { name: 'Сохранить', exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: `Отмена заказа № ${unpaid.order.id}` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Отменить заказ' }).click();
    await dialog.getByText('Укажите причину отмены').waitFor();
    const reason = 'Нет нужного размера, деньги не списаны';
    await dialog.getByLabel('Причина').fill(reason);
    await screenshot(page, 'cancel-reason-ru-1440');
    await dialog.getByRole('button', { name: 'Отменить заказ' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('region', { name: 'Хронология заказа' })
      .getByText(`отменён магазином: «${reason}»`)
      .waitFor();
    const mail = await waitForMail(email, new RegExp(reason));
    expect(mail).toContain('Причина, которую указал магазин');
  }, 180_000);
});
