import { expect, it } from 'vitest';
import { sleep } from '../../bench/processes.ts';
import { createAccounts, isRunning, killHard, withTwoInstances } from './cluster.ts';
import { ConnectionFailure, orderBody, Shopper } from './shopper.ts';

/**
 * kill -9 of one of two instances while shoppers check out on both: every order that exists is
 * whole (items, totals, history, mail), the stock equals the starting stock minus what the orders
 * still holding stock took, and the killed instance, started again, serves the same sessions.
 */

const SHOPPERS = 24;
/** Checkouts that must have gone through before the kill, and in flight on the victim at the kill. */
const ORDERS_BEFORE_KILL = 10;
const IN_FLIGHT_AT_KILL = 2;
const TRAFFIC_AFTER_KILL_MS = 3_000;

const cluster = withTwoInstances('crash');
const { rows } = cluster;

it('keeps orders whole and stock consistent when an instance is killed in the middle of checkouts', async () => {
  const accounts = await createAccounts(cluster.database, SHOPPERS, 'crash');
  const initialStock = new Map(
    (await rows<{ id: number; quantity: number }>('select id, quantity from products')).map((row) => [
      row.id,
      row.quantity,
    ]),
  );
  const orderable = (
    await rows<{ id: number }>(
      'select id from products where visible and not envisioned and quantity > 0 and not exists (select 1 from product_options o where o.product_id = products.id)',
    )
  ).map((row) => row.id);

  const counts = { placed: 0, cancelled: 0, soldOut: 0, cutOff: 0, inFlightOnVictim: 0 };
  let stop = false;
  let killed = false;
  const shoppers = accounts.map((account, index) => ({
    account,
    shopper: new Shopper((index % 2 ? cluster.b : cluster.a).baseUrl),
  }));
  await Promise.all(shoppers.map(({ shopper, account }) => shopper.signIn(account.email, account.password)));

  const checkOut = async (shopper: Shopper, email: string) => {
    for (let item = 0; item < 1 + Math.floor(Math.random() * 2); item++) {
      const product = orderable[Math.floor(Math.random() * orderable.length)];
      const added = await shopper.post('basket add', '/api/basket', { form: { product: String(product) } });
      if (added.status >= 500) throw new Error(`basket add answered ${added.status}`);
    }
    const onVictim = shopper.baseUrl === cluster.a.baseUrl;
    if (onVictim) counts.inFlightOnVictim += 1;
    let placed: Awaited<ReturnType<Shopper['post']>>;
    try {
      placed = await shopper.post('order', '/api/order', { json: orderBody(email, 'paypal') });
    } finally {
      if (onVictim) counts.inFlightOnVictim -= 1;
    }
    if (placed.status === 200) {
      counts.placed += 1;
      if (Math.random() < 0.4) {
        const id = (placed.json as { order: { id: number } }).order.id;
        const cancelled = await shopper.post('cancel', '/api/paypal/cancel', { form: { order: String(id) } });
        expect(cancelled.status).toBe(200);
        counts.cancelled += 1;
      }
    } else if (placed.status === 409) {
      counts.soldOut += 1;
      for (const id of (placed.json as { unavailable?: number[] }).unavailable ?? []) {
        await shopper.post('basket remove', '/api/basket/0', {
          form: { _method: 'DELETE', product: String(id) },
        });
      }
    } else if (placed.status !== 422) {
      throw new Error(`POST /api/order answered ${placed.status}: ${placed.text.slice(0, 300)}`);
    }
  };

  const traffic = Promise.all(
    shoppers.map(async ({ shopper, account }) => {
      while (!stop) {
        try {
          await checkOut(shopper, account.email);
        } catch (error) {
          // Cut off by the kill: the shopper's next request goes to the surviving instance, as a
          // load balancer would send it.
          if (!(error instanceof ConnectionFailure) || !killed) throw error;
          counts.cutOff += 1;
          shopper.baseUrl = cluster.b.baseUrl;
        }
      }
    }),
  );

  const killDeadline = Date.now() + 30_000;
  while (counts.placed < ORDERS_BEFORE_KILL || counts.inFlightOnVictim < IN_FLIGHT_AT_KILL) {
    if (Date.now() > killDeadline) throw new Error(`no moment to kill: ${JSON.stringify(counts)}`);
    await sleep(2);
  }
  const inFlightAtKill = counts.inFlightOnVictim;
  killed = true;
  await killHard(cluster.a);
  await sleep(TRAFFIC_AFTER_KILL_MS);
  stop = true;
  await traffic;
  console.log(`kill -9 with ${inFlightAtKill} checkouts in flight on the victim: ${JSON.stringify(counts)}`);
  expect(counts.cutOff).toBeGreaterThan(0);
  expect(isRunning(cluster.b)).toBe(true);

  // No half-written order: every order has items, totals that add up, its history and its mail.
  expect(
    await rows(
      'select id from orders o where not exists (select 1 from order_items i where i.order_id = o.id)',
    ),
  ).toEqual([]);
  expect(
    await rows(`select o.id from orders o join order_items i on i.order_id = o.id
      group by o.id having o.products_cost <> sum(coalesce(i.sale, i.price) * i.count)`),
  ).toEqual([]);
  const [ledger] = await rows<Record<string, number>>(`select
      (select count(*)::int from orders) as orders,
      (select count(*)::int from order_status_history where reason = 'placed') as placed,
      (select count(*)::int from mails where template = 'order-placed') as "placedMails",
      (select count(*)::int from orders where status = 2) as cancelled,
      (select count(*)::int from order_status_history where status = 2) as "cancelRecords",
      (select count(*)::int from mails where template = 'order-cancelled') as "cancelMails"`);
  expect(ledger?.orders).toBeGreaterThanOrEqual(counts.placed);
  expect(ledger).toEqual({
    orders: ledger?.orders,
    placed: ledger?.orders,
    placedMails: ledger?.orders,
    cancelled: ledger?.cancelled,
    cancelRecords: ledger?.cancelled,
    cancelMails: ledger?.cancelled,
  });
  expect(ledger?.cancelled).toBeGreaterThanOrEqual(counts.cancelled);

  // Stock: what there was, less what the orders that still hold stock (not cancelled) took.
  const held = await rows<{ id: number; quantity: number; held: number }>(`
    select p.id, p.quantity, coalesce(sum(i.count) filter (where o.status <> 2), 0)::int as held
      from products p
      left join order_items i on i.product_id = p.id
      left join orders o on o.id = i.order_id
     group by p.id order by p.id`);
  expect(held.filter((row) => row.held > 0).length).toBeGreaterThan(0);
  const mismatches = held.filter((row) => row.quantity !== (initialStock.get(row.id) ?? 0) - row.held);
  expect(mismatches).toEqual([]);

  // Started again on the same data folder and database, the victim serves the same sessions.
  cluster.a = await cluster.a.restart();
  const survivor = shoppers[0] as (typeof shoppers)[number];
  survivor.shopper.baseUrl = cluster.a.baseUrl;
  const user = await survivor.shopper.ok<{ user: { email: string } | null }>('user', 'GET', '/api/user');
  expect(user.user?.email).toBe(survivor.account.email);
  expect(
    (await survivor.shopper.request('page', 'GET', '/', undefined, { accept: 'text/html' })).status,
  ).toBe(200);
  expect((await survivor.shopper.get('basket', '/api/basket')).status).toBe(200);
});
