import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderTimelineResponse } from '../../contract/order-timeline.ts';
import { trackingSettings } from '../admin/shipment-routes.ts';
import { paymentTransactions, productVariants, stockMovements, users } from '../db/schema.ts';
import { trackShipments } from '../shipping/tracking.ts';
import { shopWithCarriers } from '../testing/shipping.ts';

/**
 * The order timeline (issue 30 point 7, issue 31 point 3; ADR 0067): what the back office did
 * through its API (a note, a status move, a partial parcel), what the carrier reported, the mails
 * sent, and the money and stock rows, in one feed with who did what.
 */

let world: Awaited<ReturnType<typeof shopWithCarriers>>;
let call: typeof world.call;

beforeAll(async () => {
  world = await shopWithCarriers();
  ({ call } = world);
});
afterAll(() => world?.close());

describe('the order timeline', () => {
  it('puts status moves with their author, notes, payments, refunds, mails, stock and parcel tracking in one chronological feed', async () => {
    const { shop, otpravka } = world;
    const start = Date.now();
    const { order, skus } = await world.paidOrder({ createdAt: new Date(start - 60_000) }, [
      { link: 'wolf-shirt', count: 1, price: 1990_00 },
      { link: 'wolf-mug', count: 2, price: 1200_00 },
    ]);
    const [shirt, mug] = skus as [string, string];
    const [admin] = await shop.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    const [mugVariant] = await shop.db.select().from(productVariants).where(eq(productVariants.sku, mug));
    if (!admin || !mugVariant) throw new Error('fixtures missing');
    // The payment came before anything staff did; the sale took the units.
    await shop.db.insert(paymentTransactions).values({
      orderId: order.id,
      provider: 'robokassa',
      externalId: `pay-${order.id}`,
      providerStatus: 'paid',
      amount: 4390_00,
      currency: 'RUB',
      verified: true,
      raw: {},
      createdAt: new Date(start - 50_000),
    });
    await shop.db.insert(stockMovements).values({
      productId: mugVariant.productId,
      variantId: mugVariant.id,
      delta: -2,
      reason: 'sale',
      orderId: order.id,
      createdAt: new Date(start - 50_000),
    });

    expect((await call('POST', `/orders/${order.id}/notes`, { body: 'Wrap the mugs well' })).status).toBe(
      200,
    );
    const { version } = (await call('GET', `/orders/${order.id}`)).json().order;
    const moved = await call('POST', `/orders/${order.id}`, {
      _method: 'PATCH',
      status: 3,
      version,
      base: { status: 1 },
    });
    expect(moved.status).toBe(200);
    const parcel = await call('POST', `/orders/${order.id}/shipments`, { items: [{ sku: shirt, count: 1 }] });
    expect(parcel.status).toBe(200);
    const { track_code: trackCode, id: shipmentId } = parcel.json().shipment;
    otpravka.advance(trackCode);
    await trackShipments(shop.db, trackingSettings(shop.services), new Date());
    await shop.db.insert(paymentTransactions).values({
      orderId: order.id,
      provider: 'robokassa',
      kind: 'refund',
      externalId: `refund-${order.id}`,
      providerStatus: 'finished',
      amount: 1200_00,
      currency: 'RUB',
      verified: true,
      createdBy: admin.id,
      raw: {},
    });

    const answer = await call('GET', `/orders/${order.id}/timeline`);
    expect(answer.status).toBe(200);
    const { timeline } = orderTimelineResponse.parse(answer.json());
    const times = timeline.map((event) => event.at);
    expect(times).toEqual([...times].sort());

    expect(timeline.filter((event) => event.kind !== 'mail' && event.kind !== 'tracking')).toEqual([
      expect.objectContaining({
        kind: 'payment',
        by: null,
        amount: '4390.00',
        currency: 'RUB',
        accepted: true,
      }),
      expect.objectContaining({ kind: 'stock', sku: mug, delta: -2, reason: 'sale', by: null }),
      expect.objectContaining({ kind: 'note', body: 'Wrap the mugs well', by: 'admin@example.com' }),
      expect.objectContaining({ kind: 'status', status: 3, by: 'admin@example.com', reason: null }),
      expect.objectContaining({
        kind: 'shipment',
        shipment: shipmentId,
        carrier: 'russian_post',
        state: 'created',
        track_code: trackCode,
        items: [{ sku: shirt, count: 1 }],
        by: 'admin@example.com',
      }),
      expect.objectContaining({ kind: 'refund', amount: '1200.00', by: 'admin@example.com' }),
    ]);
    // The parcel's track code went to the shopper, and the carrier's events follow the parcel.
    const shipped = timeline.findIndex((event) => event.kind === 'shipment');
    const mail = timeline.find((event) => event.kind === 'mail' && event.template === 'order-shipped');
    expect(mail).toMatchObject({ to: order.email, subject: expect.stringContaining(String(order.id)) });
    const tracking = timeline.filter((event) => event.kind === 'tracking');
    expect(tracking.length).toBeGreaterThanOrEqual(2);
    expect(tracking[0]).toMatchObject({ shipment: shipmentId, track_code: trackCode, event: 'moving' });
    expect(timeline.findIndex((event) => event.kind === 'tracking')).toBeGreaterThan(shipped);
  });

  it('answers 404 for an order that does not exist', async () => {
    expect((await call('GET', '/orders/999999/timeline')).status).toBe(404);
  });
});
