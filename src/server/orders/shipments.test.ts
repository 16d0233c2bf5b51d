import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mails, orders, products, shipments } from '../db/schema.ts';
import { pdfText } from '../testing/pdf-text.ts';
import { shopWithCarriers } from '../testing/shipping.ts';

/**
 * Shipments with the carriers (issue 31, points 2 and 5; ADR 0057), through the shop's API against
 * the carriers' simulators. The request shapes follow Russian Post's "Отправка" specification
 * (https://otpravka.pochta.ru/specification#/orders-creating_order: PUT /1.0/user/backlog and its
 * `customs-declaration.customs-entries` of amount, country-code, description, tnved-code, value,
 * weight, as restub/PochtaSdk PochtaSdk/Otpravka/CustomsEntry.cs mirrors them; `errors[].error-codes`
 * as PochtaSdk/Otpravka/OrderResponseBase.cs reads them; #/documents-create_f7_f22 for the label)
 * and Boxberry's ParselCreate as iamwildtuna/boxberry-sdk src/Entity/Order.php writes its `sdata`.
 * Batches (ADR 0087): #/batches-create_batch_from_N_orders (`POST /1.0/user/shipment?sending-date`
 * with ids → `batches[].batch-name`) and #/batches-move_orders_to_batch (`POST /1.0/batch/{name}/shipment`),
 * as fogstream/fs-pochta-api pochta/api/batches.py calls them and restub/PochtaSdk
 * PochtaSdk/Otpravka/BatchResponse.cs reads them. Refusal codes: #/enums-base-envelope-type as
 * PochtaSdk/Otpravka/ErrorCode.cs lists them (ILLEGAL_INDEX_TO).
 * UNCONFIRMED: Russian Post's refusal texts (the simulator's own), the batch names' form and when a
 * batch stops taking orders, whether `/1.0/forms/{id}/forms` carries the CN23 (a setting,
 * RUSSIAN_POST_CN23_PATH), and Boxberry's refusal texts.
 */

let world: Awaited<ReturnType<typeof shopWithCarriers>>;
let shop: typeof world.shop;
let otpravka: typeof world.otpravka;
let boxberry: typeof world.boxberry;
let call: typeof world.call;

beforeAll(async () => {
  world = await shopWithCarriers();
  ({ shop, otpravka, boxberry, call } = world);
  await shop.db
    .update(products)
    .set({ hsCode: '610910', originCountry: 'RU', customsDescription: 'Cotton T-shirt', netWeight: 180 })
    .where(eq(products.link, 'wolf-shirt'));
  await shop.db
    .update(products)
    .set({ hsCode: '691200', originCountry: 'CN', customsDescription: 'Ceramic mug', netWeight: 400 })
    .where(eq(products.link, 'wolf-mug'));
});
afterAll(() => world?.close());
beforeEach(() => {
  otpravka.setMode('normal');
  boxberry.setMode('normal');
});

/** A paid order of one wolf shirt (1,990 ₽) and two wolf mugs (1,200 ₽ each). */
async function paidOrder(values: Partial<typeof orders.$inferInsert>) {
  const { order, skus } = await world.paidOrder(values, [
    { link: 'wolf-shirt', count: 1, price: 2500_00, sale: 1990_00 },
    { link: 'wolf-mug', count: 2, price: 1200_00 },
  ]);
  return { order, shirt: skus[0] ?? '', mug: skus[1] ?? '' };
}

/** Ships the items named, or all that is left of the order, and answers the parcel made. */
async function ship(orderId: number, items?: Array<{ sku: string; count: number }>) {
  const answer = await call('POST', `/orders/${orderId}/shipments`, items ? { items } : {});
  expect(answer.status).toBe(200);
  return answer.json().shipment;
}

/** A Boxberry parcel as it is answered once made. */
const boxberryParcel = {
  carrier: 'boxberry',
  state: 'created',
  track_code: expect.stringMatching(/^BB\d+$/),
};

const orderRow = async (id: number) => (await shop.db.select().from(orders).where(eq(orders.id, id)))[0];
const shippedMailsTo = (email: string) =>
  shop.db
    .select()
    .from(mails)
    .where(eq(mails.to, email))
    .then((rows) => rows.filter((row) => row.template === 'order-shipped'));

describe('a Russian Post shipment', () => {
  it('abroad: sends the recipient, weight, value and CN23 entries; the barcode becomes the track code and is mailed', async () => {
    const { order, shirt, mug } = await paidOrder({
      locale: 'en',
      deliveryCountry: 'DE',
      deliveryCity: 'Berlin',
      deliveryAddress: 'Unter den Linden 1',
      deliveryZip: '10117',
      firstName: 'Jane',
      lastName: 'Doe',
    });
    const shipment = await ship(order.id);
    expect(shipment).toMatchObject({
      carrier: 'russian_post',
      state: 'created',
      track_code: expect.stringMatching(/^RA\d{9}RU$/),
      items: [
        { sku: shirt, count: 1 },
        { sku: mug, count: 2 },
      ].sort((a, b) => a.sku.localeCompare(b.sku)),
    });
    const sent = otpravka.orders().at(-1);
    expect(sent?.body).toMatchObject({
      'order-num': `${order.id}-${shipment.id}`,
      'mail-direct': 276,
      'str-index-to': '10117',
      surname: 'Doe',
      'given-name': 'Jane',
      mass: 200 + 2 * 450,
      'insr-value': 1990_00 + 2 * 1200_00,
      'customs-declaration': {
        currency: 'RUB',
        'entries-type': 'SALE_OF_GOODS',
        'customs-entries': expect.arrayContaining([
          {
            amount: 1,
            'country-code': 643,
            description: 'Cotton T-shirt',
            'tnved-code': '610910',
            value: 1990_00,
            weight: 180,
          },
          {
            amount: 2,
            'country-code': 156,
            description: 'Ceramic mug',
            'tnved-code': '691200',
            value: 1200_00,
            weight: 400,
          },
        ]),
      },
    });
    expect(await orderRow(order.id)).toMatchObject({ status: 5, trackCode: shipment.track_code });
    const mailsSent = await shippedMailsTo(order.email);
    expect(mailsSent).toHaveLength(1);
    expect(mailsSent[0]?.text).toContain(shipment.track_code);

    const label = await call('GET', `/orders/${order.id}/shipments/${shipment.id}/label`);
    expect(label.status).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    expect(label.raw.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(label.raw)).toContain(shipment.track_code);
    const cn23 = await call('GET', `/orders/${order.id}/shipments/${shipment.id}/cn23`);
    expect(cn23.status).toBe(200);
    const text = pdfText(cn23.raw);
    expect(text).toContain('CN23');
    expect(text).toContain('Cotton T-shirt | 1 | 610910 | 1990.00 | 180 | 643');
    expect(text).toContain('Ceramic mug | 2 | 691200 | 1200.00 | 400 | 156');
  });

  // PostgreSQL shows the race; PGlite runs the two one after the other and must agree.
  it('made twice at the same moment is one parcel', async () => {
    const { order } = await paidOrder({});
    const before = otpravka.orders().length;
    const answers = await Promise.all([
      call('POST', `/orders/${order.id}/shipments`, {}),
      call('POST', `/orders/${order.id}/shipments`, {}),
    ]);
    // One makes the parcel; the other finds it being made (409) or nothing left to ship (422).
    expect(answers.map((answer) => answer.status)).toContain(200);
    for (const answer of answers) expect([200, 409, 422]).toContain(answer.status);
    expect(otpravka.orders().length - before).toBe(1);
    expect(await shop.db.select().from(shipments).where(eq(shipments.orderId, order.id))).toHaveLength(1);
    // A click after it: the order is shipped, and no parcel is made.
    const again = await call('POST', `/orders/${order.id}/shipments`, {});
    expect(again.status).toBe(409);
    expect(otpravka.orders().length - before).toBe(1);
  });

  it('refused by the carrier: shows its message in the manager’s language and changes nothing', async () => {
    const { order } = await paidOrder({ deliveryZip: '000000' });
    const answer = await call('POST', `/orders/${order.id}/shipments?locale=en`, { locale: 'en' });
    expect(answer.status).toBe(422);
    // ILLEGAL_INDEX_TO is a code a manager can act on: said in English, Russian Post's words kept aside.
    expect(answer.json()).toMatchObject({
      message: 'The carrier refused the shipment; nothing was changed.',
      errors: {
        carrier: ['The carrier does not accept the recipient’s postcode: correct the order’s address.'],
      },
      carrier_text: 'Индекс 000000 не существует',
    });
    expect(await shop.db.select().from(shipments).where(eq(shipments.orderId, order.id))).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: null, shippedMailAt: null });
    const inRussian = await call('POST', `/orders/${order.id}/shipments?locale=ru`, { locale: 'ru' });
    expect(inRussian.json().errors.carrier).toEqual([
      'Перевозчик не принимает индекс получателя: исправьте адрес в заказе.',
    ]);
  });

  it('joins the day’s open batch; once that batch is handed in, the next parcel opens a new one', async () => {
    const first = await call('POST', `/orders/${(await paidOrder({})).order.id}/shipments`, {});
    const batch = first.json().shipment.batch;
    expect(batch).toEqual(expect.any(String));
    const moves = otpravka
      .requests()
      .filter((request) => request === `POST /1.0/batch/${batch}/shipment`).length;
    const second = await call('POST', `/orders/${(await paidOrder({})).order.id}/shipments`, {});
    expect(second.json().shipment.batch).toBe(batch);
    expect(
      otpravka.requests().filter((request) => request === `POST /1.0/batch/${batch}/shipment`),
    ).toHaveLength(moves + 1);
    expect(otpravka.batches().find((made) => made.name === batch)?.orders).toHaveLength(
      otpravka.orders().filter((order) => order.batch === batch).length,
    );

    otpravka.closeBatch(batch);
    const third = await call('POST', `/orders/${(await paidOrder({})).order.id}/shipments`, {});
    expect(third.status).toBe(200);
    expect(third.json().shipment).toMatchObject({ state: 'created', batch: expect.any(String) });
    expect(third.json().shipment.batch).not.toBe(batch);
  });

  it('without the shop’s “Отправка” credentials is refused as unconfigured and changes nothing', async () => {
    const { order } = await paidOrder({});
    const settings = shop.services.config.otpravka;
    const token = settings.accessToken;
    const requests = otpravka.requests().length;
    settings.accessToken = '';
    try {
      const answer = await call('POST', `/orders/${order.id}/shipments?locale=en`, { locale: 'en' });
      expect(answer.status).toBe(409);
      expect(answer.json()).toMatchObject({
        intlError: 'shipment-carrier-unconfigured',
        message:
          'The shop has no account with this carrier yet (its credentials are not set): nothing was sent. See docs/production.md.',
      });
      const inRussian = await call('POST', `/orders/${order.id}/shipments?locale=ru`, { locale: 'ru' });
      expect(inRussian.json().message).toBe(
        'У магазина ещё нет договора с этим перевозчиком (не заданы его ключи): ничего не отправлено. См. docs/production.md.',
      );
    } finally {
      settings.accessToken = token;
    }
    expect(otpravka.requests().length).toBe(requests);
    expect(await shop.db.select().from(shipments).where(eq(shipments.orderId, order.id))).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: null });
  });

  it('during an outage leaves the order as it was; the same request later makes the parcel once', async () => {
    const { order } = await paidOrder({});
    const before = otpravka.orders().length;
    otpravka.setMode('down');
    const down = await call('POST', `/orders/${order.id}/shipments`, {});
    expect(down.status).toBe(503);
    expect(down.json().intlError).toBe('shipment-carrier-down');
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: null, shippedMailAt: null });
    expect((await call('GET', `/orders/${order.id}/shipments`)).json().shipments.list).toMatchObject([
      { state: 'failed' },
    ]);
    otpravka.setMode('normal');
    const retried = await call('POST', `/orders/${order.id}/shipments`, {});
    expect(retried.status).toBe(200);
    expect(retried.json().shipment.state).toBe('created');
    expect(otpravka.orders().length - before).toBe(1);
    expect(await orderRow(order.id)).toMatchObject({ status: 5 });
  });

  it('abroad without customs data is refused before the carrier is asked', async () => {
    const { order } = await paidOrder({ deliveryCountry: 'US', deliveryZip: '10001' });
    await shop.db.update(products).set({ hsCode: null }).where(eq(products.link, 'wolf-mug'));
    const requests = otpravka.requests().length;
    const answer = await call('POST', `/orders/${order.id}/shipments`, {});
    expect(answer.status).toBe(409);
    expect(answer.json().intlError).toBe('customs-data-missing');
    expect(otpravka.requests().length).toBe(requests);
    await shop.db.update(products).set({ hsCode: '691200' }).where(eq(products.link, 'wolf-mug'));
  });
});

describe('a Boxberry shipment', () => {
  it('to a pickup point, one item of two now and the rest later, each with its own track code', async () => {
    const { order, shirt, mug } = await paidOrder({
      deliveryMethod: 'boxberry',
      deliveryCity: 'Москва',
      deliveryAddress: 'Тверская ул, д.7',
      deliveryZip: '125009',
    });
    const parcel = await ship(order.id, [{ sku: shirt, count: 1 }]);
    expect(parcel).toMatchObject(boxberryParcel);
    expect(boxberry.parcels().at(-1)?.data).toMatchObject({
      order_id: `${order.id}-${parcel.id}`,
      vid: '1',
      shop: { name: '10014', name1: '010' },
      items: [{ id: shirt, quantity: '1', price: '1990.00' }],
      weights: { weight: '200' },
    });
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: parcel.track_code });
    const listed = (await call('GET', `/orders/${order.id}/shipments`)).json().shipments;
    expect(listed.left).toEqual([{ sku: mug, count: 2 }]);

    const label = await call('GET', `/orders/${order.id}/shipments/${parcel.id}/label`);
    expect(label.status).toBe(200);
    expect(pdfText(label.raw)).toContain(`Track: ${parcel.track_code}`);

    const second = await ship(order.id);
    expect(second.track_code).not.toBe(parcel.track_code);
    expect(await orderRow(order.id)).toMatchObject({ status: 5, trackCode: parcel.track_code });
    const sent = await shippedMailsTo(order.email);
    expect(
      sent.map((mail) => mail.text.includes(parcel.track_code) || mail.text.includes(second.track_code)),
    ).toEqual([true, true]);
    // Shipped now: no third parcel.
    expect(
      (await call('POST', `/orders/${order.id}/shipments`, { items: [{ sku: mug, count: 1 }] })).status,
    ).toBe(409);
  });

  it('to the pickup point the shopper chose, not the one nearest the postcode', async () => {
    const { order } = await paidOrder({
      deliveryMethod: 'boxberry',
      deliveryCity: 'Москва',
      deliveryAddress: 'Пункт выдачи: Профсоюзная ул, д.12',
      // Tverskaya's postcode: its point (10014) is the nearest, but the shopper chose Profsoyuznaya.
      deliveryZip: '125009',
      pickupPointCode: '10045',
    });
    boxberry.clearRequests();
    const parcel = await ship(order.id);
    expect(parcel).toMatchObject(boxberryParcel);
    expect(boxberry.parcels().at(-1)?.data).toMatchObject({
      vid: '1',
      shop: { name: '10045', name1: '010' },
    });
    expect(boxberry.requests().map((query) => query.method)).not.toContain('PointsByPostCode');
  });

  it('of an order placed before the point was kept: to the point nearest its postcode, as it was quoted', async () => {
    const { order } = await paidOrder({
      deliveryMethod: 'boxberry',
      deliveryCity: 'Москва',
      deliveryAddress: 'Пункт выдачи: Профсоюзная ул, д.12',
      deliveryZip: '117292',
      pickupPointCode: null,
    });
    await ship(order.id);
    expect(boxberry.parcels().at(-1)?.data).toMatchObject({ vid: '1', shop: { name: '10045' } });
  });

  // ParselCreate's courier parcel: `vid` 2, no pickup point, the door in `kurdost` (index, citi,
  // addressp), as iamwildtuna/boxberry-sdk src/Entity/Order.php writes it.
  it('by courier: sends the door’s address, and the track code comes back', async () => {
    const { order } = await paidOrder({
      deliveryMethod: 'boxberry.courier',
      deliveryCity: 'Москва',
      deliveryAddress: 'Тверская ул, д.7, кв. 5',
      deliveryZip: '125009',
    });
    const parcel = await ship(order.id);
    expect(parcel).toMatchObject(boxberryParcel);
    expect(boxberry.parcels().at(-1)?.data).toMatchObject({
      order_id: `${order.id}-${parcel.id}`,
      vid: '2',
      shop: { name: '', name1: '010' },
      kurdost: { index: '125009', citi: 'Москва', addressp: 'Тверская ул, д.7, кв. 5' },
      weights: { weight: String(200 + 2 * 450) },
    });
    expect(await orderRow(order.id)).toMatchObject({ status: 5, trackCode: parcel.track_code });
  });

  it('refused by Boxberry: says why in the manager’s language and changes nothing', async () => {
    const { order } = await paidOrder({ deliveryMethod: 'boxberry', deliveryZip: '000000' });
    const parcels = boxberry.parcels().length;
    const answer = await call('POST', `/orders/${order.id}/shipments?locale=en`, { locale: 'en' });
    expect(answer.status).toBe(422);
    expect(answer.json()).toMatchObject({
      message: 'The carrier refused the shipment; nothing was changed.',
      errors: {
        carrier: ['The carrier does not accept the recipient’s postcode: correct the order’s address.'],
      },
      carrier_text: 'Почтовый индекс 000000 не найден',
    });
    expect(boxberry.parcels().length).toBe(parcels);
    expect(await shop.db.select().from(shipments).where(eq(shipments.orderId, order.id))).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: null, shippedMailAt: null });
  });

  it('during a Boxberry outage leaves the order as it was; the same request later makes one parcel', async () => {
    const { order } = await paidOrder({
      deliveryMethod: 'boxberry',
      deliveryCity: 'Москва',
      deliveryAddress: 'Тверская ул, д.7',
      deliveryZip: '125009',
    });
    const parcels = boxberry.parcels().length;
    boxberry.setMode('down');
    const down = await call('POST', `/orders/${order.id}/shipments?locale=en`, { locale: 'en' });
    expect(down.status).toBe(503);
    expect(down.json()).toMatchObject({
      intlError: 'shipment-carrier-down',
      message: 'The carrier cannot be reached; nothing was changed. Try again in a few minutes.',
    });
    expect(await orderRow(order.id)).toMatchObject({ status: 1, trackCode: null, shippedMailAt: null });
    expect((await call('GET', `/orders/${order.id}/shipments`)).json().shipments.list).toMatchObject([
      { state: 'failed' },
    ]);
    expect(boxberry.parcels().length).toBe(parcels);
    boxberry.setMode('normal');
    expect(await ship(order.id)).toMatchObject(boxberryParcel);
    expect(boxberry.parcels().length).toBe(parcels + 1);
    expect(await orderRow(order.id)).toMatchObject({ status: 5 });
  });
});

describe('shipments in bulk from the orders list', () => {
  it('ships each ticked order with its carrier, lists a refusal with the carrier’s message, and a repeat makes no second parcel', async () => {
    const post = await paidOrder({});
    const post2 = await paidOrder({ deliveryCity: 'Москва', deliveryZip: '101000' });
    const refused = await paidOrder({ deliveryZip: '000000' });
    const pickup = await paidOrder({
      deliveryMethod: 'boxberry',
      deliveryCity: 'Москва',
      deliveryAddress: 'Тверская ул, д.7',
      deliveryZip: '125009',
    });
    const atRussianPost = otpravka.orders().length;
    const atBoxberry = boxberry.parcels().length;
    const atRequests = otpravka.requests().length;
    const ids = [post.order.id, post2.order.id, refused.order.id, pickup.order.id];
    const answer = await call('POST', '/shipments?locale=en', { orders: ids });
    expect(answer.status).toBe(200);
    const { results } = answer.json();
    expect(results).toEqual([
      {
        order: post.order.id,
        outcome: 'created',
        // A domestic Russian Post barcode is 14 digits.
        track_codes: [expect.stringMatching(/^\d{14}$/)],
        message: null,
        errors: {},
      },
      {
        order: post2.order.id,
        outcome: 'created',
        track_codes: [expect.stringMatching(/^\d{14}$/)],
        message: null,
        errors: {},
      },
      {
        order: refused.order.id,
        outcome: 'refused',
        track_codes: [],
        message: 'The carrier refused the shipment; nothing was changed.',
        errors: {
          carrier: ['The carrier does not accept the recipient’s postcode: correct the order’s address.'],
        },
      },
      {
        order: pickup.order.id,
        outcome: 'created',
        track_codes: [expect.stringMatching(/^BB\d+$/)],
        message: null,
        errors: {},
      },
    ]);
    expect(otpravka.orders().length - atRussianPost).toBe(2);
    expect(boxberry.parcels().length - atBoxberry).toBe(1);
    // The two Russian Post orders were gathered with one call into one batch, which the order page shows.
    const gatherings = otpravka
      .requests()
      .slice(atRequests)
      .filter(
        (request) => request.startsWith('POST /1.0/user/shipment') || request.startsWith('POST /1.0/batch/'),
      );
    expect(gatherings).toHaveLength(1);
    const [first, second] = await Promise.all(
      [post, post2].map(
        async ({ order }) => (await call('GET', `/orders/${order.id}/shipments`)).json().shipments.list[0],
      ),
    );
    expect(first.batch).toEqual(expect.any(String));
    expect(second.batch).toBe(first.batch);
    expect(otpravka.batches().find((batch) => batch.name === first.batch)?.orders).toEqual(
      expect.arrayContaining(
        otpravka
          .orders()
          .slice(atRussianPost)
          .map((order) => order.id),
      ),
    );
    expect(await orderRow(post.order.id)).toMatchObject({ status: 5, trackCode: results[0].track_codes[0] });
    expect(await orderRow(refused.order.id)).toMatchObject({ status: 1, trackCode: null });
    expect(await shop.db.select().from(shipments).where(eq(shipments.orderId, refused.order.id))).toEqual([]);

    // The same orders again: the shipped ones answer their parcels, nothing new is made.
    const again = (
      await call('POST', '/shipments?locale=ru', { orders: [post.order.id, pickup.order.id] })
    ).json();
    expect(again.results).toEqual([
      expect.objectContaining({
        order: post.order.id,
        outcome: 'existing',
        track_codes: results[0].track_codes,
      }),
      expect.objectContaining({
        order: pickup.order.id,
        outcome: 'existing',
        track_codes: results[3].track_codes,
      }),
    ]);
    expect(otpravka.orders().length - atRussianPost).toBe(2);
    expect(boxberry.parcels().length - atBoxberry).toBe(1);
    expect((await shippedMailsTo(post.order.email)).length).toBe(1);
  });

  it('refuses an empty or oversized selection in the manager’s language', async () => {
    const none = await call('POST', '/shipments?locale=ru', { orders: [] });
    expect(none.status).toBe(422);
    expect(none.json().errors.orders).toEqual(['Отметьте заказы, которые нужно отправить.']);
    const many = await call('POST', '/shipments?locale=en', {
      orders: Array.from({ length: 51 }, (_, index) => index + 1),
    });
    expect(many.status).toBe(422);
    expect(many.json().errors.orders).toEqual(['Ship at most 50 orders at once.']);
  });
});
