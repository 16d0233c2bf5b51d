import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { acceptStaffInvitation, call, useCatalogue } from './shop-api.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const MANAGER = { email: `bulk-manager-${suffix}@example.test`, password: 'bulk-manager-password-1' };

const TEXT = {
  en: {
    search: 'Name, link or ID',
    sort: 'Sort',
    byName: 'By name',
    show: 'Show',
    hiddenOnly: 'Hidden only',
    apply: 'Apply…',
    confirm: 'Confirm',
    choose: (name: string) => `Choose ${name}`,
    hidden: 'Hidden',
    done: 'Hidden: 2.',
    summary: 'Hide 2 products from the shop',
    action: 'With the chosen products',
    deleteOption: 'Delete',
  },
  ru: {
    search: 'Название, ссылка или ID',
    sort: 'Сортировка',
    byName: 'По названию',
    show: 'Показать',
    hiddenOnly: 'Только скрытые',
    apply: 'Применить…',
    confirm: 'Подтвердить',
    choose: (name: string) => `Выбрать: ${name}`,
    hidden: 'Скрыт',
    done: 'Скрыто: 2.',
    summary: 'Скрыть из магазина товары (2)',
    action: 'С выбранными товарами',
    deleteOption: 'Удалить',
  },
} as const;

/** Signs in through the API: the page's context then holds the session (the phone header hides the account link). */
async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  const login = await page.request.post('/api/login', {
    headers: { origin: baseUrl },
    data: { email, password },
  });
  expect(login.status()).toBe(200);
}

/** The manager, invited by the admin, registers with the address and accepts the mailed link. */
beforeAll(async () => {
  const baseUrl = inject('baseUrl');
  const login = await call(baseUrl, 'POST', '/api/login', ADMIN);
  const cookie = login.cookies.map((entry) => entry.split(';')[0]).join('; ');
  const invited = await call(
    baseUrl,
    'POST',
    '/api/admin/staff',
    { email: MANAGER.email, role: 'manager' },
    cookie,
  );
  expect(invited.status).toBe(200);
  await acceptStaffInvitation(baseUrl, MANAGER.email, MANAGER.password);
});

/**
 * A manager narrows the list down with filters kept in the address, chooses two products and
 * hides them with one confirmation that names them; the list and the shop show them hidden.
 */
async function bulkHideJourney(
  page: Page,
  baseUrl: string,
  locale: 'en' | 'ru',
  products: Array<{ id: number; link: string; name: string }>,
  /** A word of the three products' names alone. */
  word: string,
) {
  const text = TEXT[locale];
  await signIn(page, baseUrl, MANAGER.email, MANAGER.password);
  await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);
  await page.goto('/admin/products');
  await page.getByLabel(text.search).fill(word);
  await page.getByLabel(text.sort, { exact: true }).selectOption({ label: text.byName });
  await page.getByRole('button', { name: text.show, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'name');
  const [first, second, third] = products;
  if (!first || !second || !third) throw new Error('three products expected');
  // The filtered, sorted list replaces the whole one once its data is in.
  await expect
    .poll(() => page.getByRole('link', { name: word }).allTextContents())
    .toEqual(products.map((product) => product.name));

  // A manager may not delete: the choice is not offered.
  const actions = page.getByLabel(text.action);
  expect(await actions.locator('option', { hasText: text.deleteOption }).count()).toBe(0);

  await page.getByRole('checkbox', { name: text.choose(first.name) }).check();
  await page.getByRole('checkbox', { name: text.choose(second.name) }).check();
  await page.getByRole('button', { name: text.apply }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const summary = await dialog.textContent();
  expect(summary).toContain(text.summary);
  expect(summary).toContain(first.name);
  expect(summary).toContain(second.name);
  expect(summary).not.toContain(third.name);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({
    path: `test-results/admin-products-confirm-${locale}-${page.viewportSize()?.width}.png`,
  });

  await dialog.getByRole('button', { name: text.confirm }).click();
  await page.getByText(text.done).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  expect(await sidewaysOverflow(page)).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({
    path: `test-results/admin-products-hidden-${locale}-${page.viewportSize()?.width}.png`,
    fullPage: true,
  });

  // Only the two chosen are hidden, in the list and in the shop.
  await page.getByLabel(text.hiddenOnly).check();
  await page.getByRole('button', { name: text.show, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('hidden') === '1');
  await page.getByRole('link', { name: third.name }).waitFor({ state: 'detached' });
  await page.getByRole('link', { name: second.name }).waitFor();
  expect(await page.getByRole('link', { name: first.name }).count()).toBe(1);
  for (const product of products) {
    const answer = await page.request.get(`/api/product?locale=en&link=${product.link}`);
    expect(answer.status(), product.link).toBe(product === third ? 200 : 404);
  }
}

for (const [locale, width] of [
  ['en', 1440],
  ['ru', 1440],
  ['en', 390],
  ['ru', 390],
] as const) {
  describe(`bulk changes to products, ${locale}, ${width} px`, () => {
    const browser = useBrowser({ viewport: { width, height: 900 } });
    const catalogue = useCatalogue(browser);

    it('a manager filters the products, chooses two and hides them with one confirmation', async () => {
      const { page, baseUrl } = browser;
      const made: Array<{ id: number; link: string; name: string }> = [];
      for (const name of ['Alpha badge', 'Beta badge', 'Gamma badge']) {
        const product = await catalogue.product(`${name} ${locale}${width}${suffix}`, 5);
        made.push({ id: product.id, link: product.link, name: String(product.name_en) });
      }
      await bulkHideJourney(page, baseUrl, locale, made, `${locale}${width}${suffix}`);
    });
  });
}

describe('a bulk price change, en, 1440 px', () => {
  const browser = useBrowser({ viewport: { width: 1440, height: 900 } });
  const catalogue = useCatalogue(browser);

  it('is checked in the page, refused by the API naming the product it cannot take, and done for the rest', async () => {
    const { page, baseUrl } = browser;
    const word = `price${suffix}`;
    const cheap = await catalogue.product(`Cheap pin ${word}`, 5, 1000);
    const dear = await catalogue.product(`Dear pin ${word}`, 5, 1_000_000);
    await signIn(page, baseUrl, MANAGER.email, MANAGER.password);
    await page.context().addCookies([{ name: 'locale', value: 'en', url: baseUrl }]);
    await page.goto(`/admin/products?search=${word}&sort=name`);
    await page.getByRole('link', { name: String(dear.name_en) }).waitFor();
    await page.getByRole('checkbox', { name: 'Choose every product on this page' }).check();
    await page.getByText('Products chosen on this page: 2').waitFor();
    await page.getByLabel('With the chosen products').selectOption({ label: 'Change prices by a percent' });
    const percent = page.getByLabel('Percent', { exact: true });
    const dialog = page.getByRole('dialog');
    const confirm = async (value: string) => {
      await percent.fill(value);
      await page.getByRole('button', { name: 'Apply…' }).click();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
    };

    // 0 % passes the browser's own check; the contract's, in the page, refuses it under the field.
    await confirm('0');
    await page.getByText('Enter a whole percent from −90 to 1000, not 0.').waitFor();
    // +1000 % would take the dear pin over the shop's highest price: the API changes nothing and names it.
    await confirm('1000');
    await page.getByText(`«${dear.name_en}»: The new price would be above 10,000,000 roubles.`).waitFor();
    expect(await page.getByText('Products chosen on this page: 2').count()).toBe(1);

    await page.getByRole('checkbox', { name: `Choose ${dear.name_en}` }).uncheck();
    await confirm('10');
    await page.getByText('Prices changed: 1.').waitFor();
    // The change went through: nothing is chosen any more and the action is the first again.
    await page.getByText('Products chosen on this page: 0').waitFor();
    expect(await page.getByLabel('With the chosen products').inputValue()).toBe('hide');
    const answer = await page.request.get(`/api/admin/products/${cheap.id}`);
    expect(((await answer.json()) as { product: { price: number } }).product.price).toBe(1100);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the back office at 390 px', () => {
  const browser = useBrowser({ viewport: { width: 390, height: 844 } });

  it('has no sideways scrolling and no axe violation on any screen, in English and Russian', async () => {
    const { page, baseUrl } = browser;
    await signIn(page, baseUrl, ADMIN.email, ADMIN.password);
    const orders = await page.request.get('/api/admin/orders?status=');
    const orderList = ((await orders.json()) as { list: Array<{ id: number; country: string }> }).list;
    const orderId = orderList[0]?.id;
    // An order abroad's packing slip carries the CN23 table, seven columns wide.
    const abroadId = orderList.find((order) => order.country !== 'RU')?.id;
    const customers = await page.request.get('/api/admin/customers');
    const customerId = ((await customers.json()) as { list: Array<{ id: number }> }).list[0]?.id;
    // A folder whose name has no place to break, beside Russian labels, once widened the page.
    const folder = await page.request.post('/api/admin/files/folders', {
      headers: { origin: baseUrl },
      data: { path: '', name: `drop_pictures_banner_${suffix}` },
    });
    expect(folder.status()).toBe(200);
    const screens = [
      '/admin',
      '/admin/orders',
      '/admin/shipments',
      ...(orderId ? [`/admin/orders/${orderId}`, `/admin/orders/${orderId}/packing-slip`] : []),
      ...(abroadId && abroadId !== orderId ? [`/admin/orders/${abroadId}/packing-slip`] : []),
      '/admin/customers',
      ...(customerId ? [`/admin/customers/${customerId}`] : []),
      '/admin/staff',
      '/admin/two-factor',
      '/admin/products',
      '/admin/products/new',
      '/admin/products/1',
      '/admin/projects',
      '/admin/categories',
      '/admin/files',
      '/admin/drops',
      '/admin/drops/new',
      '/admin/pages/about',
      '/admin/partners',
      '/admin/feedback',
      '/admin/reviews',
      '/admin/search',
      '/admin/audit',
      '/admin/csv',
      '/admin/promo-codes',
      '/admin/promo-codes/new',
    ];
    const overflowing: string[] = [];
    const violations: string[] = [];
    for (const locale of ['en', 'ru']) {
      await page.context().addCookies([{ name: 'locale', value: locale, url: baseUrl }]);
      for (const screen of screens) {
        await page.goto(screen);
        await page.locator('.admin-page h1').waitFor();
        await page.locator('.admin-loading').waitFor({ state: 'detached' });
        for (const what of await sidewaysOverflow(page)) overflowing.push(`${locale} ${screen}: ${what}`);
        for (const violation of await axeViolations(page))
          violations.push(`${locale} ${screen}: ${violation}`);
      }
    }
    expect(overflowing).toEqual([]);
    expect(violations).toEqual([]);
  }, 300_000);
});
