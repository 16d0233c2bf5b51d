import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Kopecks, kopecksToRoubles, shareByLargestRemainder } from '../../contract/money.ts';
import { ORDER_STATUS } from '../../contract/order-status.ts';
import type { Executor, Transaction } from '../db/client.ts';
import { baskets, orders, productCategories, products, promoCodes } from '../db/schema.ts';
import { Invalid } from '../errors.ts';

/**
 * Promo codes (ADR 0058): the one rule of whether a code applies to a set of goods, how much it
 * takes off and how that discount is shared over the lines. The basket asks it whenever it is
 * priced; order placement asks it again inside the order's transaction and takes a use under the
 * code's row lock; a cancellation gives the use back (orders/lifecycle.ts).
 */

export type PromoCodeRow = typeof promoCodes.$inferSelect;

/** Why a code does not apply; each is an error key with a text in ru and en. */
export const PROMO_REFUSALS = [
  'promo-unknown',
  'promo-not-started',
  'promo-expired',
  'promo-paused',
  'promo-used-up',
  'promo-customer-used-up',
  'promo-min-order',
  'promo-not-for-these-goods',
  'promo-not-for-drops',
] as const;
export type PromoRefusal = (typeof PROMO_REFUSALS)[number];

/** A line of goods a code may apply to: its product's place in the catalogue, unit price and count. */
export interface PromoLine {
  productId: number;
  projectId: number;
  categoryIds: readonly number[];
  /** The product belongs to a drop (ADR 0041). */
  inDrop: boolean;
  unit: Kopecks;
  count: number;
}

export type PromoOutcome =
  | { ok: true; discount: Kopecks; shares: Kopecks[] }
  | { ok: false; reason: PromoRefusal; minOrder?: Kopecks };

/** Whether the code names this line's product, project or one of its categories (none named: all). */
function inScope(code: PromoCodeRow, line: PromoLine): boolean {
  const named = code.productIds.length + code.projectIds.length + code.categoryIds.length;
  return (
    named === 0 ||
    code.productIds.includes(line.productId) ||
    code.projectIds.includes(line.projectId) ||
    line.categoryIds.some((id) => code.categoryIds.includes(id))
  );
}

/**
 * The rule, on known facts: the code's window, pause and total limit; `customerUses` (null for a
 * guest, counted again when the order is placed); the lines it may apply to (in scope, and drops
 * only when it says so); the minimum over those lines; then the discount (a percent rounded half up,
 * or the amount, never more than the eligible goods) shared over them by largest remainder.
 */
export function evaluatePromo(
  code: PromoCodeRow,
  lines: readonly PromoLine[],
  now: Date,
  customerUses: number | null,
): PromoOutcome {
  if (code.pausedAt !== null) return { ok: false, reason: 'promo-paused' };
  if (code.startsAt !== null && code.startsAt > now) return { ok: false, reason: 'promo-not-started' };
  if (code.endsAt !== null && code.endsAt <= now) return { ok: false, reason: 'promo-expired' };
  if (code.totalLimit !== null && code.uses >= code.totalLimit) return { ok: false, reason: 'promo-used-up' };
  if (code.perCustomerLimit !== null && customerUses !== null && customerUses >= code.perCustomerLimit)
    return { ok: false, reason: 'promo-customer-used-up' };
  const scoped = lines.map((line) => inScope(code, line));
  const eligible = lines.map((line, index) => scoped[index] && (code.appliesToDrops || !line.inDrop));
  if (!eligible.some(Boolean)) {
    const dropsOnly = lines.some((line, index) => scoped[index] && line.inDrop);
    return { ok: false, reason: dropsOnly ? 'promo-not-for-drops' : 'promo-not-for-these-goods' };
  }
  const weights = lines.map((line, index) => (eligible[index] ? line.unit * line.count : 0));
  const goods = weights.reduce((sum, weight) => sum + weight, 0);
  if (goods < code.minOrder) return { ok: false, reason: 'promo-min-order', minOrder: code.minOrder };
  const discount =
    code.kind === 'percent' ? Math.floor((goods * code.value + 50) / 100) : Math.min(code.value, goods);
  return { ok: true, discount, shares: shareByLargestRemainder(discount, weights) };
}

/** The refusal as a domain error (422), naming the code's minimum when that is the reason. */
export const promoRefused = (outcome: Extract<PromoOutcome, { ok: false }>) =>
  new Invalid(
    outcome.reason,
    { promo: [outcome.reason] },
    outcome.reason,
    outcome.minOrder === undefined ? undefined : { minOrder: kopecksToRoubles(outcome.minOrder) },
  );

export async function findPromoCode(db: Executor, code: string): Promise<PromoCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(promoCodes)
    .where(sql`lower(${promoCodes.code}) = lower(${code.trim()})`);
  return row;
}

/** A code's name as staff wrote it, or null once it is deleted. */
export async function promoCodeName(db: Executor, promoCodeId: number): Promise<string | null> {
  const [row] = await db
    .select({ code: promoCodes.code })
    .from(promoCodes)
    .where(eq(promoCodes.id, promoCodeId));
  return row?.code ?? null;
}

/** Lines of goods (product, unit price, count) with their products' projects, categories and drops. */
export async function promoLines(
  db: Executor,
  goods: readonly { productId: number; unit: Kopecks; count: number }[],
): Promise<PromoLine[]> {
  const ids = [...new Set(goods.map((line) => line.productId))];
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: products.id,
      projectId: products.projectId,
      inDrop: sql<boolean>`${products.dropId} is not null`,
      categoryIds: sql<number[]>`coalesce((select json_agg(${productCategories.categoryId})
        from ${productCategories} where ${productCategories.productId} = ${products.id}), '[]')`,
    })
    .from(products)
    .where(inArray(products.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return goods.map((line) => {
    const product = byId.get(line.productId);
    return {
      ...line,
      projectId: product?.projectId ?? 0,
      categoryIds: (product?.categoryIds ?? []).map(Number),
      inDrop: Boolean(product?.inDrop),
    };
  });
}

/** The customer's orders placed with the code that are not cancelled: their uses of it. */
export async function customerUses(db: Executor, promoCodeId: number, userId: number): Promise<number> {
  const [row] = await db
    .select({ uses: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.promoCodeId, promoCodeId),
        ne(orders.status, ORDER_STATUS.cancelled),
      ),
    );
  return Number(row?.uses ?? 0);
}

async function outcomeFor(
  db: Executor,
  code: PromoCodeRow,
  goods: readonly { productId: number; unit: Kopecks; count: number }[],
  userId: number | null,
  now: Date,
): Promise<PromoOutcome> {
  const uses = userId === null ? null : await customerUses(db, code.id, userId);
  return evaluatePromo(code, await promoLines(db, goods), now, uses);
}

/** A basket's code as it prices now: the code, and its discount and shares or why it does not apply. */
export interface BasketPromo {
  code: string;
  outcome: PromoOutcome;
}

/** The code a basket holds, checked against its lines now; undefined when it holds none. */
export async function basketPromo(
  db: Executor,
  basketId: number,
  goods: readonly { productId: number; unit: Kopecks; count: number }[],
  userId: number | null,
  now: Date,
): Promise<BasketPromo | undefined> {
  const [row] = await db
    .select({ code: promoCodes })
    .from(baskets)
    .innerJoin(promoCodes, eq(promoCodes.id, baskets.promoCodeId))
    .where(eq(baskets.id, basketId));
  if (!row) return undefined;
  return { code: row.code.code, outcome: await outcomeFor(db, row.code, goods, userId, now) };
}

/**
 * Enters a code for a basket: refused (422, with the reason) when it is unknown or does not apply
 * to the basket's goods now; otherwise the basket keeps it and is priced with it from now on.
 */
export async function enterPromoCode(
  db: Executor,
  basketId: number,
  code: string,
  goods: readonly { productId: number; unit: Kopecks; count: number }[],
  userId: number | null,
  now: Date,
): Promise<void> {
  const row = await findPromoCode(db, code);
  if (!row) throw promoRefused({ ok: false, reason: 'promo-unknown' });
  const outcome = await outcomeFor(db, row, goods, userId, now);
  if (!outcome.ok) throw promoRefused(outcome);
  await db.update(baskets).set({ promoCodeId: row.id, updatedAt: now }).where(eq(baskets.id, basketId));
}

/** Takes the code off a basket. */
export async function clearPromoCode(db: Executor, basketId: number): Promise<void> {
  await db.update(baskets).set({ promoCodeId: null }).where(eq(baskets.id, basketId));
}

/**
 * Inside the order's transaction: locks the code's row, checks the code again for these goods and
 * this customer (whose other orders cannot change meanwhile: the basket's row is locked), and takes
 * one use with a conditional update, so concurrent orders never take more uses than the limit.
 * Refused (422, the reason) when it no longer applies.
 */
export async function claimPromoUse(
  tx: Transaction,
  promoCodeId: number,
  goods: readonly { productId: number; unit: Kopecks; count: number }[],
  userId: number,
  now: Date,
): Promise<{ discount: Kopecks; shares: Kopecks[] }> {
  const [code] = await tx.select().from(promoCodes).where(eq(promoCodes.id, promoCodeId)).for('update');
  if (!code) throw promoRefused({ ok: false, reason: 'promo-unknown' });
  const outcome = await outcomeFor(tx, code, goods, userId, now);
  if (!outcome.ok) throw promoRefused(outcome);
  const [taken] = await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} + 1` })
    .where(
      and(
        eq(promoCodes.id, code.id),
        sql`(${promoCodes.totalLimit} is null or ${promoCodes.uses} < ${promoCodes.totalLimit})`,
      ),
    )
    .returning({ id: promoCodes.id });
  if (!taken) throw promoRefused({ ok: false, reason: 'promo-used-up' });
  return { discount: outcome.discount, shares: outcome.shares };
}

/** A cancelled order gives its use back; an order paid after its cancellation takes it again while there is room. */
export async function movePromoUse(tx: Executor, promoCodeId: number, change: 'give-back' | 'take-again') {
  await tx
    .update(promoCodes)
    .set({ uses: sql`${promoCodes.uses} ${change === 'give-back' ? sql`- 1` : sql`+ 1`}` })
    .where(
      and(
        eq(promoCodes.id, promoCodeId),
        change === 'give-back'
          ? sql`${promoCodes.uses} > 0`
          : sql`(${promoCodes.totalLimit} is null or ${promoCodes.uses} < ${promoCodes.totalLimit})`,
      ),
    );
}
