import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { useBrowser } from './browser.ts';
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

/** A shopper's paid order of one unit of a product without sizes, paid on Robokassa's sandbox. */
async function paidOrder(page: Page, baseUrl: string) {
  const email = `desk-buyer-${suffix}@example.test`;
  await register(page, baseUrl, email);
  const product = await page.evaluate(async () => {
    const initial = (await (await fetch('/api/initial?locale=en')).json()) as {
      week: Array<{ id: number; inStock: number; hasOptions: boolean }>;
    };
    const found = initial.week.find((item) => item.inStock >= 2 && !item.hasOptions);
    if (!found) throw new Error('no product in stock');
    return found;
  });
  const origin = { origin: baseUrl };
  expect(
    (await page.request.post('/api/basket', { headers: origin, data: { product: product.id } })).status(),
  ).toBe(200);
  const placed = await page.request.post('/api/order', {
    headers: origin,
    data: {
      locale: 'en',
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
  const { order, payment } = (await placed.json()) as {
    order: { id: number };
    payment: { url: string; fields: Record<string, string> };
  };
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
  return order.id;
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

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

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
      expect(await noSidewaysScroll(page)).toBe(true);

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
      expect(await noSidewaysScroll(page)).toBe(true);
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
});
