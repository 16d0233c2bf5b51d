import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../src/server/testing/pdf-text.ts';
import { axeViolations } from './axe.ts';
import { sidewaysOverflow, useBrowser } from './browser.ts';
import { waitForMail } from './outbox.ts';
import { call, signUp, useCatalogue } from './shop-api.ts';

/**
 * Shipping for real (issue 31; ADR 0057, 0067) in Russian at 1440 px, against the carriers'
 * simulators of the shop's test mode: a paid order abroad of two products whose customs data the
 * manager fills in from the order page, its Russian Post parcel with label and CN23, the shopper's
 * mails, the carrier's tracking events in the order timeline and the shopper's history; a Boxberry
 * pickup order shipped one item now and the rest from the orders list. Orders are placed and
 * customs-free data made through the API; what the manager and the shopper do, through pages.
 */

const ADMIN = { email: 'admin@vitrina.example', password: 'e2e-admin-password' };

const screenshot = async (page: Page, name: string) => {
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/shipping-${name}.png`, fullPage: true });
};

/** The shopper's order of the products (one unit each), paid on Robokassa's sandbox; answers its id. */
async function paidOrder(
  page: Page,
  baseUrl: string,
  email: string,
  products: number[],
  delivery: {
    deliveryMethod: string;
    country: string;
    city: string;
    zip: string;
    address: string;
    pickupPointCode?: string;
  },
) {
  const origin = { origin: baseUrl };
  for (const product of products)
    expect((await page.request.post('/api/basket', { headers: origin, data: { product } })).status()).toBe(
      200,
    );
  const placed = await page.request.post('/api/order', {
    headers: origin,
    data: {
      locale: 'ru',
      paymentMethod: 'robokassa',
      email,
      firstName: 'Anna',
      lastName: 'Smirnova',
      phone: '+7 900 123-45-67',
      ...delivery,
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
  await page.locator('button.pay').click();
  await page.waitForURL((url) => url.pathname === '/order/result/robokassa');
  return order.id;
}

describe('shipping with the carriers', () => {
  const browser = useBrowser({ locale: 'ru-RU', viewport: { width: 1440, height: 900 } });
  const catalogue = useCatalogue(browser);

  it('ships an order abroad by Russian Post with its CN23 and tracks it; ships a Boxberry order one item now and the rest from the orders list', async () => {
    const { page: shopper, baseUrl } = browser;
    // A name and SKU with no place to break: the packing slip at 390 px must still fit the phone.
    const shirt = await catalogue.product('Wolf_shirt_of_the_northern_pack', 10, 2500);
    const mug = await catalogue.product('Wolf mug', 10, 1200);
    const email = await signUp(shopper, baseUrl, 'ru');
    await shopper.context().addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
    const abroad = await paidOrder(shopper, baseUrl, email, [shirt.id, mug.id], {
      deliveryMethod: 'russian_post',
      country: 'DE',
      city: 'Berlin',
      zip: '10117',
      address: 'Unter den Linden 1',
    });
    const pickup = await paidOrder(shopper, baseUrl, email, [shirt.id, mug.id], {
      deliveryMethod: 'boxberry',
      country: 'RU',
      city: 'Москва',
      zip: '125009',
      address: 'Пункт выдачи: 125009, Москва г, Тверская ул, д.7',
      pickupPointCode: '10014',
    });

    // The manager, in a browser of her own.
    const context = await browser.browser.newContext({
      baseURL: baseUrl,
      locale: 'ru-RU',
      viewport: { width: 1440, height: 900 },
    });
    await context.addCookies([
      { name: 'overlay-test-info', value: 'hidden', url: baseUrl },
      { name: 'locale', value: 'ru', url: baseUrl },
    ]);
    const admin = await context.newPage();
    try {
      expect(
        (await admin.request.post('/api/login', { headers: { origin: baseUrl }, data: ADMIN })).status(),
      ).toBe(200);
      await context.addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);

      // The order abroad lacks its customs data: the order page names both items; the manager fills
      // each product's customs fields from the link and comes back.
      await admin.goto(`/admin/orders/${abroad}`);
      await admin.getByRole('heading', { level: 1, name: `Заказ № ${abroad}` }).waitFor();
      const customs = admin.getByRole('region', { name: 'Таможенная декларация (CN23)' });
      const missing = customs.getByRole('alert');
      for (const product of [shirt, mug])
        await missing.getByRole('link', { name: String(product.name_ru) }).waitFor();
      for (const [product, entry] of [
        [shirt, { hs: '610910', origin: 'RU', description: 'Cotton T-shirt', weight: '180' }],
        [mug, { hs: '691200', origin: 'CN', description: 'Ceramic mug', weight: '400' }],
      ] as const) {
        await admin.goto(`/admin/products/${product.id}`);
        await admin.getByLabel('Код ТН ВЭД', { exact: true }).fill(entry.hs);
        await admin.getByLabel('Страна происхождения', { exact: true }).selectOption(entry.origin);
        await admin.getByLabel('Вес нетто, г', { exact: true }).fill(entry.weight);
        await admin
          .getByLabel('Описание для таможни (на английском)', { exact: true })
          .fill(entry.description);
        await admin.getByRole('button', { name: 'Сохранить', exact: true }).first().click();
        await admin.getByText('Товар сохранён.').waitFor();
      }

      // The Russian Post parcel of both items: its track code, label and CN23.
      await admin.goto(`/admin/orders/${abroad}`);
      await customs.getByRole('table').waitFor();
      expect(await customs.getByRole('alert').count()).toBe(0);
      const shipments = admin.getByRole('region', { name: 'Отправления' });
      await shipments.getByRole('button', { name: 'Создать отправление: Почта России' }).click();
      // The new parcel is listed with its track code (the list reloads with the order).
      await shipments.locator('code').first().waitFor();
      await shipments.getByText('Посылка создана у перевозчика').waitFor();
      const trackCode = (await shipments.locator('code').first().textContent()) ?? '';
      expect(trackCode).toMatch(/^RA\d{9}RU$/);
      // …and the Russian Post batch it was gathered into (ADR 0087).
      await shipments.getByText(/Партия Почты России: \d+/).waitFor();
      const label = await admin.request.get(
        (await shipments.getByRole('link', { name: 'Ярлык (PDF)' }).getAttribute('href')) ?? '',
      );
      expect(label.headers()['content-type']).toBe('application/pdf');
      const labelBytes = await label.body();
      expect(labelBytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(labelBytes)).toContain(trackCode);
      const cn23 = pdfText(
        await (
          await admin.request.get(
            (await shipments.getByRole('link', { name: 'CN23 (PDF)' }).getAttribute('href')) ?? '',
          )
        ).body(),
      );
      expect(cn23).toContain('CN23');
      expect(cn23).toMatch(/Cotton T-shirt \| 1 \| 610910 \| 2500\.00 \| 180 \| 643/);
      expect(cn23).toMatch(/Ceramic mug \| 1 \| 691200 \| 1200\.00 \| 400 \| 156/);
      // The packing slip carries the CN23 items too; on a phone its seven columns scroll in their
      // own box, not the page.
      await admin.setViewportSize({ width: 390, height: 844 });
      await admin.goto(`/admin/orders/${abroad}/packing-slip`);
      await admin.getByRole('table', { name: 'Таможенная декларация (CN23)' }).waitFor();
      expect(await sidewaysOverflow(admin)).toEqual([]);
      await screenshot(admin, 'packing-slip-ru-390');
      expect(await axeViolations(admin)).toEqual([]);
      await admin.setViewportSize({ width: 1440, height: 900 });
      await admin.goto(`/admin/orders/${abroad}`);
      expect(await waitForMail(email, new RegExp(trackCode))).toMatch(/в пути/);

      // The carrier's news: sorted, then waiting at the post office; the tracking job runs now.
      for (let step = 0; step < 2; step++)
        expect((await call(baseUrl, 'POST', `/sandbox/otpravka/advance/${trackCode}`)).status).toBe(200);
      expect(
        (await call<{ asked: number; failed: number }>(baseUrl, 'POST', '/sandbox/tracking/run')).json.failed,
      ).toBe(0);
      const waitingMail = await waitForMail(email, /прибыла в почтовое отделение/);
      expect(waitingMail).toContain(trackCode);
      await admin.reload();
      const timeline = admin.getByRole('region', { name: 'Хронология заказа' });
      await timeline.getByText('Ждёт получателя').waitFor();
      const feed = (await timeline.getByRole('listitem').allTextContents()).join('\n');
      expect(feed).toContain('Прибыло в место вручения');
      expect(feed).toContain(`Передано: Почта России ${trackCode}`);
      expect(feed).toContain(ADMIN.email);
      expect(feed).toMatch(/Заказ №\s\d+ отправлен/);
      expect(await sidewaysOverflow(admin)).toEqual([]);
      await screenshot(admin, 'order-timeline-ru-1440');
      // The same timeline in English on a phone.
      await context.addCookies([{ name: 'locale', value: 'en', url: baseUrl }]);
      await admin.setViewportSize({ width: 390, height: 900 });
      await admin.reload();
      await admin
        .getByRole('region', { name: 'Order timeline' })
        .getByText('Waiting to be collected')
        .waitFor();
      expect(await sidewaysOverflow(admin)).toEqual([]);
      await screenshot(admin, 'order-timeline-en-390');
      await context.addCookies([{ name: 'locale', value: 'ru', url: baseUrl }]);
      await admin.setViewportSize({ width: 1440, height: 900 });

      // The shopper's history shows the same events.
      await shopper.goto(`/order/history/${abroad}`);
      const parcel = shopper.getByRole('region', { name: `Посылка ${trackCode}` });
      await parcel.getByText(/Прибыло в место вручения/).waitFor();

      // Boxberry: the shirt now, from the order page (one item of two)…
      await admin.goto(`/admin/orders/${pickup}`);
      const pickupShipments = admin.getByRole('region', { name: 'Отправления' });
      await pickupShipments.getByLabel(/^Wolf mug/).fill('0');
      await pickupShipments.getByRole('button', { name: 'Создать отправление: Boxberry' }).click();
      await pickupShipments.locator('code').first().waitFor();
      const firstCode = (await pickupShipments.locator('code').first().textContent()) ?? '';
      expect(firstCode).toMatch(/^BB\d+$/);
      const boxberryLabel = pdfText(
        await (
          await admin.request.get(
            (await pickupShipments.getByRole('link', { name: 'Ярлык (PDF)' }).getAttribute('href')) ?? '',
          )
        ).body(),
      );
      expect(boxberryLabel).toContain(`Track: ${firstCode}`);
      expect(boxberryLabel).toContain('Pickup point');
      await waitForMail(email, new RegExp(firstCode));

      // …and the mug from the orders list, ticked with the order and shipped at once.
      await admin.goto(`/admin/orders?id=${pickup}`);
      await admin.getByRole('checkbox', { name: `Отправить заказ № ${pickup}` }).check();
      await admin.getByRole('button', { name: 'Создать отправления для отмеченных заказов' }).click();
      const result = admin.getByRole('list', { name: 'Созданные отправления' }).getByRole('listitem');
      await result.waitFor();
      const resultText = (await result.textContent()) ?? '';
      expect(resultText).toMatch(new RegExp(`№ ${pickup}: передан перевозчику, трек-номер BB\\d+`));
      // The order's parcels: the one made from the order page, and the new one.
      const codes = resultText.match(/BB\d+/g) ?? [];
      const secondCode = codes.at(-1) ?? '';
      expect(codes).toEqual([firstCode, secondCode]);
      expect(secondCode).not.toBe(firstCode);
      await waitForMail(email, new RegExp(secondCode));
      await screenshot(admin, 'bulk-ru-1440');
    } catch (error) {
      await screenshot(admin, 'failure');
      throw error;
    } finally {
      await context.close();
    }
  }, 240_000);
});
