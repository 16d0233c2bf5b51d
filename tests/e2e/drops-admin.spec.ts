import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { acceptStaffInvitation } from './shop-api.ts';

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const SHOTS = 'test-results/drops-admin';

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('banner').getByRole('link', { name: email }).waitFor();
}

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/**
 * A manager account (invited by the admin, registered and accepted by its owner) and two products of
 * its own for the drop, so no other journey's products get a release time.
 */
async function prepare(page: Page, baseUrl: string) {
  const headers = { origin: baseUrl };
  await signIn(page, ADMIN.email, ADMIN.password);
  const managerEmail = `drop-manager-${suffix}@example.test`;
  const invited = await page.request.post('/api/admin/staff', {
    headers,
    data: { email: managerEmail, role: 'manager' },
  });
  expect(invited.status(), await invited.text()).toBe(200);
  const projects = (await (await page.request.get('/api/admin/projects')).json()) as {
    projects: Array<{ id: number }>;
  };
  const names: string[] = [];
  for (const [index, [ru, en]] of [
    ['Футболка дропа', 'Drop tee'],
    ['Кружка дропа', 'Drop mug'],
  ].entries()) {
    const created = await page.request.post('/api/admin/products', {
      headers,
      data: {
        project: projects.projects[0]?.id,
        name_ru: `${ru} ${suffix}`,
        name_en: `${en} ${suffix}`,
        link: `drop-${index}-${suffix}`,
        price: 1500,
        quantity: 5 + index,
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    names.push(`${en} ${suffix}`);
  }
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);

  const password = 'drop-manager-password-1';
  await acceptStaffInvitation(baseUrl, managerEmail, password);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
  return { managerEmail, password, products: names };
}

describe('drops in the back office', () => {
  const browser = useBrowser({ viewport: { width: 1440, height: 900 } });

  it('a manager schedules a drop of two products in their time zone, finds it in the list and watches it live (en and ru, 1440 and 390 px)', async () => {
    const { page, baseUrl } = browser;
    const { managerEmail, password, products } = await prepare(page, baseUrl);
    // The manager works from Moscow: the release time is typed and shown in that zone.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Europe/Moscow' });
    await signIn(page, managerEmail, password);

    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Drops' }).click();
    await page.getByRole('heading', { level: 1, name: 'Drops' }).waitFor();
    await page.getByRole('link', { name: 'New drop' }).click();
    await page.getByRole('heading', { level: 1, name: 'New drop' }).waitFor();

    const dropName = `Winter drop ${suffix}`;
    await page.getByLabel('Name (Russian)').fill(`Зимний дроп ${suffix}`);
    await page.getByLabel('Name (English)').fill(dropName);
    const release = page.getByLabel(/Goes on sale at \(your time zone: Europe\/Moscow, GMT\+03:00\)/);
    await release.fill('2031-03-01T15:00');
    await page.getByLabel('Unpaid hold, minutes').fill('10');
    await page.getByLabel('Limit per customer').fill('0');

    // Nothing added yet and a limit of 0: refused, with the reason next to the field.
    await page.getByRole('button', { name: 'Schedule the drop' }).click();
    await page.getByText('A limit is a whole number of units, at least 1, or empty for no limit.').waitFor();
    await page.getByLabel('Limit per customer').fill('2');

    await page.getByLabel('Add products').fill(suffix);
    await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
    for (const product of products) {
      await page.getByRole('button', { name: `Add ${product}` }).click();
      await page.getByRole('button', { name: `Added ${product}` }).waitFor();
    }
    expect(await page.getByRole('list', { name: 'Products of the drop' }).getByRole('listitem').count()).toBe(
      2,
    );
    await shot(page, 'editor-en-1440');
    expect(await axeViolations(page, 'main')).toEqual([]);
    await page.getByRole('button', { name: 'Schedule the drop' }).click();
    await page.getByText('The drop has been scheduled.').waitFor();
    await page.getByRole('heading', { level: 1, name: `Drop: ${dropName}` }).waitFor();
    // A manager does not get the delete button (the API refuses it anyway).
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // 15:00 in Moscow is 12:00 UTC.
    const stored = (await (await page.request.get('/api/admin/drops')).json()) as {
      drops: Array<{ name_en: string; release_at: string; state: string; products: number }>;
    };
    expect(stored.drops.find((drop) => drop.name_en === dropName)).toMatchObject({
      release_at: '2031-03-01T12:00:00.000Z',
      state: 'upcoming',
      products: 2,
    });

    await page.getByRole('link', { name: '← All drops' }).click();
    const upcoming = page.getByRole('region', { name: 'Upcoming' });
    const row = upcoming.getByRole('row').filter({ hasText: dropName });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/1 Mar 2031, 15:00 GMT\+3/);
    await shot(page, 'list-en-1440');
    expect(await axeViolations(page, 'main')).toEqual([]);

    await row.getByRole('link', { name: `Live view ${dropName}` }).click();
    await page.getByRole('heading', { level: 1, name: `Live: ${dropName}` }).waitFor();
    const productRow = (name: string) => page.getByRole('row').filter({ hasText: name });
    expect(
      await productRow(products[0] ?? '')
        .getByRole('cell')
        .first()
        .textContent(),
    ).toBe('5');
    await page.getByText('No unpaid order holds units of this drop.').waitFor();
    await shot(page, 'live-en-1440');
    expect(await axeViolations(page, 'main')).toEqual([]);

    // Stock changes while the page is open: it shows within seconds, without a reload.
    const productId = Number(
      new URL(
        (await productRow(products[0] ?? '')
          .getByRole('link')
          .getAttribute('href')) ?? '',
        baseUrl,
      ).pathname
        .split('/')
        .at(-1),
    );
    const form = (await (await page.request.get(`/api/admin/products/${productId}`)).json()) as {
      product: Record<string, unknown>;
    };
    const restocked = await page.request.patch(`/api/admin/products/${productId}`, {
      headers: { origin: baseUrl },
      data: { ...form.product, quantity: 3 },
    });
    expect(restocked.status(), await restocked.text()).toBe(200);
    await productRow(products[0] ?? '')
      .getByRole('cell', { name: '8', exact: true })
      .first()
      .waitFor({ timeout: 15_000 });

    // In Russian on a phone: the list, the editor and the live view fit and pass axe.
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/drops');
    await page.getByRole('heading', { level: 1, name: 'Дропы' }).waitFor();
    await page
      .getByRole('region', { name: 'Предстоящие' })
      .getByRole('link', { name: `Зимний дроп ${suffix}`, exact: true })
      .waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'list-ru-390');
    expect(await axeViolations(page, 'main')).toEqual([]);

    await page
      .getByRole('region', { name: 'Предстоящие' })
      .getByRole('link', { name: `Зимний дроп ${suffix}`, exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: `Дроп: Зимний дроп ${suffix}` }).waitFor();
    expect(await page.getByLabel(/Начало продаж \(ваш часовой пояс: Europe\/Moscow/).inputValue()).toBe(
      '2031-03-01T15:00',
    );
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'editor-ru-390');
    expect(await axeViolations(page, 'main')).toEqual([]);

    await page.getByRole('link', { name: 'Ход продаж' }).first().click();
    await page.getByRole('heading', { level: 1, name: `Ход продаж: Зимний дроп ${suffix}` }).waitFor();
    await page.getByText('Неоплаченных заказов с товарами этого дропа нет.').waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    await shot(page, 'live-ru-390');
    expect(await axeViolations(page, 'main')).toEqual([]);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Ход продаж: Зимний дроп ${suffix}` }).waitFor();
    await shot(page, 'live-ru-1440');
    expect(await axeViolations(page, 'main')).toEqual([]);

    // The drop goes on sale and a shopper (the manager, here) places an order without paying: the
    // open live view shows the hold within seconds, and the list has the drop under "live".
    await page.context().addCookies([{ name: 'locale', value: 'en', url: baseUrl }]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Live: ${dropName}` }).waitFor();
    const drop = (await (await page.request.get('/api/admin/drops')).json()) as {
      drops: Array<{ id: number; name_en: string }>;
    };
    const dropId = drop.drops.find((entry) => entry.name_en === dropName)?.id;
    const editor = (await (await page.request.get(`/api/admin/drops/${dropId}`)).json()) as {
      drop: { version: number; name_ru: string; products: Array<{ id: number }> };
    };
    const released = await page.request.patch(`/api/admin/drops/${dropId}`, {
      headers: { origin: baseUrl },
      data: {
        name_ru: editor.drop.name_ru,
        name_en: dropName,
        release_at: new Date(Date.now() - 60_000).toISOString(),
        hold_minutes: 10,
        per_customer_limit: 2,
        products: editor.drop.products.map((product) => product.id),
        version: editor.drop.version,
      },
    });
    expect(released.status(), await released.text()).toBe(200);
    const added = await page.request.post('/api/basket', {
      headers: { origin: baseUrl },
      data: { product: productId },
    });
    expect(added.status(), await added.text()).toBe(200);
    const placed = await page.request.post('/api/order', {
      headers: { origin: baseUrl },
      data: {
        locale: 'en',
        paymentMethod: 'robokassa',
        email: managerEmail,
        firstName: 'Ada',
        lastName: 'Manager',
        phone: '+7 900 123-45-67',
        deliveryMethod: 'russian_post',
        country: 'RU',
        city: 'Kazan',
        zip: '420111',
        address: '1 Test Street',
      },
    });
    expect(placed.status(), await placed.text()).toBe(200);
    const orderId = ((await placed.json()) as { order: { id: number } }).order.id;
    const holds = page.getByRole('region', { name: 'Unpaid holds — orders: 1, units: 1' });
    await holds.waitFor({ timeout: 15_000 });
    await holds.getByRole('link', { name: `#${orderId}` }).waitFor();
    await shot(page, 'live-en-1440-selling');
    expect(await axeViolations(page, 'main')).toEqual([]);

    await page.getByRole('link', { name: '← All drops' }).click();
    await page
      .getByRole('region', { name: 'Live now' })
      .getByRole('link', { name: dropName, exact: true })
      .waitFor();

    // The product's form says which drop sets its release time, links to it, and keeps its own limit.
    await page.goto(`/admin/products/${productId}`);
    const releaseFields = page.getByRole('group', { name: 'Release and limits' });
    await releaseFields.getByText(/: goes on sale with it, \d+ Nov 2026/).waitFor();
    await releaseFields.getByLabel('Limit per customer').fill('1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The product has been saved.').waitFor();
    await page.getByRole('columnheader', { name: 'Limit per customer' }).waitFor();
    await shot(page, 'product-en-1440');
    // The release fields only: the description editor's toolbar has a finding of its own (not ours).
    expect(await axeViolations(page, '.admin-form__grid--timing')).toEqual([]);
    await releaseFields.getByRole('link', { name: dropName }).click();
    await page.getByRole('heading', { level: 1, name: `Drop: ${dropName}` }).waitFor();
  });
});
