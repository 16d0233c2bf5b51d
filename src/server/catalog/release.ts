import { and, gt, isNotNull, min, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { products, projects } from '../db/schema.ts';

/**
 * When a product is released, listed and orderable (ADR 0041): decided at read time from
 * `products.release_at` and the clock, so every instance sees a release at the same moment without
 * a job flipping a flag. Statements that use these fragments join `projects` on the product's
 * project. Caches are bounded by the next release time (`createReleaseClock`).
 */

/**
 * The moment a fragment decides at: a time, or the placeholder of a statement built once (ADR
 * 0095), given the time as an ISO string when it runs.
 */
export type Moment = Date | Placeholder;

/** Released: never scheduled, or its release time has come. */
export const isReleased = (now: Moment): SQL =>
  sql`(${products.releaseAt} is null or ${products.releaseAt} <= ${now instanceof Date ? now.toISOString() : now}::timestamptz)`;

/** Has a page shoppers can open: it and its project are visible (released or only announced). */
export const isVisible: SQL = sql`(${products.visible} and ${projects.visible})`;

/** Shown in lists, search, suggestions, counts, the sitemap and recommendations: visible and released. */
export const isListed = (now: Moment): SQL => sql`(${isVisible} and ${isReleased(now)})`;

/**
 * Can be put in a basket and ordered (stock aside): listed, not only envisioned, and priced (the
 * database refuses a visible product without a price, but a hidden one may have none yet).
 */
export const isOrderable = (now: Moment): SQL =>
  sql`(${isListed(now)} and not ${products.envisioned} and ${products.price} > 0)`;

/** Orderable with units in stock: what "available" sorts and filters by. */
export const isAvailable = (now: Date): SQL => sql`(${products.quantity} > 0 and ${isOrderable(now)})`;

/** The earliest release time still to come, or null: what the caches may be kept until. */
export async function nextReleaseAt(db: Executor, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(products.releaseAt) })
    .from(products)
    .where(and(isNotNull(products.releaseAt), gt(products.releaseAt, now)));
  return row?.at ? new Date(row.at) : null;
}

/** The products whose release time is this moment: the ones a release clock tick releases. */
export async function productsReleasedAt(db: Executor, at: Date): Promise<number[]> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(sql`date_trunc('milliseconds', ${products.releaseAt}) = ${at}`);
  return rows.map((row) => row.id);
}

/** setTimeout's longest delay (about 24.8 days); a later release re-arms when it is reached. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface ReleaseClock {
  /**
   * Looks up the next release time and sets the timer for it. Call after a catalogue change (a
   * release time may have been set or moved); calls while one look-up runs are folded into one more.
   */
  rearm(): Promise<void>;
  close(): void;
}

/**
 * Each instance's alarm for the next release: at that moment `onRelease` runs (the caller empties
 * its caches, so no answer computed before the release is served after it), then the clock re-arms
 * for the following one. The timer is unref'd: it never keeps the process alive.
 */
export function createReleaseClock(options: {
  db: Executor;
  /** Called at each release time with that moment (products with exactly this release_at). */
  onRelease: (at: Date) => void | Promise<void>;
  clock?: () => Date;
  log?: (message: string) => void;
}): ReleaseClock {
  const clock = options.clock ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;

  const arm = (at: Date) => {
    if (timer) clearTimeout(timer);
    const delay = Math.min(Math.max(0, at.getTime() - clock().getTime()), LONGEST_TIMER_MS);
    timer = setTimeout(() => {
      timer = undefined;
      // A timer may fire a little early by the wall clock: then it waits for the rest.
      if (clock().getTime() < at.getTime()) return arm(at);
      void Promise.resolve(options.onRelease(at))
        .catch((error: Error) => options.log?.(`release clock: ${error.message}`))
        .finally(() => void rearm());
    }, delay);
    timer.unref();
  };

  const lookUp = async () => {
    do {
      again = false;
      const at = await nextReleaseAt(options.db, clock());
      if (closed) return;
      if (at) arm(at);
      else if (timer) {
        clearTimeout(timer);
        timer = undefined;
      }
    } while (again && !closed);
  };

  function rearm(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = lookUp()
      .catch((error: unknown) => options.log?.(`release clock: ${(error as Error).message}`))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    rearm,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
