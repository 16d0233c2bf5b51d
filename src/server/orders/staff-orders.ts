import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  lt,
  type SQL,
  sql,
} from 'drizzle-orm';
import {
  DEFAULT_ORDER_STATUS_FILTER,
  ORDER_FILTER_STATUSES,
  type OrderSearch,
  type OrderSearchFilters,
  type OrderUpdate,
} from '../../contract/admin.ts';
import { needsCustoms } from '../../contract/customs.ts';
import type { Locale } from '../../contract/locale.ts';
import { kopecksToRoubles, minorToMajor, roublesToKopecks } from '../../contract/money.ts';
import { DATABASE_INT_MAX } from '../../contract/numbers.ts';
import { recordAudit } from '../audit/audit.ts';
import { addStaffNote, insertStaffNote, notesOf } from '../audit/staff-notes.ts';
import { lineImage } from '../catalog/product-view.ts';
import { orderItemLabel, unitPriceSql } from '../catalog/variants.ts';
import type { Database, Executor } from '../db/client.ts';
import { pageOf } from '../db/paging.ts';
import { isPaidOrder } from '../db/paid-orders.ts';
import { orderItems, orderStatusHistory, orders, products, users } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Invalid, NotFound } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { promoCodeName } from '../promo/service.ts';
import { orderCustomsItems } from '../shipping/customs.ts';
import { customsWire } from '../shipping/customs-fields.ts';
import { moveOrderStatus } from './lifecycle.ts';
import { orderReceipts } from './receipts.ts';
import type { OrderRow } from './service.ts';
import { queueShippedMailOnce, resendShippedMail } from './shipped-mail.ts';
import { nextStatuses, type OrderStatus, TO_SHIP_STATUSES } from './status.ts';

/** Orders as staff see them: the spec's search, the detail, and the fields staff edit. */

export const ORDERS_PAGE_SIZE = 20;

/** Every search field but the status (the counts per status use these). */
function searchConditions(search: Omit<OrderSearchFilters, 'status'>): SQL | undefined {
  const like = (value: string) => `%${value.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
  const day = search.date ? new Date(`${search.date.slice(0, 10)}T00:00:00Z`) : undefined;
  return and(
    search.id ? eq(orders.id, search.id) : undefined,
    search.email ? ilike(orders.email, like(search.email)) : undefined,
    search.firstName ? ilike(orders.firstName, like(search.firstName)) : undefined,
    search.lastName ? ilike(orders.lastName, like(search.lastName)) : undefined,
    search.country ? eq(orders.deliveryCountry, search.country) : undefined,
    search.deliveryMethod ? eq(orders.deliveryMethod, search.deliveryMethod) : undefined,
    day && !Number.isNaN(day.getTime())
      ? and(gte(orders.createdAt, day), lt(orders.createdAt, new Date(day.getTime() + 24 * 3600_000)))
      : undefined,
    search.from ? gte(orders.createdAt, search.from) : undefined,
    search.to ? lt(orders.createdAt, search.to) : undefined,
    // A product's id, or a part of its name in either language (order_items_names_idx, migration 0012).
    search.product
      ? sql`exists (select 1 from ${orderItems} oi where oi.order_id = ${orders.id} and (${
          /^\d+$/.test(search.product) && Number(search.product) <= DATABASE_INT_MAX
            ? sql`oi.product_id = ${Number(search.product)} or `
            : sql``
        }(oi.name_ru || ' ' || oi.name_en) ilike ${like(search.product)}))`
      : undefined,
  );
}

/**
 * The statuses a search shows. An order number names one order, so it is found whatever its
 * status; an e-mail finds the customer's orders in every status unless the manager picked one
 * other than the default (the list opens on "needs action", which would hide the rest).
 */
export function searchedStatuses(search: Pick<OrderSearchFilters, 'id' | 'email' | 'status'>) {
  if (search.id) return null;
  if (search.email && search.status === DEFAULT_ORDER_STATUS_FILTER) return null;
  return ORDER_FILTER_STATUSES[search.status];
}

/** A period whose start is not before its end finds nothing: refused, so the manager sees why. */
export function requireValidPeriod(search: Pick<OrderSearchFilters, 'from' | 'to'>) {
  if (search.from && search.to && search.from >= search.to)
    throw new Invalid('date-range-invalid', { to: ['date-range-invalid'] });
}

export function filterConditions(search: OrderSearchFilters): SQL | undefined {
  const statuses = searchedStatuses(search);
  return and(searchConditions(search), statuses ? inArray(orders.status, [...statuses]) : undefined);
}

/**
 * One page of the search, with the number of orders per status that the other fields find (one
 * grouped query, which also gives the search's total).
 */
export async function searchOrders(db: Executor, search: OrderSearch) {
  requireValidPeriod(search);
  const statuses = searchedStatuses(search);
  const perStatus = db
    .select({ status: orders.status, count: count() })
    .from(orders)
    .where(searchConditions(search))
    .groupBy(orders.status)
    .execute();
  const page = await pageOf(
    { page: search.page, size: ORDERS_PAGE_SIZE },
    perStatus.then((counts) =>
      counts
        .filter(({ status }) => !statuses || statuses.includes(status))
        .reduce((sum, row) => sum + row.count, 0),
    ),
    (offset, limit) =>
      db
        .select({
          id: orders.id,
          date: orders.createdAt,
          status: orders.status,
          email: orders.email,
          firstName: orders.firstName,
          lastName: orders.lastName,
          country: orders.deliveryCountry,
          deliveryMethod: orders.deliveryMethod,
          productsCost: orders.productsCost,
          deliveryCost: orders.deliveryCost,
        })
        .from(orders)
        .where(filterConditions(search))
        .orderBy(desc(orders.createdAt), desc(orders.id))
        .limit(limit)
        .offset(offset),
  );
  // Units per order, for the page's orders alone (in the page's query, every order an offset skips
  // would be counted too).
  const units = new Map(
    page.rows.length === 0
      ? []
      : (
          await db
            .select({ orderId: orderItems.orderId, units: sql<number>`sum(${orderItems.count})::int` })
            .from(orderItems)
            .where(
              inArray(
                orderItems.orderId,
                page.rows.map((row) => row.id),
              ),
            )
            .groupBy(orderItems.orderId)
        ).map((row) => [row.orderId, row.units]),
  );
  const statusCounts: Record<string, number> = {};
  for (const { status, count } of await perStatus) statusCounts[status] = count;
  return {
    list: page.rows.map((row) => ({
      ...row,
      productCount: units.get(row.id) ?? 0,
      date: row.date.toISOString(),
      productsCost: kopecksToRoubles(row.productsCost),
      deliveryCost: kopecksToRoubles(row.deliveryCost),
    })),
    total: page.total,
    /** Whether the status filter was set aside (a search by number, or by e-mail on the default filter). */
    allStatuses: statuses === null && ORDER_FILTER_STATUSES[search.status] !== null,
    statusCounts,
    productCount: [...units.values()].reduce((sum, count) => sum + count, 0),
    currentPage: page.currentPage,
    lastPage: page.lastPage,
  };
}

/**
 * The spec's admin order detail (snake_case fields), its items' names and options in `locale`,
 * the staff member's language (the customer's is `locale` of the order).
 */
export async function getOrderForAdmin(db: Executor, id: number, locale: Locale) {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  const [items, history, notes, receipts] = await Promise.all([
    db
      .select({ ...getTableColumns(orderItems), image: lineImage(orderItems.variantId) })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, id))
      .orderBy(asc(orderItems.productId), asc(orderItems.sku)),
    db
      .select({
        status: orderStatusHistory.status,
        reason: orderStatusHistory.reason,
        date: orderStatusHistory.createdAt,
        // Who moved it: a staff member, or null when the shop itself did (payment, expiry, cancel).
        authorEmail: users.email,
        authorFirstName: users.firstName,
        authorLastName: users.lastName,
      })
      .from(orderStatusHistory)
      .leftJoin(users, eq(users.id, orderStatusHistory.changedBy))
      .where(eq(orderStatusHistory.orderId, id))
      .orderBy(orderStatusHistory.id),
    notesOf(db, { orderId: id }),
    orderReceipts(db, id),
  ]);
  return {
    id: order.id,
    date: order.createdAt.toISOString(),
    locale: order.locale,
    email: order.email,
    first_name: order.firstName,
    last_name: order.lastName,
    phone: order.phone,
    products_cost: kopecksToRoubles(order.productsCost),
    /** Roubles off the goods by the promo code `promo_code` (ADR 0058). */
    discount: kopecksToRoubles(order.discount),
    promo_code: order.promoCodeId === null ? null : await promoCodeName(db, order.promoCodeId),
    delivery_cost: kopecksToRoubles(order.deliveryCost),
    delivery_method: order.deliveryMethod,
    delivery_country: order.deliveryCountry,
    delivery_city: order.deliveryCity,
    delivery_address: order.deliveryAddress,
    delivery_zip: order.deliveryZip,
    pickup_point_code: order.pickupPointCode,
    comment: order.comment,
    payment_method: order.paymentMethod,
    currency: order.currency,
    /** Roubles per dollar fixed in the order: a dollar order's amounts follow from its roubles at this rate. */
    usd_rate: order.usdRate === null ? null : Number(order.usdRate),
    products: items.map((item) => ({
      id: item.productId,
      name: locale === 'en' ? item.nameEn : item.nameRu,
      price: kopecksToRoubles(item.price),
      sale: item.sale === null ? null : kopecksToRoubles(item.sale),
      count: item.count,
      discount: kopecksToRoubles(item.discount),
      variant: item.variantId,
      sku: item.sku,
      /** The variant's options as they were ordered, in the staff member's language like the name. */
      options: orderItemLabel(item.options, locale),
      /** The ordered colour's picture, else the product's (file name under img/products/). */
      image: item.image,
    })),
    track_code: order.trackCode,
    delivery_cost_actual:
      order.deliveryCostActual === null ? null : kopecksToRoubles(order.deliveryCostActual),
    /** The spec's manager comment: the newest staff note (every note is in `notes`). */
    manager_comment: notes.at(-1)?.body ?? null,
    notes,
    status: order.status,
    /** The statuses staff may move this order to (the back office offers only these). */
    nextStatuses: nextStatuses(order.status, 'staff'),
    shipped_mail_at: order.shippedMailAt?.toISOString() ?? null,
    version: order.version,
    history: history.map(({ authorEmail, authorFirstName, authorLastName, ...entry }) => ({
      ...entry,
      date: entry.date.toISOString(),
      author: authorEmail ? [authorFirstName, authorLastName].filter(Boolean).join(' ') || authorEmail : null,
    })),
    /** Abroad (outside the EAEU): each item's CN23 entry and what it lacks (ADR 0057); else null. */
    customs: needsCustoms(order.deliveryCountry) ? await customsEntries(db, order, locale) : null,
    /** 54-FZ receipts registered through the provider, roubles (ADR 0051). */
    receipts: receipts.map((receipt) => ({
      ...receipt,
      total: kopecksToRoubles(receipt.total),
      items: receipt.items.map((item) => ({ ...item, sum: kopecksToRoubles(item.sum) })),
    })),
  };
}

/** The CN23 entries of an order, values in the order's currency and in roubles, names in `locale`. */
async function customsEntries(db: Executor, order: OrderRow, locale: Locale) {
  const items = await orderCustomsItems(db, order);
  return items.map((item) => ({
    product: item.productId,
    sku: item.sku,
    name: locale === 'en' ? item.nameEn : item.nameRu,
    count: item.count,
    ...customsWire(item),
    value: minorToMajor(item.value),
    value_roubles: kopecksToRoubles(item.valueKopecks),
    missing: item.missing,
  }));
}

/** The columns of the fields staff edit, as their values are stored. */
function storedFields(fields: OrderUpdate['base'] & object) {
  return {
    ...(fields.track_code !== undefined ? { trackCode: fields.track_code } : {}),
    ...(fields.delivery_cost_actual !== undefined
      ? {
          deliveryCostActual:
            fields.delivery_cost_actual === null ? null : roublesToKopecks(fields.delivery_cost_actual),
        }
      : {}),
    ...(fields.status !== undefined ? { status: fields.status } : {}),
  };
}

/**
 * Saves the fields staff changed, and only those (ADR 0022). The save names the version it started
 * from; an older version is still fine when every field it changes has kept the value the editor
 * loaded (`base`), so saves of independent fields from two screens are both kept, and a save over a
 * field someone else changed meanwhile is refused (409). A status change goes through the order
 * lifecycle (only the moves the state machine allows staff, 409 otherwise; ADR 0020); the order
 * being shipped with a track code, whichever came last, mails the customer once. The spec's
 * `manager_comment` adds a staff note when it differs from the newest one (notes are never
 * overwritten, so a comment alone needs no version).
 */
export async function updateOrder(
  db: Database,
  actorId: number,
  id: number,
  input: OrderUpdate,
  locale: Locale,
  shop?: MailShop,
) {
  const before = await getOrderForAdmin(db, id, locale);
  const { status, ...changes } = storedFields(input);
  const base = storedFields(input.base ?? {});
  const changed = Object.keys(storedFields(input)) as (keyof typeof base)[];
  const comment = input.manager_comment?.trim();
  const note = comment && comment !== before.manager_comment ? comment : undefined;
  const columns = {
    trackCode: orders.trackCode,
    deliveryCostActual: orders.deliveryCostActual,
    status: orders.status,
  };
  // Each changed field still as the editor saw it: then nobody else's save is overwritten.
  const unchangedSinceLoaded =
    changed.length > 0 && changed.every((field) => field in base)
      ? and(...changed.map((field) => sql`${columns[field]} is not distinct from ${base[field] ?? null}`))
      : undefined;
  await db.transaction(async (transaction) => {
    if (note !== undefined) await insertStaffNote(transaction, actorId, { orderId: id }, note);
    if (changed.length === 0 && note !== undefined) return;
    const [row] = await transaction
      .update(orders)
      .set({ ...changes, version: sql`${orders.version} + 1`, updatedAt: new Date() })
      .where(
        and(
          eq(orders.id, id),
          unchangedSinceLoaded
            ? sql`(${orders.version} = ${input.version} or ${unchangedSinceLoaded})`
            : eq(orders.version, input.version),
        ),
      )
      .returning({ status: orders.status });
    if (!row) throw recordChanged();
    // The status moves through the state machine: a refused move rolls the whole save back.
    if (status !== undefined && status !== row.status) {
      await moveOrderStatus(transaction, id, status as OrderStatus, {
        actor: 'staff',
        by: actorId,
        note: input.reason,
        shop,
      });
    }
    await queueShippedMailOnce(transaction, id, shop);
  });
  const after = await getOrderForAdmin(db, id, locale);
  await recordAudit(db, { actorId, action: 'update', entity: 'order', entityId: id, before, after });
  return after;
}

/** A staff note on an order: kept with its author and time, never edited. */
export async function addOrderNote(db: Database, actorId: number, orderId: number, body: string) {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  return addStaffNote(db, actorId, { orderId }, body);
}

/**
 * What the packing slip prints: the order's number and date, where it goes, the shopper's comment
 * (a pickup point is named there), and each item with its SKU, options and count, in `locale`.
 */
export async function packingSlip(db: Executor, id: number, locale: Locale) {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  const items = await db
    .select({
      nameRu: orderItems.nameRu,
      nameEn: orderItems.nameEn,
      sku: orderItems.sku,
      options: orderItems.options,
      count: orderItems.count,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, id))
    .orderBy(asc(orderItems.productId), asc(orderItems.sku));
  return {
    id: order.id,
    date: order.createdAt.toISOString(),
    status: order.status,
    shipTo: {
      name: `${order.firstName} ${order.lastName}`.trim(),
      phone: order.phone,
      email: order.email,
      country: order.deliveryCountry,
      city: order.deliveryCity,
      zip: order.deliveryZip,
      address: order.deliveryAddress,
      deliveryMethod: order.deliveryMethod,
    },
    comment: order.comment,
    items: items.map((item) => ({
      name: locale === 'en' ? item.nameEn : item.nameRu,
      options: orderItemLabel(item.options, locale),
      sku: item.sku,
      count: item.count,
    })),
    units: items.reduce((sum, item) => sum + item.count, 0),
    currency: order.currency,
    /** The CN23 items of a parcel abroad; null inside the EAEU. */
    customs: needsCustoms(order.deliveryCountry) ? await customsEntries(db, order, locale) : null,
  };
}

/** Staff's "send again" of the shipped mail. */
export async function resendOrderShippedMail(
  db: Database,
  actorId: number,
  id: number,
  locale: Locale,
  shop?: MailShop,
) {
  await db.transaction(async (transaction) => {
    await resendShippedMail(transaction, id, shop);
    await recordAudit(transaction, {
      actorId,
      action: 'update',
      entity: 'order',
      entityId: id,
      after: { shipped_mail: 'sent again' },
    });
  });
  return getOrderForAdmin(db, id, locale);
}

/** Orders and paid revenue per day over the last `days`, for the dashboard chart. */
export async function ordersPerDay(db: Executor, days: number) {
  const since = new Date(Date.now() - days * 24 * 3600_000);
  const perDay = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${orders.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      orders: count(),
      revenue: sql<string>`coalesce(sum(${orders.productsCost} + ${orders.deliveryCost}) filter (where ${isPaidOrder()}), 0)`,
    })
    .from(orders)
    .where(gte(orders.createdAt, since))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return perDay.map((row) => ({
    day: row.day,
    orders: row.orders,
    revenue: kopecksToRoubles(Number(row.revenue)),
  }));
}

/** Paid orders waiting to be shipped: the back-office menu's and the dashboard's count. */
export async function ordersToShip(db: Executor): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(orders)
    .where(inArray(orders.status, [...TO_SHIP_STATUSES]));
  return row?.count ?? 0;
}

/**
 * The best-selling products of the last `days`: units and revenue (roubles, at the prices ordered)
 * of orders paid in that time and still paid, most units first; names in `locale`.
 */
export async function topProducts(db: Executor, days: number, locale: Locale, limit = 10) {
  const since = new Date(Date.now() - days * 24 * 3600_000);
  const units = sql<number>`sum(${orderItems.count})::int`;
  const revenue = sql<string>`sum(${unitPriceSql(orderItems)} * ${orderItems.count})`;
  const rows = await db
    .select({
      id: products.id,
      name: locale === 'ru' ? products.nameRu : products.nameEn,
      units,
      revenue,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(gte(orders.paidAt, since), isPaidOrder()))
    .groupBy(products.id)
    .orderBy(desc(units), desc(revenue), asc(products.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, revenue: kopecksToRoubles(Number(row.revenue)) }));
}
