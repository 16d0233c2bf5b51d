import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ORDER_FILTER_STATUSES } from '../../contract/admin.ts';
import { mails, orderItems, orders, paymentTransactions } from '../db/schema.ts';
import { ORDER_CSV_BATCH } from '../orders/orders-csv.ts';
import { PAID_STATUSES } from '../orders/status.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let cookies: Record<string, string>;

beforeAll(async () => {
  shop = await createTestApp();
  cookies = await signedInAdmin(shop);
});
afterAll(() => shop.close());
beforeEach(async () => {
  await shop.db.delete(mails);
  await shop.db.delete(orders);
});

const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
  const response = await shop.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

type OrderValues = Partial<typeof orders.$inferInsert>;
const orderValues = (values: OrderValues = {}): typeof orders.$inferInsert => ({
  locale: 'ru',
  email: 'buyer@example.com',
  firstName: 'Анна',
  lastName: 'Петрова',
  phone: '+7 900 000-00-00',
  deliveryMethod: 'russian_post',
  deliveryCountry: 'RU',
  deliveryCity: 'Казань',
  deliveryAddress: 'ул. Баумана, 1',
  deliveryZip: '420111',
  paymentMethod: 'robokassa',
  productsCost: 2_500_00,
  productsAmount: 2_500_00,
  deliveryCost: 350_50,
  expiresAt: new Date(Date.now() + 3600_000),
  ...values,
});
const insertOrder = async (values: OrderValues = {}) => {
  const [row] = await shop.db.insert(orders).values(orderValues(values)).returning();
  if (!row) throw new Error('order insert failed');
  return row;
};
const adminOrder = async (id: number) =>
  (await call('GET', `/api/admin/orders/${id}`)).body.order as Record<string, unknown> & { version: number };
const shippedMails = () => shop.db.select().from(mails).where(eq(mails.template, 'order-shipped'));

describe('orders screen', () => {
  it('opens on paid orders that need action, counts every status and finds every paid one as any paid', async () => {
    const byStatus = new Map<number, number>();
    for (const status of [0, 1, 2, 3, 4, 5, 6, 1]) byStatus.set(status, (await insertOrder({ status })).id);
    const ids = (answer: { body: Record<string, unknown> }) =>
      (answer.body.list as Array<{ status: number }>).map((row) => row.status).sort();

    const opening = await call('GET', '/api/admin/orders');
    expect(ids(opening)).toEqual([1, 1, 3, 4, 6]);
    expect(opening.body).toMatchObject({
      total: 5,
      statusCounts: { 0: 1, 1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1 },
    });
    const anyPaid = await call('GET', '/api/admin/orders?status=>2');
    expect(ids(anyPaid)).toEqual([1, 1, 3, 4, 5, 6]);
    expect(ORDER_FILTER_STATUSES['>2']).toEqual(PAID_STATUSES);
    expect(ids(await call('GET', '/api/admin/orders?status='))).toEqual([0, 1, 1, 2, 3, 4, 5, 6]);
    expect(ids(await call('GET', '/api/admin/orders?status=5'))).toEqual([5]);
  });

  it('counts per status only the orders the other search fields find', async () => {
    await insertOrder({ status: 1, lastName: 'Smith', deliveryCountry: 'GB' });
    await insertOrder({ status: 5, lastName: 'Smith', deliveryCountry: 'GB' });
    await insertOrder({ status: 1 });
    const found = await call('GET', '/api/admin/orders?lastName=smi&country=gb');
    expect(found.body).toMatchObject({ total: 1, statusCounts: { 1: 1, 5: 1 } });
    expect(Object.keys(found.body.statusCounts as object)).toEqual(['1', '5']);
  });
});

describe('finding an order', () => {
  const found = async (query: string) => {
    const answer = await call('GET', `/api/admin/orders?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return {
      ids: (answer.body.list as Array<{ id: number }>).map((row) => row.id).sort((a, b) => a - b),
      allStatuses: answer.body.allStatuses,
    };
  };

  it('answers the pickup point a Boxberry order goes to, and none for an order that has none', async () => {
    const pickup = await insertOrder({ deliveryMethod: 'boxberry', pickupPointCode: '66012' });
    expect(await adminOrder(pickup.id)).toMatchObject({
      delivery_method: 'boxberry',
      pickup_point_code: '66012',
    });
    expect((await adminOrder((await insertOrder()).id)).pickup_point_code).toBeNull();
  });

  it('finds an order by its number whatever the status filter shows', async () => {
    const unpaid = await insertOrder({ status: 0 });
    const shipped = await insertOrder({ status: 5 });
    await insertOrder({ status: 1 });
    // The list opens on "needs action": neither order is in it, but their numbers find them.
    expect((await found('status=action')).ids).not.toContain(unpaid.id);
    expect(await found(`id=${unpaid.id}&status=action`)).toEqual({ ids: [unpaid.id], allStatuses: true });
    expect((await found(`id=${shipped.id}&status=2`)).ids).toEqual([shipped.id]);
    expect((await found(`id=${unpaid.id}`)).ids).toEqual([unpaid.id]);
  });

  it("finds a customer's orders by e-mail in every status on the default filter, and narrows on a chosen one", async () => {
    const unpaid = await insertOrder({ status: 0, email: 'maria@example.com' });
    const shipped = await insertOrder({ status: 5, email: 'Maria@Example.com' });
    const cancelled = await insertOrder({ status: 2, email: 'maria@example.com' });
    await insertOrder({ status: 5, email: 'someone@example.com' });
    expect(await found('email=maria@example&status=action')).toEqual({
      ids: [unpaid.id, shipped.id, cancelled.id],
      allStatuses: true,
    });
    expect(await found('email=maria@example&status=5')).toEqual({ ids: [shipped.id], allStatuses: false });
  });

  it('filters by a period to the minute: from included, before excluded, in any time zone', async () => {
    const at = (iso: string) => insertOrder({ status: 1, createdAt: new Date(iso) });
    const early = await at('2026-03-01T06:59:59Z');
    const start = await at('2026-03-01T07:00:00Z');
    const evening = await at('2026-03-01T17:29:00Z');
    const end = await at('2026-03-01T17:30:00Z');
    // 10:00 to 20:30 in Moscow (UTC+3), as the page sends the manager's datetime-local values.
    const from = encodeURIComponent('2026-03-01T10:00:00+03:00');
    const to = encodeURIComponent('2026-03-01T20:30:00+03:00');
    expect((await found(`status=&from=${from}&to=${to}`)).ids).toEqual([start.id, evening.id]);
    expect((await found(`status=&from=${from}`)).ids).toEqual([start.id, evening.id, end.id]);
    expect((await found(`status=&to=${from}`)).ids).toEqual([early.id]);
    // The CSV finds the same orders.
    const csv = await shop.app.inject({
      method: 'GET',
      url: `/api/admin/orders.csv?status=&from=${from}&to=${to}&separator=,`,
      cookies,
    });
    expect(
      (parse(csv.body, { bom: true, from_line: 2 }) as string[][]).map((row) => Number(row[0])).sort(),
    ).toEqual([start.id, evening.id].sort());

    const backwards = await call('GET', `/api/admin/orders?status=&from=${to}&to=${from}&locale=ru`);
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors).toEqual({ to: ['Начало периода должно быть раньше его конца.'] });
    const csvBackwards = await shop.app.inject({
      method: 'GET',
      url: `/api/admin/orders.csv?from=${to}&to=${from}&locale=en`,
      cookies,
    });
    expect(csvBackwards.statusCode).toBe(422);
    expect(csvBackwards.json()).toMatchObject({
      message: 'The start of the period must come before its end.',
    });
    expect((await call('GET', '/api/admin/orders?from=2026-03-01T10:00')).status).toBe(422);
  });
});

describe('order saves', () => {
  it('keeps a track code and an actual delivery cost saved from two screens loaded at one version', async () => {
    const order = await insertOrder({ status: 3 });
    const loaded = await adminOrder(order.id);
    const trackCode = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      track_code: 'RA123456789RU',
      base: { track_code: '' },
    });
    expect(trackCode.status).toBe(200);
    const cost = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      delivery_cost_actual: '410.50',
      base: { delivery_cost_actual: '' },
    });
    expect(cost.status).toBe(200);
    expect(await adminOrder(order.id)).toMatchObject({
      track_code: 'RA123456789RU',
      delivery_cost_actual: 410.5,
      status: 3,
      version: loaded.version + 2,
    });
  });

  it('refuses a stale save over a field someone else changed and keeps their value', async () => {
    const order = await insertOrder({ status: 3 });
    const loaded = await adminOrder(order.id);
    await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      track_code: 'RA1',
      base: { track_code: '' },
    });
    const overwriting = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      track_code: 'RA2',
      base: { track_code: '' },
    });
    expect(overwriting.status).toBe(409);
    expect(overwriting.body).toMatchObject({ success: false, errors: { version: [expect.any(String)] } });
    // Without the loaded values, any older version is refused.
    const blind = await call('PATCH', `/api/admin/orders/${order.id}`, {
      version: loaded.version,
      delivery_cost_actual: '100',
    });
    expect(blind.status).toBe(409);
    expect(await adminOrder(order.id)).toMatchObject({ track_code: 'RA1', delivery_cost_actual: null });
  });

  it('lets exactly one of two simultaneous saves of one field from one version through', async () => {
    const order = await insertOrder({ status: 3 });
    const loaded = await adminOrder(order.id);
    const save = (trackCode: string) =>
      call('PATCH', `/api/admin/orders/${order.id}`, { version: loaded.version, track_code: trackCode });
    const answers = await Promise.all([save('RA-first'), save('RA-second')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const kept = answers[0]?.status === 200 ? 'RA-first' : 'RA-second';
    expect(await adminOrder(order.id)).toMatchObject({ track_code: kept, version: loaded.version + 1 });
  });
});

describe('shipped mail', () => {
  const save = async (id: number, fields: Record<string, unknown>) => {
    const { version } = await adminOrder(id);
    const answer = await call('PATCH', `/api/admin/orders/${id}`, { version, ...fields });
    expect(answer.status).toBe(200);
  };

  it('goes once when the status comes first and the track code after', async () => {
    const order = await insertOrder({ status: 4, locale: 'en', email: 'sam@example.com' });
    await save(order.id, { status: 5 });
    expect(await shippedMails()).toEqual([]);
    await save(order.id, { track_code: 'RA123456789RU' });
    await save(order.id, { manager_comment: 'Sent on Monday' });
    await save(order.id, { status: 4 });
    await save(order.id, { status: 5 });
    const sent = await shippedMails();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: 'sam@example.com', locale: 'en' });
    expect(sent[0]?.html).toContain('https://www.pochta.ru/tracking?barcode=RA123456789RU');
    expect((await adminOrder(order.id)).shipped_mail_at).toEqual(expect.any(String));
  });

  it('goes once when the track code comes first and the status after, with the Boxberry link', async () => {
    const order = await insertOrder({ status: 3, deliveryMethod: 'boxberry' });
    await save(order.id, { track_code: 'BB-42' });
    expect(await shippedMails()).toEqual([]);
    await save(order.id, { status: 5 });
    await save(order.id, { track_code: 'BB-43' });
    const sent = await shippedMails();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ locale: 'ru' });
    expect(sent[0]?.text).toContain('https://boxberry.ru/tracking-page?id=BB-42');
  });

  it('goes once when the status and the track code are saved at the same moment from two screens', async () => {
    const order = await insertOrder({ status: 4 });
    const { version } = await adminOrder(order.id);
    const answers = await Promise.all([
      call('PATCH', `/api/admin/orders/${order.id}`, { version, status: 5, base: { status: 4 } }),
      call('PATCH', `/api/admin/orders/${order.id}`, {
        version,
        track_code: 'RA987654321RU',
        base: { track_code: '' },
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await shippedMails()).toHaveLength(1);
  });

  it('is sent again on request, and only for a shipped order with a track code', async () => {
    const shipped = await insertOrder({ status: 4 });
    await save(shipped.id, { status: 5, track_code: 'RA111111111RU' });
    const again = await call('POST', `/api/admin/orders/${shipped.id}/shipped-mail`);
    expect(again.status).toBe(200);
    expect(await shippedMails()).toHaveLength(2);

    const waiting = await insertOrder({ status: 5 });
    const refused = await call('POST', `/api/admin/orders/${waiting.id}/shipped-mail`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toMatchObject({ status: [expect.any(String)] });
    expect((await call('POST', '/api/admin/orders/999999/shipped-mail')).status).toBe(404);
    expect(await shippedMails()).toHaveLength(2);
  });
});

describe('orders CSV export', () => {
  const exportCsv = async (query = '') => {
    const response = await shop.app.inject({ method: 'GET', url: `/api/admin/orders.csv${query}`, cookies });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
    return response.body;
  };
  let productIds: { shirt: number; mug: number };
  beforeAll(async () => {
    const catalogue = await insertCatalogue(shop.db);
    productIds = { shirt: catalogue.id('wolf-shirt'), mug: catalogue.id('wolf-mug') };
  });
  const size = (value: string) => [{ nameRu: 'Размер', nameEn: 'Size', valueRu: value, valueEn: value }];
  const transaction = (orderId: number, values: Partial<typeof paymentTransactions.$inferInsert>) => ({
    orderId,
    provider: 'paypal' as const,
    externalId: `tx-${orderId}-${values.kind ?? 'payment'}`,
    providerStatus: 'COMPLETED',
    amount: 0,
    currency: 'USD',
    verified: true,
    raw: {},
    ...values,
  });

  it('writes a dollar order in dollars and in roubles with the rate, its items and its status by name', async () => {
    // 2 × 2990 ₽ and 1 × 1200 ₽ at 92.5 ₽/$: units $32.32 and $12.97, goods $77.61, delivery $3.78.
    const order = await insertOrder({
      status: 5,
      paymentMethod: 'paypal',
      currency: 'USD',
      usdRate: '92.5000',
      productsCost: 7180_00,
      productsAmount: 77_61,
      deliveryCost: 350_00,
      createdAt: new Date('2026-03-01T21:30:00Z'),
      paidAt: new Date('2026-03-01T21:35:00Z'),
      firstName: '=HYPERLINK("https://evil.example","Анна")',
      trackCode: '+RA123',
    });
    await shop.db.insert(orderItems).values([
      {
        orderId: order.id,
        productId: productIds.shirt,
        sku: 'WOLF-M',
        options: size('M'),
        nameRu: 'Футболка «Волк»',
        nameEn: 'Wolf T-shirt',
        price: 2990_00,
        count: 2,
      },
      {
        orderId: order.id,
        productId: productIds.mug,
        sku: 'MUG-1',
        nameRu: 'Кружка',
        nameEn: 'Mug',
        price: 1500_00,
        sale: 1200_00,
        count: 1,
      },
    ]);
    await shop.db.insert(paymentTransactions).values(transaction(order.id, { amount: 81_39 }));
    await insertOrder({ status: 0 });

    const csv = await exportCsv('?status=>2&locale=ru&timeZone=Europe/Moscow');
    // A BOM, then cells split by `;` with decimal commas, which Excel in Russian reads as numbers.
    expect(csv.startsWith('\uFEFFНомер заказа;Дата (Europe/Moscow);Статус;')).toBe(true);
    const [header, ...rows] = parse(csv, { bom: true, delimiter: ';' }) as string[][];
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries((header ?? []).map((name, index) => [name, rows[0]?.[index]]));
    expect(row).toEqual({
      'Номер заказа': String(order.id),
      'Дата (Europe/Moscow)': '2026-03-02 00:30:00',
      Статус: 'Отправлен',
      Покупатель: `'=HYPERLINK("https://evil.example","Анна") Петрова`,
      'E-mail': 'buyer@example.com',
      Страна: 'RU',
      'Способ доставки': 'Почта России',
      'Способ оплаты': 'PayPal',
      'Валюта оплаты': 'USD',
      'Товары, в валюте оплаты': '77,61',
      'Скидка, в валюте оплаты': '0,00',
      'Доставка, в валюте оплаты': '3,78',
      'Итого, в валюте оплаты': '81,39',
      'Оплачено, в валюте оплаты': '81,39',
      'Возвращено, в валюте оплаты': '0,00',
      'Курс, руб. за доллар': '92,5000',
      'Товары, руб.': '7180,00',
      'Скидка, руб.': '0,00',
      'Доставка, руб.': '350,00',
      'Итого, руб.': '7530,00',
      // $81.39 × 92.5 = 7528.575 ₽: what the dollars paid were worth at the order's rate.
      'Оплачено, руб.': '7528,58',
      'Возвращено, руб.': '0,00',
      'Дата оплаты': '2026-03-02 00:35:00',
      'Трек-номер': "'+RA123",
      'Товары (артикул, название, варианты: количество × цена за штуку)':
        'WOLF-M Футболка «Волк» (Размер: M): 2 × 32,32 USD (2990,00 RUB)\nMUG-1 Кружка: 1 × 12,97 USD (1200,00 RUB)',
    });
  });

  it('shows a fully refunded order as paid and refunded, cancelled by name, with the separator chosen', async () => {
    const order = await insertOrder({ status: 2, paidAt: new Date('2026-03-01T10:00:00Z') });
    await shop.db.insert(orderItems).values({
      orderId: order.id,
      productId: productIds.mug,
      sku: 'MUG-1',
      nameRu: 'Кружка',
      nameEn: 'Mug',
      price: 1250_00,
      count: 2,
    });
    const robokassa = { provider: 'robokassa' as const, currency: 'RUB', amount: 2850_50 };
    await shop.db
      .insert(paymentTransactions)
      .values([
        transaction(order.id, { ...robokassa, providerStatus: 'paid' }),
        transaction(order.id, { ...robokassa, kind: 'refund', providerStatus: 'finished' }),
      ]);

    const english = await exportCsv('?status=&locale=en&separator=,');
    expect(english.startsWith('\uFEFFOrder number,Date (UTC),Status,')).toBe(true);
    const [header, line] = parse(english, { bom: true }) as string[][];
    const row = Object.fromEntries((header ?? []).map((name, index) => [name, line?.[index]]));
    expect(row).toMatchObject({
      'Date (UTC)': order.createdAt.toISOString().slice(0, 19).replace('T', ' '),
      Status: 'Cancelled',
      'Payment method': 'Bank card or e-wallet',
      'Currency charged': 'RUB',
      'Total, currency charged': '2850.50',
      'Paid, currency charged': '2850.50',
      'Refunded, currency charged': '2850.50',
      'Rate, RUB per USD': '',
      'Total, RUB': '2850.50',
      'Paid, RUB': '2850.50',
      'Refunded, RUB': '2850.50',
      'Items (SKU, name, options: quantity × unit price)': 'MUG-1 Mug: 2 × 1250.00 RUB',
    });
    // Russian by default: `;` and decimal commas; English by default: `,` and points.
    expect((await exportCsv('?status=&locale=ru')).split('\n')[1]).toContain(';2850,50;');
    expect((await exportCsv('?status=&locale=en')).split('\n')[1]).toContain(',2850.50,');
    const refused = await shop.app.inject({
      method: 'GET',
      url: '/api/admin/orders.csv?separator=|&locale=en',
      cookies,
    });
    expect(refused.statusCode).toBe(422);
  });

  it('streams every order of a search larger than one batch, newest first', async () => {
    const count = ORDER_CSV_BATCH + 3;
    const inserted = await shop.db
      .insert(orders)
      .values(Array.from({ length: count }, () => orderValues({ status: 1 })))
      .returning({ id: orders.id });
    await insertOrder({ status: 2 });
    const rows = (
      parse(await exportCsv('?status=1&separator=,'), { bom: true, from_line: 2 }) as string[][]
    ).map((row) => Number(row[0]));
    expect(rows).toEqual(inserted.map((row) => row.id).sort((a, b) => b - a));
    await shop.db.delete(orders).where(
      inArray(
        orders.id,
        inserted.map((row) => row.id),
      ),
    );
  });
});
