import type { Database, Executor } from '../db/client.ts';
import { type JobHandler, scheduleRecurring } from '../jobs/queue.ts';
import type { MailShop } from '../mail/templates.ts';
import { expireOrders } from './service.ts';

/** Queue kind of the recurring job that cancels unpaid orders past their hold. */
export const ORDER_EXPIRY_JOB = 'orders.expire';

/**
 * How often unpaid orders past their hold are looked for: each minute, so an order of a drop with a
 * 10-minute hold gives its units back at most a minute late (ADR 0041).
 */
export const ORDER_EXPIRY_EVERY_MS = 60_000;

/** Cancels the orders due at the job's moment; `onExpired` runs when some were (their stock came back). */
export function orderExpiryHandler(options: {
  db: Database;
  shop?: MailShop;
  onExpired: () => Promise<void>;
}): JobHandler {
  return async (_payload, { now }) => {
    if ((await expireOrders(options.db, now, options.shop)) > 0) await options.onExpired();
  };
}

export const scheduleOrderExpiry = (db: Executor, clock?: () => Date) =>
  scheduleRecurring(db, ORDER_EXPIRY_JOB, ORDER_EXPIRY_EVERY_MS, clock);
