import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { PromoCodeInput } from '../../contract/admin.ts';
import { kopecksToRoubles, roublesToKopecks } from '../../contract/money.ts';
import { PAID_STATUSES } from '../../contract/order-status.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { isPaidOrder } from '../db/paid-orders.ts';
import { orders, promoCodes } from '../db/schema.ts';
import { recordChanged } from '../db/versions.ts';
import { Conflict, Invalid, NotFound } from '../errors.ts';
import type { PromoCodeRow } from './service.ts';

/**
 * The back office's promo codes (ADR 0058): the list with uses and the revenue of paid orders,
 * create and edit over the record's version, pause and resume, and each code's orders. Every change
 * is audited.
 */

export type PromoState = 'active' | 'paused' | 'scheduled' | 'expired' | 'used-up';

const stateOf = (code: PromoCodeRow, now: Date): PromoState =>
  code.pausedAt !== null
    ? 'paused'
    : code.endsAt !== null && code.endsAt <= now
      ? 'expired'
      : code.totalLimit !== null && code.uses >= code.totalLimit
        ? 'used-up'
        : code.startsAt !== null && code.startsAt > now
          ? 'scheduled'
          : 'active';

const paid = isPaidOrder();

/** A code as the editor shows it: money in roubles, the scope's ids, its state now. */
const promoView = (code: PromoCodeRow, now: Date) => ({
  id: code.id,
  code: code.code,
  kind: code.kind,
  value: code.kind === 'percent' ? code.value : kopecksToRoubles(code.value),
  min_order: kopecksToRoubles(code.minOrder),
  starts_at: code.startsAt?.toISOString() ?? null,
  ends_at: code.endsAt?.toISOString() ?? null,
  total_limit: code.totalLimit,
  per_customer_limit: code.perCustomerLimit,
  applies_to_drops: code.appliesToDrops,
  projects: code.projectIds,
  categories: code.categoryIds,
  products: code.productIds,
  uses: code.uses,
  paused: code.pausedAt !== null,
  state: stateOf(code, now),
  version: code.version,
});

/** Every code, newest first, with its paid orders, their revenue (roubles, after discount) and the discount given. */
export async function listPromoCodes(db: Executor, now: Date) {
  const rows = await db
    .select({
      code: promoCodes,
      paidOrders: sql<number>`count(${orders.id}) filter (where ${paid})::int`,
      revenue: sql<string>`coalesce(sum(${orders.productsCost} + ${orders.deliveryCost}) filter (where ${paid}), 0)`,
      discount: sql<string>`coalesce(sum(${orders.discount}) filter (where ${paid}), 0)`,
    })
    .from(promoCodes)
    .leftJoin(orders, eq(orders.promoCodeId, promoCodes.id))
    .groupBy(promoCodes.id)
    .orderBy(desc(promoCodes.createdAt), desc(promoCodes.id));
  return rows.map((row) => ({
    ...promoView(row.code, now),
    paid_orders: Number(row.paidOrders),
    revenue: kopecksToRoubles(Number(row.revenue)),
    discount_given: kopecksToRoubles(Number(row.discount)),
  }));
}

const notFound = () => new NotFound('not-found', { promo: ['not-found'] });

/** A code with the orders placed with it (oldest first): who, when, status, discount and total. */
export async function getPromoCode(db: Executor, id: number, now: Date) {
  const [code] = await db.select().from(promoCodes).where(eq(promoCodes.id, id));
  if (!code) throw notFound();
  const uses = await db
    .select({
      id: orders.id,
      date: orders.createdAt,
      email: orders.email,
      status: orders.status,
      discount: orders.discount,
      productsCost: orders.productsCost,
      deliveryCost: orders.deliveryCost,
    })
    .from(orders)
    .where(eq(orders.promoCodeId, id))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  return {
    ...promoView(code, now),
    orders: uses.map((order) => ({
      id: order.id,
      date: order.date.toISOString(),
      email: order.email,
      status: order.status,
      discount: kopecksToRoubles(order.discount),
      total: kopecksToRoubles(order.productsCost + order.deliveryCost),
    })),
  };
}

export type AdminPromoCode = Awaited<ReturnType<typeof getPromoCode>>;

const isUniqueViolation = (error: unknown): boolean => {
  const cause = (error as { cause?: { code?: string } })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
};

/**
 * Creates a code, or saves over `target` if nobody changed it since the editor loaded it (409
 * record-changed). A name another code has, in any case, is refused (409 promo-code-taken); a
 * total limit below the uses already taken is refused (422).
 */
export async function savePromoCode(
  db: Database,
  actorId: number,
  input: PromoCodeInput,
  now: Date,
  target?: { id: number; version: number },
) {
  const values = {
    code: input.code,
    kind: input.kind,
    value: input.kind === 'percent' ? input.value : roublesToKopecks(input.value),
    minOrder: roublesToKopecks(input.min_order ?? 0),
    startsAt: input.starts_at,
    endsAt: input.ends_at,
    totalLimit: input.total_limit,
    perCustomerLimit: input.per_customer_limit,
    appliesToDrops: input.applies_to_drops,
    projectIds: [...new Set(input.projects)],
    categoryIds: [...new Set(input.categories)],
    productIds: [...new Set(input.products)],
    updatedAt: now,
  };
  try {
    const id = await db.transaction(async (transaction) => {
      const [before] = target
        ? await transaction.select().from(promoCodes).where(eq(promoCodes.id, target.id)).for('update')
        : [];
      if (target && !before) throw notFound();
      if (before && before.version !== target?.version) throw recordChanged();
      if (before && values.totalLimit !== null && values.totalLimit < before.uses)
        throw new Invalid('promo-limit-below-uses', { total_limit: ['promo-limit-below-uses'] }, undefined, {
          uses: before.uses,
        });
      const [row] = before
        ? await transaction
            .update(promoCodes)
            .set({ ...values, version: sql`${promoCodes.version} + 1` })
            .where(eq(promoCodes.id, before.id))
            .returning()
        : await transaction
            .insert(promoCodes)
            .values({ ...values, createdBy: actorId })
            .returning();
      if (!row) throw notFound();
      await recordAudit(transaction, {
        actorId,
        action: before ? 'update' : 'create',
        entity: 'promo-code',
        entityId: row.id,
        before: before ? promoView(before, now) : undefined,
        after: promoView(row, now),
      });
      return row.id;
    });
    return getPromoCode(db, id, now);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new Conflict('promo-code-taken', { code: ['promo-code-taken'] }, 'promo-code-taken');
    throw error;
  }
}

/** Pauses a code (baskets holding it are told why it no longer applies) or resumes it, over its version. */
export async function pausePromoCode(
  db: Database,
  actorId: number,
  id: number,
  change: { paused: boolean; version: number },
  now: Date,
) {
  await db.transaction(async (transaction) => {
    const [row] = await transaction
      .update(promoCodes)
      .set({
        pausedAt: change.paused ? now : null,
        version: sql`${promoCodes.version} + 1`,
        updatedAt: now,
      })
      .where(and(eq(promoCodes.id, id), eq(promoCodes.version, change.version)))
      .returning();
    if (!row) {
      const [exists] = await transaction
        .select({ id: promoCodes.id })
        .from(promoCodes)
        .where(eq(promoCodes.id, id));
      throw exists ? recordChanged() : notFound();
    }
    await recordAudit(transaction, {
      actorId,
      action: 'update',
      entity: 'promo-code',
      entityId: id,
      after: { paused: change.paused },
    });
  });
  return getPromoCode(db, id, now);
}
