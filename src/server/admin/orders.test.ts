import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ORDER_FILTER_STATUSES } from '../../contract/admin.ts';
import { mails, orders } from '../db/schema.ts';
import { PAID_STATUSES } from '../orders/status.ts';
import { signedInAdmin } from '../testing/admin.ts';
import { createTestApp } from '../testing/app.ts';
import { ORDER_CSV_BATCH, ORDER_CSV_COLUMNS } from './orders.ts';

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
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
    return response.body;
  };

  it('writes the search result for accounting, with a BOM and formula cells made text', async () => {
    const paidAt = new Date('2026-03-01T10:00:00Z');
    const order = await insertOrder({
      status: 5,
      firstName: '=HYPERLINK("https://evil.example","Анна")',
      lastName: 'Петрова',
      email: '@buyer@example.com',
      trackCode: '+RA123',
      currency: 'USD',
      paidAt,
    });
    await insertOrder({ status: 0 });
    const csv = await exportCsv('?status=>2');
    expect(csv.startsWith('\uFEFFid,date,')).toBe(true);
    const [header, ...rows] = parse(csv, { bom: true }) as string[][];
    expect(header).toEqual([...ORDER_CSV_COLUMNS]);
    expect(rows).toEqual([
      [
        String(order.id),
        order.createdAt.toISOString(),
        '5',
        `'=HYPERLINK("https://evil.example","Анна") Петрова`,
        "'@buyer@example.com",
        'RU',
        'russian_post',
        '2500.00',
        '350.50',
        '2850.50',
        'USD',
        paidAt.toISOString(),
        "'+RA123",
      ],
    ]);
  });

  it('streams every order of a search larger than one batch, newest first', async () => {
    const count = ORDER_CSV_BATCH + 3;
    const inserted = await shop.db
      .insert(orders)
      .values(Array.from({ length: count }, () => orderValues({ status: 1 })))
      .returning({ id: orders.id });
    await insertOrder({ status: 2 });
    const rows = (parse(await exportCsv('?status=1'), { bom: true, from_line: 2 }) as string[][]).map((row) =>
      Number(row[0]),
    );
    expect(rows).toEqual(inserted.map((row) => row.id).sort((a, b) => b - a));
    await shop.db.delete(orders).where(
      inArray(
        orders.id,
        inserted.map((row) => row.id),
      ),
    );
  });
});
