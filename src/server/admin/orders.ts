import { and, count, desc, eq, gt, gte, ilike, lt, type SQL, sql } from 'drizzle-orm';
import type { OrderSearch, OrderUpdate } from '../../contract/admin.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../contract/money.ts';
import type { Database, Executor } from '../db/client.ts';
import { orderItems, orderStatusHistory, orders } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { queueMail } from '../mail/outbox.ts';
import type { MailShop } from '../mail/templates.ts';
import { moveOrderStatus } from '../orders/lifecycle.ts';
import { nextStatuses, type OrderStatus } from '../orders/status.ts';
import { recordAudit } from './audit.ts';

/** Orders as staff see them: the spec's search, the detail, and the fields staff edit. */

export const ORDERS_PAGE_SIZE = 20;
const SHIPPED = 5;

function statusCondition(status: OrderSearch['status']): SQL | undefined {
  if (status === '') return undefined;
  if (status === '>2') return gt(orders.status, 2);
  return eq(orders.status, Number(status));
}

function searchConditions(search: OrderSearch): SQL | undefined {
  const like = (value: string) => `%${value.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
  const day = search.date ? new Date(`${search.date.slice(0, 10)}T00:00:00Z`) : undefined;
  return and(
    search.id ? eq(orders.id, search.id) : undefined,
    search.email ? ilike(orders.email, like(search.email)) : undefined,
    search.firstName ? ilike(orders.firstName, like(search.firstName)) : undefined,
    search.lastName ? ilike(orders.lastName, like(search.lastName)) : undefined,
    search.country ? eq(orders.deliveryCountry, search.country) : undefined,
    search.deliveryMethod ? eq(orders.deliveryMethod, search.deliveryMethod) : undefined,
    statusCondition(search.status),
    day && !Number.isNaN(day.getTime())
      ? and(gte(orders.createdAt, day), lt(orders.createdAt, new Date(day.getTime() + 24 * 3600_000)))
      : undefined,
    search.product
      ? sql`exists (select 1 from ${orderItems} oi where oi.order_id = ${orders.id} and (${
          /^\d+$/.test(search.product) ? sql`oi.product_id = ${Number(search.product)} or ` : sql``
        }oi.name_ru ilike ${like(search.product)} or oi.name_en ilike ${like(search.product)}))`
      : undefined,
  );
}

export async function searchOrders(db: Executor, search: OrderSearch) {
  const where = searchConditions(search);
  const [total] = await db.select({ count: count() }).from(orders).where(where);
  const rows = await db
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
      productCount: sql<number>`(select coalesce(sum(count), 0)::int from ${orderItems} where order_id = ${orders.id})`,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((search.page - 1) * ORDERS_PAGE_SIZE);
  const totalCount = total?.count ?? 0;
  return {
    list: rows.map((row) => ({
      ...row,
      date: row.date.toISOString(),
      productsCost: kopecksToRoubles(row.productsCost),
      deliveryCost: kopecksToRoubles(row.deliveryCost),
    })),
    total: totalCount,
    productCount: rows.reduce((sum, row) => sum + Number(row.productCount), 0),
    currentPage: search.page,
    lastPage: Math.max(1, Math.ceil(totalCount / ORDERS_PAGE_SIZE)),
  };
}

/** The spec's admin order detail (snake_case fields). */
export async function getOrderForAdmin(db: Executor, id: number) {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw new NotFound('not-found', { id: ['not-found'] });
  const [items, history] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, id)),
    db
      .select({
        status: orderStatusHistory.status,
        reason: orderStatusHistory.reason,
        date: orderStatusHistory.createdAt,
      })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, id))
      .orderBy(orderStatusHistory.id),
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
    delivery_cost: kopecksToRoubles(order.deliveryCost),
    delivery_method: order.deliveryMethod,
    delivery_country: order.deliveryCountry,
    delivery_city: order.deliveryCity,
    delivery_address: order.deliveryAddress,
    delivery_zip: order.deliveryZip,
    comment: order.comment,
    payment_method: order.paymentMethod,
    currency: order.currency,
    products: items.map((item) => ({
      id: item.productId,
      name: order.locale === 'en' ? item.nameEn : item.nameRu,
      price: kopecksToRoubles(item.price),
      sale: item.sale === null ? null : kopecksToRoubles(item.sale),
      count: item.count,
    })),
    track_code: order.trackCode,
    delivery_cost_actual:
      order.deliveryCostActual === null ? null : kopecksToRoubles(order.deliveryCostActual),
    manager_comment: order.managerComment,
    status: order.status,
    /** The statuses staff may move this order to (the back office offers only these). */
    nextStatuses: nextStatuses(order.status, 'staff'),
    history: history.map((entry) => ({ ...entry, date: entry.date.toISOString() })),
  };
}

/**
 * Saves what staff edit. A status change goes through the order lifecycle (only the moves the
 * state machine allows staff, 409 otherwise); moving to shipped (5) with a track code mails the
 * customer once.
 */
export async function updateOrder(
  db: Database,
  actorId: number,
  id: number,
  input: OrderUpdate,
  shop?: MailShop,
) {
  const before = await getOrderForAdmin(db, id);
  await db.transaction(async (transaction) => {
    // The status moves first, through the state machine: a refused move changes nothing.
    if (input.status !== before.status) {
      await moveOrderStatus(transaction, id, input.status as OrderStatus, {
        actor: 'staff',
        by: actorId,
        shop,
      });
    }
    await transaction
      .update(orders)
      .set({
        trackCode: input.track_code,
        deliveryCostActual:
          input.delivery_cost_actual === null ? null : roublesToKopecks(input.delivery_cost_actual),
        managerComment: input.manager_comment,
        updatedAt: new Date(),
      })
      .where(eq(orders.id, id));
    if (input.status !== before.status) {
      if (input.status === SHIPPED && input.track_code) {
        await queueMail(
          transaction,
          {
            template: 'order-shipped',
            locale: before.locale === 'en' ? 'en' : 'ru',
            to: before.email,
            data: { orderId: id, trackCode: input.track_code, deliveryMethod: before.delivery_method },
          },
          shop,
        );
      }
    }
  });
  const after = await getOrderForAdmin(db, id);
  await recordAudit(db, { actorId, action: 'update', entity: 'order', entityId: id, before, after });
  return after;
}

/** Orders and paid revenue per day over the last `days`, for the dashboard chart. */
export async function ordersPerDay(db: Executor, days: number) {
  const since = new Date(Date.now() - days * 24 * 3600_000);
  const perDay = await db
    .select({
      day: sql<string>`to_char(date_trunc('day', ${orders.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      orders: count(),
      revenue: sql<string>`coalesce(sum(${orders.productsCost} + ${orders.deliveryCost}) filter (where ${orders.status} in (1, 3, 4, 5, 6)), 0)`,
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
