import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import countries from 'i18n-iso-countries';
import { needsCustoms } from '../../contract/customs.ts';
import { kopecksToRoubles } from '../../contract/money.ts';
import { unitPriceSql } from '../catalog/variants.ts';
import type { Database, Executor, Transaction } from '../db/client.ts';
import { orderItems, orders, products, productVariants, shipmentItems, shipments } from '../db/schema.ts';
import { Conflict, DomainError, Invalid, NotFound, Unavailable } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import {
  BoxberryDown,
  BoxberryRefusal,
  type BoxberrySettings,
  parsePointsByPostCode,
} from '../providers/boxberry.ts';
import { boxberryLabel, boxberryPointByZip, createBoxberryParcel } from '../providers/boxberry-parcels.ts';
import { type Box, boxOf, parcelBox } from '../providers/parcel.ts';
import {
  batchedOrder,
  createBacklogOrder,
  gatherIntoBatch,
  OtpravkaDown,
  type OtpravkaOrder,
  OtpravkaRefusal,
  type OtpravkaSettings,
  otpravkaForm,
} from '../providers/russian-post-shipments.ts';
import { assertCustomsComplete, orderCustomsItems } from '../shipping/customs.ts';
import { shipmentEventsOf } from '../shipping/tracking.ts';
import { carrierRefusal } from './carrier-refusals.ts';
import { lockOrder, moveOrderStatus } from './lifecycle.ts';
import type { OrderRow } from './service.ts';
import { queueParcelMail } from './shipped-mail.ts';
import { ORDER_STATUS, TO_SHIP_STATUSES } from './status.ts';

/**
 * Parcels handed to the carriers from the order page (ADR 0057). A shipment carries some or all
 * of an order's items; its request key (order, carrier, items) makes a repeated click find the
 * shipment instead of making a second parcel, and the order's row lock serialises the check of what
 * is left to ship. The carrier is called outside any transaction:
 * - it creates the parcel (at Russian Post: a backlog order gathered into the day's batch, ADR 0087):
 *   the shipment gets the track code, the order its first track code, the
 *   shopper the "shipped" mail with this parcel's code, and once every item has left, the order
 *   moves to shipped (5) through the lifecycle;
 * - it refuses: the shipment is forgotten and the carrier's reasons are shown in the manager's
 *   language (`carrier-refusals.ts`); nothing else changed;
 * - it cannot be reached: the shipment is kept as `failed` (holding the carrier's id of the
 *   parcel when it had one) and the same request retries it; the order is as it was;
 * - it is not configured (no credentials): refused before anything is written.
 */

export interface ShippingSettings {
  otpravka: OtpravkaSettings;
  boxberry: BoxberrySettings;
  defaultBox: Box;
  fetchImpl?: typeof fetch;
  shop?: MailShop;
  /** Today, for the batch's sending date; the real time unless a test says otherwise. */
  now?: () => Date;
}

export type Carrier = 'russian_post' | 'boxberry';

export const carrierOf = (deliveryMethod: string): Carrier =>
  deliveryMethod === 'russian_post' ? 'russian_post' : 'boxberry';

interface LineToShip {
  sku: string;
  count: number;
}

/** What of each item is not in a shipment yet (failed ones hold nothing: they are retried by key). */
async function leftToShip(db: Executor, orderId: number): Promise<Map<string, number>> {
  // One query after the other: `db` is often a transaction, whose connection takes one at a time.
  const items = await db
    .select({ sku: orderItems.sku, count: orderItems.count })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const shipped = await db
    .select({ sku: shipmentItems.sku, count: sql<number>`sum(${shipmentItems.count})::int` })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(eq(shipmentItems.orderId, orderId), ne(shipments.state, 'failed')))
    .groupBy(shipmentItems.sku);
  const taken = new Map(shipped.map((row) => [row.sku, Number(row.count)]));
  return new Map(items.map((item) => [item.sku, item.count - (taken.get(item.sku) ?? 0)]));
}

/** The key of one request: the same order, carrier and items make the same key. */
export const requestKeyOf = (orderId: number, carrier: Carrier, lines: readonly LineToShip[]) =>
  `${orderId}:${carrier}:${[...lines]
    .sort((a, b) => a.sku.localeCompare(b.sku))
    .map((line) => `${line.sku}*${line.count}`)
    .join(',')}`;

const nothingLeft = () => new Invalid('shipment-nothing-left', { items: ['shipment-nothing-left'] });

/** The shipment row, its items and the parcel's measures, written before the carrier is asked. */
async function reserve(
  tx: Transaction,
  order: OrderRow,
  carrier: Carrier,
  lines: LineToShip[],
  actorId: number,
) {
  const left = await leftToShip(tx, order.id);
  if (lines.length === 0 || lines.some((line) => line.count < 1 || line.count > (left.get(line.sku) ?? 0)))
    throw nothingLeft();
  const skus = lines.map((line) => line.sku);
  const customs = await orderCustomsItems(tx, order);
  const measures = await tx
    .select({
      sku: orderItems.sku,
      weight: sql<number>`coalesce(${productVariants.weight}, ${products.weight})`,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
    .where(and(eq(orderItems.orderId, order.id), inArray(orderItems.sku, skus)));
  const countOf = (sku: string) => lines.find((line) => line.sku === sku)?.count ?? 0;
  const weight = measures.reduce((sum, row) => sum + Number(row.weight) * countOf(row.sku), 0);
  const declaredValue = customs
    .filter((item) => skus.includes(item.sku))
    .reduce((sum, item) => sum + Math.round((item.valueKopecks / item.count) * countOf(item.sku)), 0);
  const [row] = await tx
    .insert(shipments)
    .values({
      orderId: order.id,
      carrier,
      requestKey: requestKeyOf(order.id, carrier, lines),
      weight: Math.max(1, weight),
      declaredValue,
      createdBy: actorId,
    })
    .onConflictDoNothing({ target: shipments.requestKey })
    .returning();
  if (!row) return undefined;
  await tx.insert(shipmentItems).values(
    lines.map((line) => {
      const entry = customs.find((item) => item.sku === line.sku);
      return {
        shipmentId: row.id,
        orderId: order.id,
        sku: line.sku,
        count: line.count,
        hsCode: entry?.hsCode ?? null,
        originCountry: entry?.originCountry ?? null,
        customsDescription: entry?.customsDescription ?? null,
        netWeight: entry?.netWeight ?? null,
      };
    }),
  );
  return row;
}

type ShipmentRow = typeof shipments.$inferSelect;

/** A shipment's lines with their customs data and the order line's name and price. */
function shipmentLines(db: Executor, shipmentId: number) {
  return db
    .select({
      sku: shipmentItems.sku,
      count: shipmentItems.count,
      hsCode: shipmentItems.hsCode,
      originCountry: shipmentItems.originCountry,
      customsDescription: shipmentItems.customsDescription,
      netWeight: shipmentItems.netWeight,
      name: orderItems.nameRu,
      price: unitPriceSql(orderItems),
    })
    .from(shipmentItems)
    .innerJoin(
      orderItems,
      and(eq(orderItems.orderId, shipmentItems.orderId), eq(orderItems.sku, shipmentItems.sku)),
    )
    .where(eq(shipmentItems.shipmentId, shipmentId))
    .orderBy(asc(shipmentItems.sku));
}

/** The order as Russian Post's backlog takes it: recipient, weight, value and, abroad, the CN23 entries. */
async function otpravkaOrderOf(
  db: Database,
  order: OrderRow,
  shipment: ShipmentRow & { box: Box },
): Promise<OtpravkaOrder> {
  const lines = await shipmentLines(db, shipment.id);
  const country = order.deliveryCountry.toUpperCase();
  // Each unit's value as charged (its share of the line's discount included), in kopecks.
  const unitValue = new Map(
    (await orderCustomsItems(db, order)).map((item) => [
      item.sku,
      Math.round(item.valueKopecks / item.count),
    ]),
  );
  return {
    orderNum: `${order.id}-${shipment.id}`,
    recipient: { surname: order.lastName, givenName: order.firstName, phone: order.phone },
    address: {
      countryNumeric: Number(countries.alpha2ToNumeric(country) ?? 643),
      zip: order.deliveryZip,
      region: order.deliveryCity,
      place: order.deliveryCity,
      street: order.deliveryAddress,
    },
    mass: shipment.weight,
    declaredValue: shipment.declaredValue,
    dimension: shipment.box,
    ...(needsCustoms(country)
      ? {
          customs: lines.map((line) => ({
            description: line.customsDescription ?? '',
            amount: line.count,
            value: unitValue.get(line.sku) ?? 0,
            weight: line.netWeight ?? 0,
            tnvedCode: line.hsCode ?? '',
            countryCode: Number(countries.alpha2ToNumeric(line.originCountry ?? '') ?? 0),
          })),
        }
      : {}),
  };
}

/**
 * Russian Post's id of the shipment's backlog order: the one a previous attempt made, or a new one,
 * saved as soon as it exists so a retry after an outage does not make a second one.
 */
async function backlogIdOf(
  db: Database,
  settings: ShippingSettings,
  order: OrderRow,
  shipment: ShipmentRow & { box: Box },
): Promise<string> {
  if (shipment.externalId) return shipment.externalId;
  const id = await createBacklogOrder(
    settings.otpravka,
    await otpravkaOrderOf(db, order, shipment),
    callOptions(settings),
  );
  await db.update(shipments).set({ externalId: id }).where(eq(shipments.id, shipment.id));
  return id;
}

const callOptions = (settings: ShippingSettings) =>
  settings.fetchImpl ? { fetchImpl: settings.fetchImpl } : {};

/** Today's date where the parcels are handed in (Moscow), as Russian Post's `sending-date` takes it. */
const sendingDateOf = (now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(now);

/**
 * The batch a parcel made today already went into, still open as far as the shop knows (the latest
 * parcel made: tracking touches `updated_at`, so the order is by creation).
 */
async function openBatchOfToday(db: Executor, now: Date): Promise<string | undefined> {
  const [latest] = await db
    .select({ batch: shipments.batch, at: shipments.createdAt })
    .from(shipments)
    .where(
      and(eq(shipments.carrier, 'russian_post'), eq(shipments.state, 'created'), isNotNull(shipments.batch)),
    )
    .orderBy(desc(shipments.id))
    .limit(1);
  return latest?.batch && sendingDateOf(latest.at) === sendingDateOf(now) ? latest.batch : undefined;
}

interface OtpravkaBatched {
  batched: Map<string, { batch: string; barcode: string }>;
  refused: Map<string, OtpravkaRefusal>;
}

/**
 * Gathers backlog orders into the day's batch with one call (ADR 0087): moved into the batch a
 * parcel of today already went into, or, when there is none or Russian Post will not take them
 * into it (handed in already, another mail type…), into a new batch dated today. An order already
 * in a batch (a retry after an outage that came after the gathering) is only looked up.
 */
async function batchOtpravkaOrders(
  db: Database,
  settings: ShippingSettings,
  ids: readonly string[],
  retried: ReadonlySet<string> = new Set(),
): Promise<OtpravkaBatched> {
  const options = callOptions(settings);
  const batched = new Map<string, { batch: string; barcode: string }>();
  for (const id of retried) {
    const found = await batchedOrder(settings.otpravka, id, options);
    if (found) batched.set(id, found);
  }
  let left = ids.filter((id) => !batched.has(id));
  const now = (settings.now ?? (() => new Date()))();
  const sendingDate = sendingDateOf(now);
  const open = left.length > 0 ? await openBatchOfToday(db, now) : undefined;
  if (open) {
    try {
      const moved = await gatherIntoBatch(settings.otpravka, left, { batch: open, sendingDate }, options);
      left = left.filter((id) => moved.refused.has(id));
    } catch (error) {
      if (!(error instanceof OtpravkaRefusal)) throw error;
    }
  }
  let refused = new Map<string, OtpravkaRefusal>();
  if (left.length > 0) {
    try {
      refused = (await gatherIntoBatch(settings.otpravka, left, { sendingDate }, options)).refused;
    } catch (error) {
      if (!(error instanceof OtpravkaRefusal)) throw error;
      refused = new Map(left.map((id) => [id, error]));
    }
  }
  for (const id of ids) {
    if (batched.has(id) || refused.has(id)) continue;
    const found = await batchedOrder(settings.otpravka, id, options);
    if (!found) throw new OtpravkaDown(`GET /1.0/shipment/${id}: the order is not in a batch`);
    batched.set(id, found);
  }
  return { batched, refused };
}

/**
 * Asks Boxberry for the parcel: to the pickup point the shopper chose, or to the door. An order
 * placed before the point's code was kept goes to the point nearest its postcode, as it was quoted.
 */
async function askBoxberry(
  db: Database,
  settings: ShippingSettings,
  order: OrderRow,
  shipment: ShipmentRow & { box: Box },
) {
  const lines = await shipmentLines(db, shipment.id);
  const courier = order.deliveryMethod === 'boxberry.courier';
  const options = callOptions(settings);
  const pickupPointCode = courier
    ? undefined
    : (order.pickupPointCode ??
      parsePointsByPostCode(await boxberryPointByZip(settings.boxberry, order.deliveryZip, options)));
  const parcel = await createBoxberryParcel(
    settings.boxberry,
    {
      orderId: `${order.id}-${shipment.id}`,
      kind: courier ? 'courier' : 'pickup',
      ...(pickupPointCode ? { pickupPointCode } : {}),
      customer: {
        name: `${order.lastName} ${order.firstName}`.trim(),
        phone: order.phone,
        email: order.email,
      },
      ...(courier
        ? { address: { zip: order.deliveryZip, city: order.deliveryCity, street: order.deliveryAddress } }
        : {}),
      items: lines.map((line) => ({
        sku: line.sku,
        name: line.name,
        count: line.count,
        priceKopecks: Number(line.price),
      })),
      declaredValue: shipment.declaredValue,
      weightGrams: shipment.weight,
      box: shipment.box,
    },
    options,
  );
  return { externalId: parcel.track, batch: null, trackCode: parcel.track };
}

/** The parcel exists at the carrier: record it, mail its track code, ship the order once all left. */
async function recordCreated(
  db: Database,
  settings: ShippingSettings,
  shipment: ShipmentRow,
  created: { externalId: string; batch: string | null; trackCode: string },
  actorId: number,
) {
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, shipment.orderId);
    await tx
      .update(shipments)
      .set({ ...created, state: 'created', error: null, updatedAt: new Date() })
      .where(eq(shipments.id, shipment.id));
    await tx
      .update(orders)
      .set({ trackCode: sql`coalesce(${orders.trackCode}, ${created.trackCode})`, updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    await queueParcelMail(tx, order.id, created.trackCode, settings.shop);
    const left = await leftToShip(tx, order.id);
    const everythingLeft = [...left.values()].every((count) => count <= 0);
    if (everythingLeft && order.status !== ORDER_STATUS.shipped) {
      await moveOrderStatus(tx, order.id, ORDER_STATUS.shipped, {
        actor: 'staff',
        by: actorId,
        shop: settings.shop,
      });
    }
  });
}

const unconfigured = () =>
  new Conflict(
    'shipment-carrier-unconfigured',
    { carrier: ['shipment-carrier-unconfigured'] },
    'shipment-carrier-unconfigured',
  );

/** Whether the shop has the carrier's credentials (the simulators' in test mode). */
export const carrierConfigured = (settings: ShippingSettings, carrier: Carrier) =>
  carrier === 'russian_post'
    ? Boolean(settings.otpravka.accessToken && settings.otpravka.login && settings.otpravka.password)
    : Boolean(settings.boxberry.token);

interface Claimed {
  order: OrderRow;
  shipment: ShipmentRow;
  /** False when the request's parcel exists already: nothing is to be asked. */
  fresh: boolean;
}

/**
 * Checks that the order can leave with its carrier, and claims the request's shipment row: a new
 * one, the failed one of the same request to retry, or the one already made.
 */
async function claimShipment(
  db: Database,
  settings: ShippingSettings,
  actorId: number,
  orderId: number,
  requested: LineToShip[],
): Promise<Claimed> {
  const [found] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!found) throw new NotFound('not-found', { id: ['not-found'] });
  if (!(TO_SHIP_STATUSES as readonly number[]).includes(found.status))
    throw new Conflict(
      'shipment-order-not-paid',
      { status: ['shipment-order-not-paid'] },
      'shipment-order-not-paid',
    );
  const carrier = carrierOf(found.deliveryMethod);
  if (!carrierConfigured(settings, carrier)) throw unconfigured();
  if (carrier === 'russian_post') await assertCustomsComplete(db, found);
  const lines =
    requested.length > 0
      ? requested
      : [...(await leftToShip(db, orderId))].flatMap(([sku, count]) => (count > 0 ? [{ sku, count }] : []));
  const key = requestKeyOf(orderId, carrier, lines);

  // The same request again: its shipment as it stands, or its retry after an outage.
  const retry = async () => {
    const [existing] = await db.select().from(shipments).where(eq(shipments.requestKey, key));
    if (!existing) return undefined;
    if (existing.state === 'created') return { order: found, shipment: existing, fresh: false };
    const [claimed] =
      existing.state === 'failed'
        ? await db
            .update(shipments)
            .set({ state: 'creating', updatedAt: new Date() })
            .where(and(eq(shipments.id, existing.id), eq(shipments.state, 'failed')))
            .returning()
        : [];
    if (!claimed)
      throw new Conflict(
        'shipment-in-progress',
        { shipment: ['shipment-in-progress'] },
        'shipment-in-progress',
      );
    return { order: found, shipment: claimed, fresh: true };
  };

  const claimed = await retry();
  if (claimed) return claimed;
  const reserved = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    return reserve(tx, order, carrier, lines, actorId);
  });
  if (reserved) return { order: found, shipment: reserved, fresh: true };
  const again = await retry();
  if (!again) throw nothingLeft();
  return again;
}

/**
 * What a failed carrier call leaves: a refusal forgets the shipment (nothing was made) and answers
 * the carrier's reasons in the manager's language; an outage keeps it `failed` for a retry and
 * answers `shipment-carrier-down`; anything else is kept `failed` and answered as it is.
 */
async function settleFailure(db: Database, shipmentId: number, error: unknown): Promise<unknown> {
  if (error instanceof OtpravkaRefusal || error instanceof BoxberryRefusal) {
    await db.delete(shipments).where(eq(shipments.id, shipmentId));
    return carrierRefusal(error);
  }
  await db
    .update(shipments)
    .set({ state: 'failed', error: (error as Error).message, updatedAt: new Date() })
    .where(eq(shipments.id, shipmentId));
  if (error instanceof OtpravkaDown || error instanceof BoxberryDown) {
    const down = new Unavailable(
      'shipment-carrier-down',
      { carrier: ['shipment-carrier-down'] },
      'shipment-carrier-down',
    );
    Object.defineProperty(down, 'cause', { value: error, enumerable: false });
    return down;
  }
  return error;
}

/**
 * Creates the shipment of `lines` (all the order's items not yet shipped when empty) with the
 * order's carrier. Answers the shipment as recorded. At Russian Post the backlog order joins the
 * day's batch (ADR 0087).
 */
export async function createShipment(
  db: Database,
  settings: ShippingSettings,
  actorId: number,
  orderId: number,
  requested: LineToShip[],
) {
  const { order, shipment, fresh } = await claimShipment(db, settings, actorId, orderId, requested);
  if (!fresh) return shipmentView(db, shipment.id);
  const box = await shipmentBox(db, shipment.id, settings.defaultBox);
  try {
    let created: { externalId: string; batch: string | null; trackCode: string };
    if (shipment.carrier === 'russian_post') {
      const id = await backlogIdOf(db, settings, order, { ...shipment, box });
      const retried = new Set(shipment.externalId ? [id] : []);
      const { batched, refused } = await batchOtpravkaOrders(db, settings, [id], retried);
      const refusal = refused.get(id);
      if (refusal) throw refusal;
      const parcel = batched.get(id);
      if (!parcel) throw new OtpravkaDown(`the order ${id} is not in a batch`);
      created = { externalId: id, batch: parcel.batch, trackCode: parcel.barcode };
    } else {
      created = await askBoxberry(db, settings, order, { ...shipment, box });
    }
    await recordCreated(db, settings, shipment, created, actorId);
  } catch (error) {
    throw await settleFailure(db, shipment.id, error);
  }
  return shipmentView(db, shipment.id);
}

async function shipmentBox(db: Executor, shipmentId: number, defaultBox: Box): Promise<Box> {
  const rows = await db
    .select({ boxLength: products.boxLength, boxWidth: products.boxWidth, boxHeight: products.boxHeight })
    .from(shipmentItems)
    .innerJoin(
      orderItems,
      and(eq(orderItems.orderId, shipmentItems.orderId), eq(orderItems.sku, shipmentItems.sku)),
    )
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(shipmentItems.shipmentId, shipmentId));
  return parcelBox(rows.map(boxOf), defaultBox);
}

/** A shipment as the order page shows it. */
export async function shipmentView(db: Executor, shipmentId: number) {
  const [row] = await db.select().from(shipments).where(eq(shipments.id, shipmentId));
  if (!row) throw new NotFound('not-found', { shipment: ['not-found'] });
  const items = await db
    .select({ sku: shipmentItems.sku, count: shipmentItems.count })
    .from(shipmentItems)
    .where(eq(shipmentItems.shipmentId, shipmentId))
    .orderBy(asc(shipmentItems.sku));
  return {
    id: row.id,
    carrier: row.carrier,
    state: row.state,
    track_code: row.trackCode,
    batch: row.batch,
    weight: row.weight,
    declared_value: kopecksToRoubles(row.declaredValue),
    error: row.error,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    items,
    events: (await shipmentEventsOf(db, shipmentId)).map((event) => ({
      ...event,
      occurred_at: event.occurred_at.toISOString(),
    })),
  };
}

/** An order's shipments, oldest first, and what is left to ship. */
export async function orderShipments(db: Executor, orderId: number) {
  const rows = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(eq(shipments.orderId, orderId))
    .orderBy(asc(shipments.id));
  const left = await leftToShip(db, orderId);
  return {
    list: await Promise.all(rows.map((row) => shipmentView(db, row.id))),
    left: [...left].flatMap(([sku, count]) => (count > 0 ? [{ sku, count }] : [])),
  };
}

/** A shipment's label or CN23 as PDF bytes, from its carrier. */
export async function shipmentDocument(
  db: Executor,
  settings: ShippingSettings,
  orderId: number,
  shipmentId: number,
  form: 'label' | 'cn23',
): Promise<Uint8Array> {
  const [row] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.orderId, orderId)));
  if (row?.state !== 'created' || !row.externalId)
    throw new NotFound('not-found', { shipment: ['not-found'] });
  const options = settings.fetchImpl ? { fetchImpl: settings.fetchImpl } : {};
  try {
    if (row.carrier === 'russian_post')
      return await otpravkaForm(settings.otpravka, row.externalId, form, settings.fetchImpl);
    if (form === 'cn23') throw new NotFound('not-found', { shipment: ['not-found'] });
    return await boxberryLabel(settings.boxberry, row.externalId, options);
  } catch (error) {
    if (
      error instanceof OtpravkaDown ||
      error instanceof BoxberryDown ||
      error instanceof OtpravkaRefusal ||
      error instanceof BoxberryRefusal
    )
      throw new Unavailable(
        'shipment-carrier-down',
        { carrier: ['shipment-carrier-down'] },
        'shipment-carrier-down',
      );
    throw error;
  }
}

/** What became of one order of a bulk request; a refusal keeps its untranslated keys. */
export type BulkShipmentResult =
  | { order: number; outcome: 'created' | 'existing'; trackCodes: string[] }
  | { order: number; outcome: 'refused'; trackCodes: string[]; error: DomainError };

/**
 * Ships each order whole with its own carrier, from the orders list (issue 31 point 2). Each order
 * is claimed as `createShipment` claims it, so each is idempotent the same way: an order whose
 * items all left in parcels made before answers those parcels ("existing") and no new one is made.
 * Boxberry parcels are made one after the other (its rate limits); Russian Post's orders are put in
 * the backlog one by one and then gathered into the day's batch with one call (ADR 0087), so they
 * share it. One order's refusal or outage changes nothing of it and does not stop the others; its
 * domain error is kept for the caller to translate.
 */
export async function createShipments(
  db: Database,
  settings: ShippingSettings,
  actorId: number,
  orderIds: readonly number[],
): Promise<BulkShipmentResult[]> {
  const results: BulkShipmentResult[] = [];
  const waiting: Array<{
    index: number;
    shipment: ShipmentRow;
    id: string;
    /** A retry whose order may have reached a batch before the outage. */
    retried: boolean;
    made: string[];
  }> = [];
  const refusedWith = (order: number, made: string[], error: unknown): BulkShipmentResult => {
    if (!(error instanceof DomainError)) throw error;
    return { order, outcome: 'refused', trackCodes: made, error };
  };
  for (const orderId of new Set(orderIds)) {
    const before = await orderShipments(db, orderId);
    const made = before.list.flatMap((shipment) =>
      shipment.state === 'created' && shipment.track_code ? [shipment.track_code] : [],
    );
    if (before.left.length === 0 && made.length > 0) {
      results.push({ order: orderId, outcome: 'existing', trackCodes: made });
      continue;
    }
    let claimed: Claimed;
    try {
      claimed = await claimShipment(db, settings, actorId, orderId, []);
    } catch (error) {
      results.push(refusedWith(orderId, made, error));
      continue;
    }
    const { order, shipment, fresh } = claimed;
    if (!fresh) {
      results.push({
        order: orderId,
        outcome: 'created',
        trackCodes: [...made, ...(shipment.trackCode ? [shipment.trackCode] : [])],
      });
      continue;
    }
    const box = await shipmentBox(db, shipment.id, settings.defaultBox);
    try {
      if (shipment.carrier === 'russian_post') {
        const id = await backlogIdOf(db, settings, order, { ...shipment, box });
        waiting.push({
          index: results.length,
          shipment: { ...shipment, externalId: id },
          id,
          retried: shipment.externalId !== null,
          made,
        });
        // Its place in the answer, filled once the batch is made.
        results.push({ order: orderId, outcome: 'created', trackCodes: made });
        continue;
      }
      const created = await askBoxberry(db, settings, order, { ...shipment, box });
      await recordCreated(db, settings, shipment, created, actorId);
      results.push({ order: orderId, outcome: 'created', trackCodes: [...made, created.trackCode] });
    } catch (error) {
      results.push(refusedWith(orderId, made, await settleFailure(db, shipment.id, error)));
    }
  }
  if (waiting.length === 0) return results;

  let gathered: OtpravkaBatched;
  try {
    gathered = await batchOtpravkaOrders(
      db,
      settings,
      waiting.map((entry) => entry.id),
      new Set(waiting.flatMap((entry) => (entry.retried ? [entry.id] : []))),
    );
  } catch (error) {
    for (const entry of waiting)
      results[entry.index] = refusedWith(
        entry.shipment.orderId,
        entry.made,
        await settleFailure(db, entry.shipment.id, error),
      );
    return results;
  }
  for (const entry of waiting) {
    const refusal = gathered.refused.get(entry.id);
    const parcel = gathered.batched.get(entry.id);
    if (refusal || !parcel) {
      const failure = refusal ?? new OtpravkaDown(`the order ${entry.id} is not in a batch`);
      results[entry.index] = refusedWith(
        entry.shipment.orderId,
        entry.made,
        await settleFailure(db, entry.shipment.id, failure),
      );
      continue;
    }
    await recordCreated(
      db,
      settings,
      entry.shipment,
      { externalId: entry.id, batch: parcel.batch, trackCode: parcel.barcode },
      actorId,
    );
    results[entry.index] = {
      order: entry.shipment.orderId,
      outcome: 'created',
      trackCodes: [...entry.made, parcel.barcode],
    };
  }
  return results;
}
