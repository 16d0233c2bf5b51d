import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  cloneSeededShop,
  createAccounts,
  type Instance,
  isRunning,
  POSTGRES_URL,
  removeDataDir,
  type ShopDatabase,
  startInstance,
} from './cluster.ts';
import { ConnectionFailure, Shopper } from './shopper.ts';

/**
 * PostgreSQL restarted under light traffic: the shop keeps answering (503 while the database is
 * away), does not crash, and serves normally again within seconds of the database being back,
 * without being restarted itself. Restarting the local cluster needs root and pg_ctlcluster (Debian's
 * postgresql-common), as on the CI machine; elsewhere the test is skipped. It always leaves
 * PostgreSQL running, whatever happens.
 */

const CLUSTER_VERSION = existsSync('/etc/postgresql')
  ? readdirSync('/etc/postgresql').sort().at(-1)
  : undefined;
const LOCAL = ['127.0.0.1', 'localhost', '::1'].includes(new URL(POSTGRES_URL).hostname);
const CAN_RESTART = CLUSTER_VERSION !== undefined && LOCAL && existsSync('/usr/bin/pg_ctlcluster');
const USERS = 6;
const PAUSE_MS = 50;
const TRAFFIC_BEFORE_MS = 2_000;
const TRAFFIC_AFTER_MS = 8_000;
/** How soon after PostgreSQL accepts connections again every request must succeed. */
const RECOVERY_LIMIT_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asynchronous, so that the traffic this process sends goes on while PostgreSQL restarts. */
const pgctl = (action: 'restart' | 'start') =>
  new Promise<void>((resolve, reject) =>
    execFile(
      'pg_ctlcluster',
      ['--skip-systemctl-redirect', CLUSTER_VERSION ?? '', 'main', action],
      { timeout: 60_000 },
      (error) => (error ? reject(error) : resolve()),
    ),
  );

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Waits until PostgreSQL answers; starts the cluster if it is not running. Returns when it answered. */
async function ensurePostgresUp(): Promise<number> {
  const deadline = Date.now() + 60_000;
  let started = false;
  while (!(await postgresAnswers())) {
    if (Date.now() > deadline) throw new Error('PostgreSQL did not come back within a minute');
    if (!started && Date.now() > deadline - 50_000) {
      started = true;
      await pgctl('start').catch(() => {
        // already starting
      });
    }
    await sleep(100);
  }
  return Date.now();
}

let database: ShopDatabase | undefined;
let dataDir: string | undefined;
let shop: Instance | undefined;

beforeAll(async () => {
  if (!CAN_RESTART) return;
  ({ database, dataDir } = await cloneSeededShop());
  shop = await startInstance({ name: 'pg-restart', databaseUrl: database.url, dataDir });
});

afterAll(async () => {
  if (CAN_RESTART) await ensurePostgresUp();
  await shop?.stop();
  await database?.drop();
  if (dataDir) removeDataDir(dataDir);
});

interface Outcome {
  at: number;
  kind: string;
  status: number | 'connection-error';
}

it.skipIf(!CAN_RESTART)('recovers by itself when PostgreSQL restarts under traffic', async () => {
  if (!shop || !database) throw new Error('not started');
  const instance = shop;
  const accounts = await createAccounts(database, USERS, 'restart');
  const [product] = (
    await database.sql.query<{ id: number }>(
      'select id from products where visible and not envisioned and quantity > 0 and not exists (select 1 from product_options o where o.product_id = products.id) order by id limit 1',
    )
  ).rows;
  if (!product) throw new Error('no product in stock');
  const item = { product: String(product.id) };
  const outcomes: Outcome[] = [];
  let stop = false;

  const traffic = Promise.all(
    accounts.map(async (account) => {
      const shopper = new Shopper(instance.baseUrl, {
        record: (kind, _ms, status) => outcomes.push({ at: Date.now(), kind, status }),
      });
      await shopper.signIn(account.email, account.password);
      // Calls that read or write the database on every request: the session, the basket, the orders.
      const calls: [string, string, string, Record<string, string>?][] = [
        ['basket add', 'POST', '/api/basket', item],
        ['basket', 'GET', '/api/basket?locale=en'],
        ['basket remove', 'POST', '/api/basket/0', { _method: 'DELETE', ...item }],
        ['orders', 'GET', '/api/order'],
        ['user', 'GET', '/api/user'],
      ];
      while (!stop) {
        for (const [kind, method, target, form] of calls) {
          try {
            await shopper.request(kind, method, target, form ? { form } : undefined);
          } catch (error) {
            if (!(error instanceof ConnectionFailure)) throw error;
          }
          await sleep(PAUSE_MS);
        }
      }
    }),
  );

  let restartedAt = 0;
  let backAt = 0;
  try {
    await sleep(TRAFFIC_BEFORE_MS);
    restartedAt = Date.now();
    await pgctl('restart');
    backAt = await ensurePostgresUp();
    await sleep(TRAFFIC_AFTER_MS);
  } finally {
    stop = true;
    await ensurePostgresUp();
    await traffic;
  }

  const failed = (outcome: Outcome) => outcome.status === 'connection-error' || outcome.status >= 400;
  const during = outcomes.filter((outcome) => outcome.at >= restartedAt && outcome.at <= backAt);
  const after = outcomes.filter((outcome) => outcome.at > backAt);
  const lastFailure = Math.max(0, ...after.filter(failed).map((outcome) => outcome.at));
  const recoveredAfterMs = lastFailure === 0 ? 0 : lastFailure - backAt;
  const statuses = (list: Outcome[]) =>
    Object.fromEntries(
      [...new Set(list.map((outcome) => String(outcome.status)))].map((status) => [
        status,
        list.filter((outcome) => String(outcome.status) === status).length,
      ]),
    );
  console.log(
    `PostgreSQL restart took ${backAt - restartedAt} ms; during it: ${JSON.stringify(statuses(during))}; ` +
      `after: ${JSON.stringify(statuses(after))}; last failure ${recoveredAfterMs} ms after PostgreSQL was back`,
  );

  expect(isRunning(instance)).toBe(true);
  // The shop itself never stopped answering; what failed while the database was away said 503.
  expect(outcomes.filter((outcome) => outcome.status === 'connection-error')).toEqual([]);
  expect(outcomes.filter((outcome) => failed(outcome) && outcome.status !== 503)).toEqual([]);
  expect(recoveredAfterMs).toBeLessThan(RECOVERY_LIMIT_MS);
  expect(after.filter((outcome) => !failed(outcome)).length).toBeGreaterThan(20);
  // Writes work again too.
  expect(after.some((outcome) => outcome.kind === 'basket add' && outcome.status === 200)).toBe(true);
});
