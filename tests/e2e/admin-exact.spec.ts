import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { signUp } from './shopper.ts';

/**
 * Issue 30's back office, exact: a stock figure typed into a screen that orders have moved since is
 * never applied over them, and every change is a movement in the ledger (ru, 1440 px); an invitation
 * to a customer's address grants her nothing until she accepts it (en, 390 px); the projects list
 * and the variant table usable at 1440 and 390 px.
 */

/** The admin the e2e server seeds (tests/e2e/server.global.ts). */
const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  const login = await page.request.post('/api/login', {
    headers: { origin: baseUrl },
    data: { email, password },
  });
  expect(login.status(), await login.text()).toBe(200);
}

/** A product with sizes S and M in red, 2 and 4 units, made by the admin through the API. */
async function redShirt(page: Page, baseUrl: string, tag = '') {
  const origin = { origin: baseUrl };
  const projects = (await (await page.request.get('/api/admin/projects')).json()) as {
    projects: Array<{ id: number }>;
  };
  const link = `ledger-shirt-${suffix}${tag}`;
  const made = await page.request.post('/api/admin/products', {
    headers: origin,
    data: {
      project: projects.projects[0]?.id,
      name_ru: `Футболка учёта ${suffix}`,
      name_en: `Ledger shirt ${suffix}`,
      link,
      price: 1500,
      quantity: 0,
      visible: true,
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  const productId = ((await made.json()) as { product: { id: number } }).product.id;
  const editor = (await (await page.request.get(`/api/admin/products/${productId}/variants`)).json()) as {
    product: { version: number };
  };
  const saved = await page.request.patch(`/api/admin/products/${productId}/variants`, {
    headers: origin,
    data: {
      version: editor.product.version,
      options: [
        {
          kind: 'size',
          name_ru: 'Размер',
          name_en: 'Size',
          values: [
            { value_ru: 'S', value_en: 'S' },
            { value_ru: 'M', value_en: 'M' },
          ],
        },
        {
          kind: 'colour',
          name_ru: 'Цвет',
          name_en: 'Colour',
          values: [{ value_ru: 'Красный', value_en: 'Red', swatch: '#cc2200' }],
        },
      ],
      variants: [
        { options: ['S', 'Red'], sku: `${link}-s-red`, stock_change: 2 },
        { options: ['M', 'Red'], sku: `${link}-m-red`, stock_change: 4 },
      ],
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const variants = ((await saved.json()) as { product: { variants: Array<{ id: number; sku: string }> } })
    .product.variants;
  const mediumRed = variants.find((variant) => variant.sku === `${link}-m-red`);
  if (!mediumRed) throw new Error('no M/Red variant');
  return { productId, variantId: mediumRed.id, sku: mediumRed.sku };
}

/** A shopper, in a browser of her own, orders one unit of the variant: the order takes it from stock. */
async function shopperBuysOne(page: Page, baseUrl: string, productId: number, variantId: number) {
  const email = await signUp(page, 'ru');
  const origin = { origin: baseUrl };
  const added = await page.request.post('/api/basket', {
    headers: origin,
    data: { product: productId, variant: variantId },
  });
  expect(added.status(), await added.text()).toBe(200);
  const placed = await page.request.post('/api/order', {
    headers: origin,
    data: {
      locale: 'ru',
      paymentMethod: 'robokassa',
      email,
      firstName: 'Алиса',
      lastName: 'Покупкина',
      phone: '+7 900 111-22-33',
      deliveryMethod: 'russian_post',
      country: 'RU',
      city: 'Казань',
      zip: '420111',
      address: 'ул. Баумана, 44',
    },
  });
  expect(placed.status(), await placed.text()).toBe(200);
  return ((await placed.json()) as { order: { id: number } }).order.id;
}

describe('a stock figure from a stale variant table, in Russian at 1440 px', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });

  it('M/Red shows 4, a shopper buys one; the count typed over 4 is refused with 3 shown, the receipt typed then makes 4, and the ledger has a row for each change', async () => {
    const { page, baseUrl } = browser;
    await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    await signIn(page, baseUrl, ADMIN.email, ADMIN.password);
    const { productId, variantId, sku } = await redShirt(page, baseUrl);

    await page.goto(`/admin/products/${productId}`);
    const stockCell = (current: number) =>
      page.getByRole('textbox', {
        name: new RegExp(`^Остаток Размер: M, Цвет: Красный, сейчас ${current}:`),
      });
    await stockCell(4).waitFor();
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);

    // Meanwhile a shopper buys one M/Red: 3 left. The manager's table still says 4.
    const shop = await browser.browser.newContext({ baseURL: baseUrl, locale: 'ru-RU' });
    await shop.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    const orderId = await shopperBuysOne(await shop.newPage(), baseUrl, productId, variantId);
    await shop.close();

    // "One more arrived", typed as the counted figure 5 over the 4 shown: refused, the 3 now shown.
    await stockCell(4).fill('5');
    await page.getByRole('button', { name: 'Сохранить параметры и варианты' }).click();
    await page.getByText(/^Остаток изменился с тех пор, как вы его видели/).waitFor();
    await stockCell(3).waitFor();
    expect(await stockCell(3).inputValue()).toBe('5');

    // Typed as what it is, a receipt of one: applied over whatever the figure is now.
    await stockCell(3).fill('+1');
    await page.getByRole('button', { name: 'Сохранить параметры и варианты' }).click();
    await page.getByText('Параметры и варианты сохранены.').waitFor();
    const stockOf = async () => {
      const answer = (await (await page.request.get(`/api/admin/products/${productId}/variants`)).json()) as {
        product: { variants: Array<{ id: number; quantity: number }> };
      };
      return answer.product.variants.find((variant) => variant.id === variantId)?.quantity;
    };
    expect(await stockOf()).toBe(4);

    // The ledger: the first receipt of 4, the sale of one (naming the order), the receipt of one.
    await page.reload();
    const history = page.getByRole('region', { name: 'Движения остатка' });
    await history.getByRole('combobox', { name: 'Вариант' }).selectOption({ label: sku });
    await history.getByRole('button', { name: 'Показать' }).click();
    await page.waitForURL((url) => url.searchParams.get('variant') === String(variantId));
    // Newest first: SKU, change, stock after, reason, who or which order.
    const rows = async () =>
      Promise.all(
        (await history.locator('tbody tr').all()).map(async (row) =>
          (await row.locator('td').allInnerTexts()).slice(1).map((cell) => cell.trim()),
        ),
      );
    await expect.poll(rows).toEqual([
      [sku, '+1', '4', 'Поступление', ADMIN.email],
      [sku, '−1', '3', 'Продажа', `№ ${orderId}`],
      [sku, '+4', '4', 'Поступление', ADMIN.email],
    ]);
    await history.getByRole('link', { name: `№ ${orderId}` }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/admin-exact-ledger-ru-1440.png', fullPage: true });
  }, 180_000);
});

const INVITATION_LINK = /https?:\/\/[^\s"<>]+\/staff-invitation\?token=[^\s"<>]+/;

describe('an invitation to a customer’s address, in English at 390 px', () => {
  const browser = useBrowser({ viewport: { width: 390, height: 844 } });

  it('grants nothing until she accepts it: her password does not open the orders API before, and does after', async () => {
    const { page, baseUrl } = browser;
    // A customer with an account of her own.
    const email = await signUp(page, 'en');
    const customerPassword = 'checkout-password-1';
    await page.context().clearCookies();
    await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);

    // The admin invites her address as a manager, on a phone.
    await signIn(page, baseUrl, ADMIN.email, ADMIN.password);
    await page.goto('/admin/staff');
    await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption('manager');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText(`An invitation has been sent to ${email}.`).waitFor();
    const pending = page.getByRole('table', { name: 'Invitations waiting to be accepted' });
    await pending.getByRole('row').filter({ hasText: email }).waitFor();
    expect(await page.getByRole('combobox', { name: `Role of ${email}` }).count()).toBe(0);
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    const invitation = new URL((await waitForMail(email, INVITATION_LINK)).match(INVITATION_LINK)?.[0] ?? '');

    // Her own password, before she accepts: still a customer everywhere.
    await page.context().clearCookies();
    await page.context().addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    await signIn(page, baseUrl, email, customerPassword);
    expect((await page.request.get('/api/admin/orders')).status()).toBe(403);
    expect((await page.request.get('/api/admin/customers')).status()).toBe(403);
    const refused = await page.goto('/admin/orders');
    expect(refused?.status()).toBe(403);

    // She opens the mailed link signed in and accepts: now she is a manager.
    await page.goto(`${invitation.pathname}${invitation.search}`);
    await page.getByRole('heading', { level: 1, name: 'Invitation to the back office' }).waitFor();
    await page.getByText(`The address ${email} is invited to run the shop as a manager.`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect((await page.request.get('/api/admin/orders')).status()).toBe(403);
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin'));
    expect((await page.request.get('/api/admin/orders')).status()).toBe(200);
    // A manager: no staff page in the menu, and the staff API stays closed.
    expect((await page.request.get('/api/admin/staff')).status()).toBe(403);
    expect(await sidewaysOverflow(page)).toEqual([]);

    // The staff page tells her who can help instead of an error; a product offers her no Delete.
    await page.goto('/admin/staff');
    await page
      .getByText('Only an administrator invites staff and changes roles.', { exact: false })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Send the invitation' }).count()).toBe(0);
    const listed = (await (await page.request.get('/api/admin/products')).json()) as {
      list: Array<{ id: number }>;
    };
    await page.goto(`/admin/products/${listed.list[0]?.id}`);
    await page.getByRole('button', { name: 'Save' }).first().waitFor();
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);

    // The admin revokes an invitation and changes a role only once he confirms it.
    const adminContext = await browser.browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 390, height: 844 },
    });
    await adminContext.addCookies([{ name: 'overlay-test-info', value: 'hidden', url: baseUrl }]);
    const admin = await adminContext.newPage();
    await signIn(admin, baseUrl, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/staff');
    const invited = `revoked-${suffix}@example.com`;
    await admin.getByLabel('E-mail').fill(invited);
    await admin.getByRole('button', { name: 'Send the invitation' }).click();
    await admin.getByText(`An invitation has been sent to ${invited}.`).waitFor();
    const waiting = admin
      .getByRole('table', { name: 'Invitations waiting to be accepted' })
      .getByRole('row')
      .filter({ hasText: invited });
    admin.once('dialog', (dialog) => void dialog.dismiss());
    await waiting.getByRole('button', { name: 'Revoke' }).click();
    expect(await waiting.count()).toBe(1);
    admin.once('dialog', (dialog) => void dialog.accept());
    await waiting.getByRole('button', { name: 'Revoke' }).click();
    await admin.getByText(`The invitation to ${invited} is revoked.`).waitFor();
    await waiting.waitFor({ state: 'detached' });

    // Dismissed, she stays a manager; confirmed, she is off the staff.
    const role = admin.getByRole('combobox', { name: `Role of ${email}` });
    const asked: string[] = [];
    admin.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await role.selectOption('customer');
    expect(asked).toEqual([`Change the role of ${email} to “Not staff (customer)”?`]);
    expect(await role.inputValue()).toBe('manager');
    expect((await page.request.get('/api/admin/orders')).status()).toBe(200);
    admin.once('dialog', (dialog) => void dialog.accept());
    await role.selectOption('customer');
    await admin.getByText(`${email} is now: Not staff (customer).`).waitFor();
    // Her sessions end with the role: the back office's API no longer knows her.
    expect((await page.request.get('/api/admin/orders')).status()).toBe(401);

    await adminContext.close();
  }, 120_000);
});

for (const width of [1440, 390] as const) {
  describe(`the projects list and a variant table at ${width} px`, () => {
    const browser = useBrowser({ locale: 'ru-RU', viewport: { width, height: 900 } });

    it('shows each project logo at 48 px with every row’s actions inside the row, and the variant table whole on a wide screen or scrolling in its own box on a phone', async () => {
      const { page, baseUrl } = browser;
      await page.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
      await signIn(page, baseUrl, ADMIN.email, ADMIN.password);

      await page.goto('/admin/projects');
      await page.locator('.admin-table tbody tr').first().waitFor();
      const rows = await page.evaluate(() =>
        [...document.querySelectorAll('.admin-table tbody tr')].map((row) => {
          const box = row.getBoundingClientRect();
          const logo = row.querySelector('img');
          const actions = [...row.querySelectorAll('td:last-child :is(a, button)')].map((action) =>
            action.getBoundingClientRect(),
          );
          return {
            logo: logo ? Math.round(logo.getBoundingClientRect().width) : null,
            actions: actions.length,
            inside: actions.every(
              (action) => action.width > 0 && action.left >= box.left - 1 && action.right <= box.right + 1,
            ),
          };
        }),
      );
      const logos = rows.flatMap((row) => (row.logo === null ? [] : [row.logo]));
      expect(logos.length).toBeGreaterThan(0);
      expect(new Set(logos)).toEqual(new Set([48]));
      expect(rows.every((row) => row.actions > 0 && row.inside)).toBe(true);
      expect(await sidewaysOverflow(page)).toEqual([]);
      await page.screenshot({ path: `test-results/admin-projects-ru-${width}.png`, fullPage: true });

      const { productId } = await redShirt(page, baseUrl, `-layout-${width}`);
      await page.goto(`/admin/products/${productId}`);
      // The variant's figures, then its customs data: two tables, each whole on a wide screen.
      const tableBoxes = page.locator('.admin-table-scroll', { has: page.locator('table.admin-variants') });
      await tableBoxes.first().waitFor();
      expect(await sidewaysOverflow(page)).toEqual([]);
      const sizes = await tableBoxes.evaluateAll((boxes) =>
        boxes.map((box) => ({
          table: box.scrollWidth,
          box: box.clientWidth,
          overflow: getComputedStyle(box).overflowX,
        })),
      );
      expect(sizes).toHaveLength(2);
      for (const size of sizes)
        if (width === 1440) expect(size.table, JSON.stringify(size)).toBeLessThanOrEqual(size.box);
        else expect(size.overflow).toBe('auto');
      await tableBoxes.first().screenshot({ path: `test-results/admin-variant-table-ru-${width}.png` });
    }, 120_000);
  });
}
