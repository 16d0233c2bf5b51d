import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../db/client.ts';
import {
  products,
  productVariants,
  projects,
  type STOCK_MOVEMENT_REASONS,
  stockMovements,
  users,
} from '../db/schema.ts';
import { Conflict, Invalid } from '../errors.ts';
import type { MailShop } from '../mail/templates.ts';
import { isOrderable } from './release.ts';
import { notifyBackInStock } from './stock-alerts.ts';

/**
 * The one writer of variants' units (ADR 0056). Every change is a conditional SQL update of
 * `product_variants.quantity` and one `stock_movements` row (variant, delta, reason, order or
 * actor, note) in the caller's transaction, so the movements of a variant add up to its stock.
 * Products' rows are locked first, in ascending id, then the variants' in ascending (product,
 * variant) order: a variant's stock change also moves its product's total (a trigger), so every
 * writer takes the product's lock before a variant's and concurrent transactions cannot deadlock.
 * Shoppers waiting for a variant that comes back hear of it in the same transaction.
 */

export type StockReason = (typeof STOCK_MOVEMENT_REASONS)[number];

export interface StockItem {
  productId: number;
  variantId: number;
  count: number;
}

/** Who or what moved the units: an order (sale, cancellation, refund) or a staff member. */
export interface StockSource {
  orderId?: number;
  actorId?: number;
  note?: string;
}

const inLockOrder = <T extends { productId: number; variantId: number }>(items: readonly T[]) =>
  [...items].sort((a, b) => a.productId - b.productId || a.variantId - b.variantId);

export const unavailableError = (unavailable: number[]) =>
  new Conflict('basket-unavailable', { basket: ['basket-unavailable'] }, 'basket-unavailable', {
    unavailable,
  });

/** The product rows each open transaction has locked (a savepoint is a transaction of its own). */
const lockedProducts = new WeakMap<Executor, Set<number>>();

function rememberLocked(tx: Executor, productIds: readonly number[]) {
  const locked = lockedProducts.get(tx) ?? new Set<number>();
  for (const id of productIds) locked.add(id);
  lockedProducts.set(tx, locked);
}

/**
 * Locks products' rows in ascending id, for a transaction that changes their variants' stock (a
 * variant's stock moves its product's total) or that releases some units and then takes others.
 * Rows the transaction has already locked are not asked for again.
 */
export async function lockProducts(tx: Executor, productIds: readonly number[]): Promise<void> {
  const locked = lockedProducts.get(tx) ?? new Set<number>();
  const toLock = [...new Set(productIds)].filter((id) => !locked.has(id));
  if (toLock.length === 0) return;
  await tx
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, toLock))
    .orderBy(asc(products.id))
    // Not FOR UPDATE: that would also wait for the key-share locks an order's own inserts (its
    // lines' and ledger's foreign keys) take, and two orders holding those would deadlock.
    .for('no key update');
  rememberLocked(tx, toLock);
}

async function record(
  tx: Executor,
  rows: readonly { productId: number; variantId: number; delta: number }[],
  reason: StockReason,
  source: StockSource,
  now: Date,
): Promise<void> {
  const moved = rows.filter((row) => row.delta !== 0);
  if (moved.length === 0) return;
  await tx.insert(stockMovements).values(
    moved.map((row) => ({
      productId: row.productId,
      variantId: row.variantId,
      delta: row.delta,
      reason,
      orderId: source.orderId ?? null,
      actorId: source.actorId ?? null,
      note: source.note?.trim() || null,
      createdAt: now,
    })),
  );
}

/** One order's units to take: its items, its id for the ledger and its moment. */
export interface OrderStock {
  orderId: number;
  items: readonly StockItem[];
  now: Date;
}

/**
 * Takes an order's units (reason `sale`) in one statement: the products' rows locked in ascending
 * id, then every variant's units taken by a conditional update with their ledger rows. An item
 * short of stock (or no longer orderable, when asked) throws basket-unavailable with the product
 * ids that could not be taken; the caller's transaction, or a savepoint around this call, undoes
 * the items already taken. Order placement calls it last, just before its commit, so that the
 * products' rows (the hot ones of a drop) are held for this one statement and the commit (ADR 0077).
 */
export async function takeStock(
  tx: Transaction,
  items: readonly StockItem[],
  now: Date,
  options: { orderableOnly: boolean; orderId: number },
): Promise<void> {
  const short = await takeOrdersStock(tx, [{ orderId: options.orderId, items, now }], options);
  if (short.length > 0) throw unavailableError(short);
}

/**
 * Takes the units of several orders (a batch placed in one transaction, ADR 0083) in one
 * statement, as `takeStock` does for one: each variant's units of all the orders by one
 * conditional update, a ledger row per order and variant. All or nothing per variant: answers the
 * ids of the products whose units (summed over the orders) were not all there, or not orderable
 * at the earliest of the orders' moments; the caller then rolls back what was taken.
 */
export async function takeOrdersStock(
  tx: Transaction,
  orders: readonly OrderStock[],
  options: { orderableOnly: boolean },
): Promise<number[]> {
  // One ledger line per order and variant; the units per variant over every order.
  const lines = new Map<string, StockItem & { orderId: number; at: string }>();
  const wanted = new Map<number, StockItem>();
  for (const order of orders) {
    for (const item of order.items) {
      const key = `${order.orderId}:${item.variantId}`;
      const line = lines.get(key);
      lines.set(key, {
        ...item,
        orderId: order.orderId,
        at: order.now.toISOString(),
        count: (line?.count ?? 0) + item.count,
      });
      const same = wanted.get(item.variantId);
      wanted.set(item.variantId, { ...item, count: (same?.count ?? 0) + item.count });
    }
  }
  if (wanted.size === 0) return [];
  const moments = orders.map((order) => order.now.getTime());
  const earliest = new Date(Math.min(...moments));
  const latest = new Date(Math.max(...moments)).toISOString();
  const productIds = [...new Set([...wanted.values()].map((item) => item.productId))].sort((a, b) => a - b);
  const values = sql.join(
    [...lines.values()].map(
      (line) =>
        sql`(${line.orderId}::integer, ${line.variantId}::integer, ${line.productId}::integer, ${line.count}::integer, ${line.at}::timestamptz)`,
    ),
    sql`, `,
  );
  // The products' rows first, in ascending id, then the variants' with their ledger rows: the order
  // every stock writer keeps, as a variant's change moves its product's total (a trigger). `locked`
  // is counted by an uncorrelated subquery, which PostgreSQL runs once before the update's first
  // row: every product is locked before any variant is written. Not FOR UPDATE: see lockProducts.
  const result = await tx.execute(sql`with
    lines (order_id, variant_id, product_id, count, at) as (values ${values}),
    wanted as (
      select variant_id, product_id, sum(count)::integer as count from lines group by variant_id, product_id),
    locked as (
      select ${products.id} from ${products}
      where ${inArray(products.id, productIds)}
      order by ${products.id}
      for no key update),
    taken as (
      update ${productVariants} as v set quantity = v.quantity - wanted.count, updated_at = ${latest}::timestamptz
      from wanted
      where (select count(*) from locked) = ${productIds.length}
        and v.id = wanted.variant_id and v.product_id = wanted.product_id and v.quantity >= wanted.count
        ${
          options.orderableOnly
            ? sql`and exists (select 1 from ${products} join ${projects} on ${projects.id} = ${products.projectId}
                where ${products.id} = wanted.product_id and ${isOrderable(earliest)})`
            : sql``
        }
      returning v.id as variant_id)
    insert into ${stockMovements} (product_id, variant_id, delta, reason, order_id, created_at)
    select lines.product_id, lines.variant_id, -lines.count, 'sale', lines.order_id, lines.at
    from lines join taken on taken.variant_id = lines.variant_id
    returning variant_id`);
  rememberLocked(tx, productIds);
  const taken = new Set(
    (result as unknown as { rows: Array<{ variant_id: number }> }).rows.map((row) => Number(row.variant_id)),
  );
  const short = [...wanted.values()].filter((item) => !taken.has(item.variantId));
  return [...new Set(short.map((item) => item.productId))];
}

/**
 * Puts an order's units back (`cancellation` or `refund`). Items whose variant is gone (deleted by
 * staff after the order was placed) have nothing to go back to.
 */
export async function releaseStock(
  tx: Transaction,
  items: readonly StockItem[],
  now: Date,
  options: { reason: 'cancellation' | 'refund'; orderId: number; actorId?: number; shop?: MailShop },
): Promise<void> {
  await lockProducts(
    tx,
    items.map((item) => item.productId),
  );
  const released: StockItem[] = [];
  for (const item of inLockOrder(items)) {
    const [row] = await tx
      .update(productVariants)
      .set({ quantity: sql`${productVariants.quantity} + ${item.count}`, updatedAt: now })
      .where(eq(productVariants.id, item.variantId))
      .returning({ productId: productVariants.productId });
    if (row) released.push({ ...item, productId: row.productId });
  }
  await record(
    tx,
    released.map((item) => ({ ...item, delta: item.count })),
    options.reason,
    { orderId: options.orderId, ...(options.actorId === undefined ? {} : { actorId: options.actorId }) },
    now,
  );
  await notifyBackInStock(
    tx,
    released.map((item) => item.variantId),
    options.shop,
  );
}

/** A change staff make to one variant's units. */
export type StaffStockChange =
  /** Units added (receipt, positive) or written off (negative). */
  | { variantId: number; delta: number }
  /** The units counted, over the figure the manager saw (`seen`). */
  | { variantId: number; counted: number; seen: number };

export const stockMoved = (variantId: number, current: number) =>
  new Conflict('stock-moved', { quantity: ['stock-moved'] }, 'stock-moved', { variantId, current });

/**
 * Applies staff's stock changes to a product's variants, each one movement: a delta is a
 * `receipt` (or `write-off` when negative; writing off more than the stock holds is refused, never
 * cut to zero); a count is a `correction` of the figure the manager saw, refused (409 stock-moved,
 * with the current figure) when the stock has moved since. `reason` overrides the movement's
 * reason (`import` for the CSV). The caller's transaction rolls back on a refusal.
 */
export async function changeStock(
  tx: Transaction,
  productId: number,
  changes: readonly StaffStockChange[],
  source: StockSource & { reason?: 'import'; shop?: MailShop; now?: Date },
): Promise<void> {
  if (changes.length === 0) return;
  const now = source.now ?? new Date();
  await lockProducts(tx, [productId]);
  const back: number[] = [];
  for (const change of [...changes].sort((a, b) => a.variantId - b.variantId)) {
    const delta = 'delta' in change ? change.delta : change.counted - change.seen;
    if (delta === 0) continue;
    const target = and(eq(productVariants.id, change.variantId), eq(productVariants.productId, productId));
    const [row] = await tx
      .update(productVariants)
      .set({ quantity: sql`${productVariants.quantity} + ${delta}`, updatedAt: now })
      .where(
        and(
          target,
          'delta' in change
            ? gte(productVariants.quantity, -delta)
            : eq(productVariants.quantity, change.seen),
        ),
      )
      .returning({ quantity: productVariants.quantity });
    if (!row) {
      const [current] = await tx
        .select({ quantity: productVariants.quantity })
        .from(productVariants)
        .where(target);
      if (!current) throw new Invalid('variant-unavailable', { variant: ['variant-unavailable'] });
      if ('delta' in change)
        throw new Invalid('write-off-exceeds-stock', { quantity: ['write-off-exceeds-stock'] }, undefined, {
          variantId: change.variantId,
          current: current.quantity,
        });
      throw stockMoved(change.variantId, current.quantity);
    }
    const reason: StockReason =
      source.reason ?? ('delta' in change ? (delta > 0 ? 'receipt' : 'write-off') : 'correction');
    await record(tx, [{ productId, variantId: change.variantId, delta }], reason, source, now);
    if (row.quantity === delta) back.push(change.variantId);
  }
  await notifyBackInStock(tx, back, source.shop);
}

/**
 * Writes an `initial` movement for every variant whose stock the ledger does not account for yet
 * (a seeded catalogue, a test fixture inserted directly): afterwards the ledger adds up everywhere.
 */
export async function recordOpeningStock(tx: Executor): Promise<void> {
  await tx.execute(sql`insert into ${stockMovements} (product_id, variant_id, delta, reason, note)
    select v.product_id, v.id, v.quantity - coalesce(m.total, 0), 'initial', 'opening stock'
    from ${productVariants} v
    left join (select variant_id, sum(delta)::integer as total from ${stockMovements} group by variant_id) m
      on m.variant_id = v.id
    where v.quantity <> coalesce(m.total, 0)`);
}

/**
 * A product's movements, newest first, each with its variant's stock right after it: all its
 * variants', or one variant's.
 */
export async function stockHistory(
  db: Executor,
  productId: number,
  options: { variantId?: number; limit?: number } = {},
) {
  const ledger = db
    .select({
      id: stockMovements.id,
      variantId: stockMovements.variantId,
      delta: stockMovements.delta,
      balance:
        sql<number>`(sum(${stockMovements.delta}) over (partition by ${stockMovements.variantId} order by ${stockMovements.id}))::integer`.as(
          'balance',
        ),
      reason: stockMovements.reason,
      orderId: stockMovements.orderId,
      actorId: stockMovements.actorId,
      note: stockMovements.note,
      createdAt: stockMovements.createdAt,
    })
    .from(stockMovements)
    .where(eq(stockMovements.productId, productId))
    .as('ledger');
  return db
    .select({
      id: ledger.id,
      variantId: ledger.variantId,
      sku: productVariants.sku,
      delta: ledger.delta,
      balance: ledger.balance,
      reason: ledger.reason,
      orderId: ledger.orderId,
      actorEmail: users.email,
      note: ledger.note,
      createdAt: ledger.createdAt,
    })
    .from(ledger)
    .innerJoin(productVariants, eq(productVariants.id, ledger.variantId))
    .leftJoin(users, eq(users.id, ledger.actorId))
    .where(options.variantId === undefined ? undefined : eq(ledger.variantId, options.variantId))
    .orderBy(desc(ledger.id))
    .limit(options.limit ?? 200);
}

export type StockMovementView = Awaited<ReturnType<typeof stockHistory>>[number];
