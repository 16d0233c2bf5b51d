import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DropInput, EditTarget } from '../../contract/admin.ts';
import type { Locale } from '../../contract/locale.ts';
import { ORDER_STATUS } from '../../contract/order-status.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { isPaidOrder } from '../db/paid-orders.ts';
import { drops, orderItems, orders, products, productVariants } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Conflict, NotFound } from '../errors.ts';
import { variantLabel } from './variants.ts';

/**
 * Drops as the back office schedules them (issue 20, ADR 0041): a named release time shared by its
 * products, a per-customer limit and the hold of unpaid orders. A product joins a drop through
 * `products.drop_id`; the database's triggers give it the drop's release time. A product leaving a
 * drop (or a deleted drop) keeps the time it had, so nothing goes on sale early by accident. Every
 * change is audited; callers empty the storefront's catalogue cache after one.
 */

/** A released drop counts as live for this long after its release time, then as past. */
export const LIVE_HOURS = 24;
/** The live view's orders-per-minute chart covers this many minutes up to now. */
export const LIVE_MINUTES = 15;

export type DropState = 'upcoming' | 'live' | 'past';

const notFound = () => new NotFound('not-found', { id: ['not-found'] });

export function dropState(releaseAt: Date, now: Date): DropState {
  if (releaseAt > now) return 'upcoming';
  return now.getTime() - releaseAt.getTime() < LIVE_HOURS * 3600_000 ? 'live' : 'past';
}

const dropView = (row: typeof drops.$inferSelect, productIds: number[]) => ({
  id: row.id,
  name_ru: row.nameRu,
  name_en: row.nameEn,
  release_at: row.releaseAt,
  hold_minutes: row.holdMinutes,
  per_customer_limit: row.perCustomerLimit,
  products: productIds,
  version: row.version,
});

/** Every drop, soonest upcoming first, then the released ones newest first, with its state. */
export async function listDrops(db: Executor, now: Date) {
  const moment = sql`${now.toISOString()}::timestamptz`;
  const rows = await db
    .select({
      drop: drops,
      products: sql<number>`count(${products.id})::int`,
      unitsLeft: sql<number>`coalesce(sum(${products.quantity}), 0)::int`,
    })
    .from(drops)
    .leftJoin(products, eq(products.dropId, drops.id))
    .groupBy(drops.id)
    .orderBy(
      sql`${drops.releaseAt} <= ${moment}`,
      sql`case when ${drops.releaseAt} > ${moment} then ${drops.releaseAt} end asc`,
      desc(drops.releaseAt),
      desc(drops.id),
    );
  return rows.map(({ drop, products: productCount, unitsLeft }) => ({
    id: drop.id,
    name_ru: drop.nameRu,
    name_en: drop.nameEn,
    release_at: drop.releaseAt,
    hold_minutes: drop.holdMinutes,
    per_customer_limit: drop.perCustomerLimit,
    state: dropState(drop.releaseAt, now),
    products: productCount,
    unitsLeft,
  }));
}

/** A drop's products as its editor lists them: names, link and units in stock. */
function dropProducts(db: Executor, dropId: number) {
  return db
    .select({
      id: products.id,
      name_ru: products.nameRu,
      name_en: products.nameEn,
      link: products.link,
      quantity: products.quantity,
      per_customer_limit: products.perCustomerLimit,
    })
    .from(products)
    .where(eq(products.dropId, dropId))
    .orderBy(asc(products.position), asc(products.id));
}

/** A drop with its products, for its editor. */
export async function getDrop(db: Executor, id: number, now: Date) {
  const [row] = await db.select().from(drops).where(eq(drops.id, id));
  if (!row) throw notFound();
  const members = await dropProducts(db, id);
  return {
    ...dropView(
      row,
      members.map((product) => product.id),
    ),
    state: dropState(row.releaseAt, now),
    products: members,
  };
}

export type AdminDrop = Awaited<ReturnType<typeof getDrop>>;

/**
 * Creates a drop, or saves over `target` if nobody changed it since the editor loaded it, and makes
 * `input.products` its products: the ones named join it (and take its release time), the others
 * leave it. A product that is in another drop which has not been released yet is refused
 * (409 product-in-another-drop, the products named in `taken`); one of a released drop moves.
 */
export async function saveDrop(
  db: Database,
  actorId: number,
  input: DropInput,
  now: Date,
  target?: EditTarget,
): Promise<AdminDrop> {
  const values = {
    nameRu: input.name_ru,
    nameEn: input.name_en,
    releaseAt: input.release_at,
    holdMinutes: input.hold_minutes,
    perCustomerLimit: input.per_customer_limit,
    updatedAt: now,
  };
  const productIds = [...new Set(input.products)].sort((a, b) => a - b);
  const dropId = await db.transaction(async (transaction) => {
    const [before] =
      target === undefined
        ? []
        : await transaction.select().from(drops).where(eq(drops.id, target.id)).for('update');
    if (target !== undefined && !before) throw notFound();
    if (before && before.version !== target?.version) throw recordChanged();

    // The rows of its products and of those named are locked in ascending id (the lock order of
    // orders/lifecycle.ts) before their drop is read, so two drops saved at once cannot both take one.
    const concerned = or(
      productIds.length > 0 ? inArray(products.id, productIds) : undefined,
      before ? eq(products.dropId, before.id) : undefined,
    );
    const locked = concerned
      ? await transaction
          .select({
            id: products.id,
            name_ru: products.nameRu,
            name_en: products.nameEn,
            dropId: products.dropId,
          })
          .from(products)
          .where(concerned)
          .orderBy(asc(products.id))
          .for('update')
      : [];
    const membersBefore = before ? locked.filter((product) => product.dropId === before.id) : [];
    const chosen = locked.filter((product) => productIds.includes(product.id));
    if (chosen.length !== productIds.length) throw new NotFound('not-found', { products: ['not-found'] });

    // Products taken out leave before the drop moves, so they keep the time they had. Joining or
    // leaving a drop changes the product (its release time): its editor's version moves.
    const leaving = membersBefore.filter((product) => !productIds.includes(product.id));
    if (leaving.length > 0)
      await transaction
        .update(products)
        .set({ dropId: null, version: sql`${products.version} + 1`, updatedAt: now })
        .where(
          inArray(
            products.id,
            leaving.map((product) => product.id),
          ),
        );
    const [row] =
      target === undefined
        ? await transaction.insert(drops).values(values).returning()
        : await transaction
            .update(drops)
            .set({ ...values, version: sql`${drops.version} + 1` })
            .where(eq(drops.id, target.id))
            .returning();
    if (!row) throw notFound();

    const elsewhere = chosen.filter((product) => product.dropId !== null && product.dropId !== row.id);
    if (elsewhere.length > 0) {
      const otherDrops = await transaction
        .select({ id: drops.id, name_ru: drops.nameRu, name_en: drops.nameEn, releaseAt: drops.releaseAt })
        .from(drops)
        .where(
          inArray(
            drops.id,
            elsewhere.map((product) => product.dropId ?? 0),
          ),
        );
      const upcoming = new Map(
        otherDrops.filter((drop) => drop.releaseAt > now).map((drop) => [drop.id, drop] as const),
      );
      const taken = elsewhere.flatMap((product) => {
        const drop = product.dropId === null ? undefined : upcoming.get(product.dropId);
        return drop
          ? [
              {
                id: product.id,
                name_ru: product.name_ru,
                name_en: product.name_en,
                drop: { id: drop.id, name_ru: drop.name_ru, name_en: drop.name_en },
              },
            ]
          : [];
      });
      if (taken.length > 0)
        throw new Conflict(
          'product-in-another-drop',
          { products: ['product-in-another-drop'] },
          'product-in-another-drop',
          { taken },
        );
    }

    if (productIds.length > 0)
      await transaction
        .update(products)
        .set({ dropId: row.id, version: sql`${products.version} + 1`, updatedAt: now })
        .where(and(inArray(products.id, productIds), sql`${products.dropId} is distinct from ${row.id}`));

    await recordAudit(transaction, {
      actorId,
      action: before ? 'update' : 'create',
      entity: 'drop',
      entityId: row.id,
      before: before
        ? dropView(
            before,
            membersBefore.map((product) => product.id),
          )
        : undefined,
      after: dropView(row, productIds),
    });
    return row.id;
  });
  return getDrop(db, dropId, now);
}

/** Deletes a drop; its products stay in the catalogue, out of any drop, keeping their release time. */
export async function deleteDrop(db: Database, actorId: number, id: number) {
  await db.transaction(async (transaction) => {
    const [row] = await transaction.select().from(drops).where(eq(drops.id, id)).for('update');
    if (!row) throw notFound();
    const members = await transaction
      .update(products)
      .set({ dropId: null, version: sql`${products.version} + 1`, updatedAt: new Date() })
      .where(eq(products.dropId, id))
      .returning({ id: products.id });
    await transaction.delete(drops).where(eq(drops.id, id));
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'drop',
      entityId: id,
      before: dropView(
        row,
        members.map((product) => product.id).sort((a, b) => a - b),
      ),
    });
  });
}

/**
 * A drop as it sells, for the live view: per product and per variant the units left in stock, sold
 * (in paid orders) and held (in unpaid orders still waiting for payment), counting orders placed
 * since the release; the orders placed per minute over the last LIVE_MINUTES minutes (oldest
 * first); and the unpaid orders holding its units, soonest to expire first.
 */
export async function dropLiveView(db: Executor, id: number, locale: Locale, now: Date) {
  const [drop] = await db.select().from(drops).where(eq(drops.id, id));
  if (!drop) throw notFound();
  const dropItem = and(eq(products.dropId, id), gte(orders.createdAt, drop.releaseAt));
  const paid = isPaidOrder();
  const held = and(eq(orders.status, ORDER_STATUS.current), isNull(orders.paidAt));

  const [variantRows, unitRows, minuteRows, holdRows] = await Promise.all([
    db
      .select({
        productId: products.id,
        name: locale === 'ru' ? products.nameRu : products.nameEn,
        link: products.link,
        productLimit: products.perCustomerLimit,
        variantId: productVariants.id,
        sku: productVariants.sku,
        options: variantLabel(locale),
        left: productVariants.quantity,
        variantLimit: productVariants.perCustomerLimit,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(products.dropId, id))
      .orderBy(
        asc(products.position),
        asc(products.id),
        asc(productVariants.position),
        asc(productVariants.id),
      ),
    db
      .select({
        variantId: orderItems.variantId,
        sold: sql<number>`coalesce(sum(${orderItems.count}) filter (where ${paid}), 0)::int`,
        held: sql<number>`coalesce(sum(${orderItems.count}) filter (where ${held}), 0)::int`,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(dropItem)
      .groupBy(orderItems.variantId),
    db
      .select({
        minutesAgo: sql<number>`floor(extract(epoch from (${now.toISOString()}::timestamptz - ${orders.createdAt})) / 60)::int`,
        orders: sql<number>`count(distinct ${orders.id})::int`,
      })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(
        and(
          dropItem,
          gt(orders.createdAt, new Date(now.getTime() - LIVE_MINUTES * 60_000)),
          lte(orders.createdAt, now),
        ),
      )
      .groupBy(sql`1`),
    db
      .select({
        id: orders.id,
        units: sql<number>`sum(${orderItems.count})::int`,
        placedAt: orders.createdAt,
        expiresAt: orders.expiresAt,
      })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(and(dropItem, held))
      .groupBy(orders.id)
      .orderBy(asc(orders.expiresAt), asc(orders.id)),
  ]);

  const units = new Map(unitRows.map((row) => [row.variantId, row]));
  const productsView: Array<{
    id: number;
    name: string;
    link: string;
    perCustomerLimit: number | null;
    left: number;
    sold: number;
    held: number;
    variants: Array<{
      id: number;
      sku: string;
      options: string | null;
      perCustomerLimit: number | null;
      left: number;
      sold: number;
      held: number;
    }>;
  }> = [];
  for (const row of variantRows) {
    let product = productsView.at(-1);
    if (product?.id !== row.productId) {
      product = {
        id: row.productId,
        name: row.name,
        link: row.link,
        perCustomerLimit: row.productLimit ?? drop.perCustomerLimit,
        left: 0,
        sold: 0,
        held: 0,
        variants: [],
      };
      productsView.push(product);
    }
    const sold = units.get(row.variantId)?.sold ?? 0;
    const heldUnits = units.get(row.variantId)?.held ?? 0;
    product.left += row.left;
    product.sold += sold;
    product.held += heldUnits;
    product.variants.push({
      id: row.variantId,
      sku: row.sku,
      options: row.options,
      perCustomerLimit: row.variantLimit,
      left: row.left,
      sold,
      held: heldUnits,
    });
  }
  const perMinute = new Map(minuteRows.map((row) => [row.minutesAgo, row.orders]));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    drop: {
      id: drop.id,
      name: locale === 'ru' ? drop.nameRu : drop.nameEn,
      release_at: drop.releaseAt,
      hold_minutes: drop.holdMinutes,
      per_customer_limit: drop.perCustomerLimit,
      state: dropState(drop.releaseAt, now),
    },
    now,
    totals: {
      left: sum(productsView.map((product) => product.left)),
      sold: sum(productsView.map((product) => product.sold)),
      held: sum(productsView.map((product) => product.held)),
    },
    products: productsView,
    /** Oldest minute first; `minutesAgo` 0 is the minute up to now. */
    ordersPerMinute: Array.from({ length: LIVE_MINUTES }, (_, index) => {
      const minutesAgo = LIVE_MINUTES - 1 - index;
      return { minutesAgo, orders: perMinute.get(minutesAgo) ?? 0 };
    }),
    holds: {
      orders: holdRows.length,
      units: sum(holdRows.map((hold) => hold.units)),
      list: holdRows,
    },
  };
}

export type DropLiveView = Awaited<ReturnType<typeof dropLiveView>>;
