import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createShoppers, ORDER_FORM, signIn } from './orders.ts';

/**
 * The hot product row (issue 32, point 5): many signed-in shoppers, each with the same product in
 * the basket, place their orders at the same moment. Measures orders a second, placement latency,
 * how many were placed against the stock, the shop's CPU per order (from /proc) and the database's
 * work per order (pg_stat_database).
 */

export interface HotResult {
  /** Instances of the shop the shoppers were spread over (on one database). */
  instances: number;
  /** The round held the shop's first orders since it started. */
  firstSinceStart: boolean;
  shoppers: number;
  stock: number;
  placed: number;
  refused: number;
  failed: number;
  seconds: number;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Milliseconds of the shop processes' CPU (user + system) per order answered. */
  cpuMsPerOrder: number | undefined;
  /** Transactions committed and rows written in the database, per order answered. */
  commitsPerOrder: number;
  rowsWrittenPerOrder: number;
  stockLeft: number;
  /** Units that came back to the variant during the round (earlier rounds' orders expiring, with --hot-reuse). */
  returned: number;
  ledgerMatches: boolean;
  lastError?: string;
}

/** CPU time (user + system, ms) a process has used so far, from /proc; undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>) {
  for (let index = 0; index < items.length; index += width) {
    await Promise.all(items.slice(index, index + width).map(task));
  }
}

async function databaseCounters(client: pg.Client) {
  const { rows } = await client.query<{ commits: string; written: string }>(
    `select xact_commit as commits, tup_inserted + tup_updated + tup_deleted as written
     from pg_stat_database where datname = current_database()`,
  );
  return { commits: Number(rows[0]?.commits ?? 0), written: Number(rows[0]?.written ?? 0) };
}

/** CPU time (ms) the processes have used so far; undefined when one cannot be read. */
function processesCpuMs(pids: readonly (number | undefined)[]): number | undefined {
  let sum = 0;
  for (const pid of pids) {
    const used = processCpuMs(pid);
    if (used === undefined) return undefined;
    sum += used;
  }
  return sum;
}

/**
 * One round: `shoppers` new accounts (`prefix`) sign in and put one unit of the variant in their
 * baskets; its stock is set to `stock` (with its ledger movement); then every shopper's order is
 * sent at once. With several instances (`baseUrls`, one database), shopper i uses instance i mod n
 * from sign-in to order.
 */
export async function hotRound(options: {
  baseUrls: readonly string[];
  databaseUrl: string;
  shopPids: readonly (number | undefined)[];
  shopCookie: string;
  password: string;
  product: number;
  variant: number;
  shoppers: number;
  stock: number;
  prefix: string;
  firstSinceStart?: boolean;
}): Promise<HotResult> {
  const { baseUrls } = options;
  const instanceOf = (index: number) => baseUrls[index % baseUrls.length] as string;
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    // The stock, set as staff would: one movement of the difference, so the ledger still adds up.
    // The product's row is locked first, as the shop's stock writers do: an earlier round's order
    // expiring meanwhile (its units put back) then commits before the figure the difference is
    // counted from is read. Without it the update waited for that row and counted from the older
    // figure, and the ledger was off by the units put back.
    const setStock = async (quantity: number) => {
      await client.query('begin');
      try {
        await client.query(
          `select 1 from products where id = (select product_id from product_variants where id = $1)
           for no key update`,
          [options.variant],
        );
        await client.query(
          `with old as (select quantity from product_variants where id = $1),
           moved as (update product_variants set quantity = $2 where id = $1 returning product_id)
         insert into stock_movements (product_id, variant_id, delta, reason, note)
         select moved.product_id, $1, $2 - old.quantity, 'correction', 'bench: hot product'
         from moved, old where $2 <> old.quantity`,
          [options.variant, quantity],
        );
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    };
    // Enough for every basket first, then the round's stock.
    await setStock(options.shoppers);
    const emails = await createShoppers(
      options.databaseUrl,
      options.shoppers,
      options.password,
      options.prefix,
    );
    const shoppers: Array<{ baseUrl: string; cookie: string }> = [];
    await inBatches(
      emails.map((email, index) => ({ email, baseUrl: instanceOf(index) })),
      8,
      async ({ email, baseUrl }) => {
        const session = await signIn(baseUrl, options.shopCookie, email, options.password);
        shoppers.push({ baseUrl, cookie: `${options.shopCookie}; ${session}` });
      },
    );
    const headers = ({ baseUrl, cookie }: { baseUrl: string; cookie: string }) => ({
      'content-type': 'application/json',
      cookie,
      origin: baseUrl,
    });
    await inBatches(shoppers, 8, async (shopper) => {
      const response = await fetch(`${shopper.baseUrl}/api/basket`, {
        method: 'POST',
        headers: headers(shopper),
        body: JSON.stringify({ product: options.product, variant: options.variant }),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`/api/basket answered ${response.status}`);
    });

    await setStock(options.stock);
    const { rows: clock } = await client.query<{ now: Date }>('select now() as now');
    const before = await databaseCounters(client);
    const cpuBefore = processesCpuMs(options.shopPids);
    const latencies: number[] = [];
    let placed = 0;
    let refused = 0;
    let failed = 0;
    let lastError: string | undefined;
    const started = performance.now();
    await Promise.all(
      shoppers.map(async (shopper) => {
        const sent = performance.now();
        try {
          const response = await fetch(`${shopper.baseUrl}/api/order`, {
            method: 'POST',
            headers: headers(shopper),
            body: JSON.stringify(ORDER_FORM),
          });
          const text = await response.text();
          latencies.push(performance.now() - sent);
          if (response.ok) placed += 1;
          else if (response.status === 409 && text.includes('basket-unavailable')) refused += 1;
          else {
            failed += 1;
            lastError = `${response.status} ${text.slice(0, 200)}`;
          }
        } catch (error) {
          failed += 1;
          lastError = (error as Error).message;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = processesCpuMs(options.shopPids);
    // pg_stat_database is updated when a backend reports, at most every second or so.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const after = await databaseCounters(client);
    const answered = placed + refused;
    const { rows } = await client.query<{ quantity: number; ledger: number }>(
      `select v.quantity, (select coalesce(sum(delta), 0)::int from stock_movements m where m.variant_id = v.id) as ledger
       from product_variants v where v.id = $1`,
      [options.variant],
    );
    const { rows: back } = await client.query<{ returned: number }>(
      `select coalesce(sum(delta), 0)::int as returned from stock_movements
       where variant_id = $1 and reason in ('cancellation', 'refund') and created_at >= $2`,
      [options.variant, clock[0]?.now],
    );
    const sorted = latencies.toSorted((a, b) => a - b);
    return {
      instances: baseUrls.length,
      firstSinceStart: options.firstSinceStart ?? false,
      shoppers: options.shoppers,
      stock: options.stock,
      placed,
      refused,
      failed,
      seconds,
      ordersPerSecond: answered / seconds,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      cpuMsPerOrder:
        cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / answered,
      commitsPerOrder: (after.commits - before.commits) / answered,
      rowsWrittenPerOrder: (after.written - before.written) / answered,
      stockLeft: rows[0]?.quantity ?? -1,
      returned: back[0]?.returned ?? 0,
      ledgerMatches: rows[0] !== undefined && rows[0].quantity === rows[0].ledger,
      ...(lastError ? { lastError } : {}),
    };
  } finally {
    await client.end();
  }
}

export function hotLine(result: HotResult) {
  const cpu = result.cpuMsPerOrder === undefined ? 'n/a' : `${result.cpuMsPerOrder.toFixed(1)} ms`;
  // Every unit sold once: the placed and the left add up to the stock and what came back; with
  // nothing back, as many placed as there was stock for.
  const exact =
    result.failed === 0 &&
    result.placed + result.stockLeft === result.stock + result.returned &&
    (result.returned > 0 || result.placed === Math.min(result.stock, result.shoppers));
  return (
    `hot product${result.firstSinceStart ? ", the shop's first orders" : ''}: ${result.shoppers} simultaneous orders${result.instances > 1 ? ` over ${result.instances} instances` : ''}, stock ${result.stock}: ` +
    `${result.ordersPerSecond.toFixed(0)} orders/s (${result.seconds.toFixed(2)} s), ` +
    `p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, ` +
    `placed ${result.placed}/${result.stock}${result.returned > 0 ? ` + ${result.returned} returned meanwhile` : ''} ` +
    `(${result.refused} refused, ${result.failed} failed)${exact ? ' exact' : ' NOT EXACT'}, ` +
    `shop CPU ${cpu}/order, ${result.commitsPerOrder.toFixed(1)} commits and ${result.rowsWrittenPerOrder.toFixed(1)} rows written/order, ` +
    `stock left ${result.stockLeft}, ledger ${result.ledgerMatches ? 'adds up' : 'DOES NOT add up'}` +
    (result.lastError ? ` (last error: ${result.lastError})` : '')
  );
}
