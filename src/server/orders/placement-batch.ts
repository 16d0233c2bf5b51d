import { type OrderStock, takeOrdersStock, takeStock } from '../catalog/stock.ts';
import type { Database, Transaction } from '../db/client.ts';

/**
 * Group commit of order placement (ADR 0083). The orders a process is asked to place while the
 * previous batch is still committing are placed together in ONE transaction, so a drop's orders
 * share one commit (one WAL flush) instead of queueing one commit each behind the product's row.
 * Like PostgreSQL's own group commit there is no timer: a lone order starts at once, and a batch
 * closes when the one before it has committed.
 *
 * Each order runs in a savepoint of its own, so it succeeds or fails alone (out of stock, a
 * changed total, an empty basket) while the others of the batch are placed. Its units are checked
 * against what the database showed less what the batch's earlier orders claimed, and taken for
 * the whole batch by one statement just before the commit (`takeOrdersStock`): the products' rows
 * are held for that statement and the commit only. When that statement finds fewer units than the
 * batch counted on (another instance's batch took them meanwhile, or staff changed the stock), or
 * PostgreSQL picks the batch as a deadlock's victim, the batch is rolled back and its orders are
 * placed again one transaction each: exact under any stock either way. An order that must lock
 * product rows of its own before the end (it replaces the shopper's unpaid order) is placed alone,
 * after its batch, so that every transaction takes product rows in id order and none deadlocks.
 */

/** What an order's placement sees of the batch's stock. */
export interface BatchStock {
  /** The units of a variant left for this order: the figure read, less what the batch claimed. */
  left(variantId: number, quantity: number): number;
  /** Takes the order's units, now or with the batch's last statement; the order fails if short. */
  take(transaction: Transaction, order: OrderStock): Promise<void>;
  /**
   * Called before the order locks product rows of its own (it replaces the shopper's unpaid order):
   * such an order is placed in a transaction of its own, after its batch, so that no transaction
   * holds product rows out of their id order and none can deadlock with a cancellation or a refund
   * that takes them in order (catalog/stock.ts).
   */
  alone(): void;
}

/** Places one order in its savepoint; answers what the caller of `inPlacementBatch` gets. */
export type Placement<T> = (transaction: Transaction, stock: BatchStock) => Promise<T>;

interface Waiting {
  place: Placement<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Orders per transaction at most: bounds what one rollback and retry cost. */
const BATCH_LIMIT = 64;
/** The first attempt takes the units at the end; the retries take each order's own. */
const ATTEMPTS = 3;

const queues = new WeakMap<Database, { waiting: Waiting[]; running: boolean }>();

/** Thrown inside a batch's transaction to roll it back and place its orders again. */
class PlaceAgain extends Error {}

/** Thrown inside an order's savepoint: the order is placed alone once its batch has committed. */
class PlaceAlone extends Error {}

/** A deadlock or a serialization failure: PostgreSQL asks for the transaction to be run again. */
function mustRunAgain(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === '40P01' || code === '40001') return true;
  }
  return false;
}

/**
 * Places `place` in the next batch of `db`'s orders and answers its outcome once that batch has
 * committed: its value, or its own error (its savepoint rolled back, the others unaffected), or the
 * batch's error when the transaction itself failed.
 */
export function inPlacementBatch<T>(db: Database, place: Placement<T>): Promise<T> {
  let queue = queues.get(db);
  if (!queue) {
    queue = { waiting: [], running: false };
    queues.set(db, queue);
  }
  const waiting = queue;
  return new Promise<T>((resolve, reject) => {
    waiting.waiting.push({ place, resolve: resolve as (value: unknown) => void, reject });
    if (!waiting.running) {
      waiting.running = true;
      // After the I/O callbacks of this turn of the event loop, so that orders parsed together
      // start together; no timer.
      setImmediate(() => void drain(db, waiting));
    }
  });
}

async function drain(db: Database, queue: { waiting: Waiting[]; running: boolean }) {
  try {
    while (queue.waiting.length > 0) await placeBatch(db, queue.waiting.splice(0, BATCH_LIMIT));
  } finally {
    queue.running = false;
  }
}

type Outcome = { placed: true; value: unknown } | { placed: false; error: unknown } | { alone: true };

async function placeBatch(db: Database, batch: readonly Waiting[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const atTheEnd = attempt === 1;
    const outcomes: Outcome[] = [];
    try {
      await db.transaction(async (transaction) => {
        const claimed = new Map<number, number>();
        const toTake: OrderStock[] = [];
        for (const order of batch) {
          let taken: OrderStock | undefined;
          const stock: BatchStock = {
            left: (variantId, quantity) => quantity - (claimed.get(variantId) ?? 0),
            async take(savepoint, units) {
              if (atTheEnd) taken = units;
              else
                await takeStock(savepoint, units.items, units.now, {
                  orderableOnly: true,
                  orderId: units.orderId,
                });
            },
            alone() {
              if (batch.length > 1) throw new PlaceAlone();
            },
          };
          try {
            const value = await transaction.transaction((savepoint) => order.place(savepoint, stock));
            if (taken) {
              toTake.push(taken);
              for (const item of taken.items)
                claimed.set(item.variantId, (claimed.get(item.variantId) ?? 0) + item.count);
            }
            outcomes.push({ placed: true, value });
          } catch (error) {
            if (mustRunAgain(error) && attempt < ATTEMPTS) throw new PlaceAgain();
            outcomes.push(error instanceof PlaceAlone ? { alone: true } : { placed: false, error });
          }
        }
        if (toTake.length === 0) return;
        const short = await takeOrdersStock(transaction, toTake, { orderableOnly: true });
        if (short.length > 0) throw new PlaceAgain();
      });
    } catch (error) {
      if ((error instanceof PlaceAgain || mustRunAgain(error)) && attempt < ATTEMPTS) {
        // Again, one order a transaction: each then takes its units in product id order.
        if (batch.length > 1) {
          for (const order of batch) await placeBatch(db, [order]);
          return;
        }
        continue;
      }
      for (const order of batch) order.reject(error);
      return;
    }
    const alone: Waiting[] = [];
    batch.forEach((order, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) order.reject(new Error('an order of the batch has no outcome'));
      else if ('alone' in outcome) alone.push(order);
      else if (outcome.placed) order.resolve(outcome.value);
      else order.reject(outcome.error);
    });
    for (const order of alone) await placeBatch(db, [order]);
    return;
  }
}
