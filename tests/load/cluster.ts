import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { insertConfirmedAccounts } from '../../bench/orders.ts';
import { type Child, freePort, sleep, startNodeServer, waitUntilReady } from '../../bench/processes.ts';

/**
 * Real shop processes on one PostgreSQL server for the load and fault tests: fresh databases (empty,
 * or cloned from the seeded template of load.global.ts), a data folder shared by the instances like a
 * shared volume, and the processes themselves, started exactly as `npm run serve` would.
 */

/** The server the suite creates its databases on. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ADMIN = { email: 'admin@vitrina.example', password: 'load-admin-password' };
/** Cookies every shopper sends: English texts, no test-mode notice. */
export const SHOP_COOKIES = { locale: 'en', 'overlay-test-info': 'hidden' };

/** `POSTGRES_URL` with another database name. */
export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on the server's maintenance database (create and drop databases). */
export async function onServer(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface ShopDatabase {
  name: string;
  url: string;
  /** A pool on the database for the test's own checks. */
  sql: pg.Pool;
  drop(): Promise<void>;
}

/** A new database: empty, or a copy of `template` (which nobody may be connected to). */
export async function createDatabase(template?: string): Promise<ShopDatabase> {
  const name = `vitrina_load_${randomBytes(5).toString('hex')}`;
  await onServer(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = databaseUrl(name);
  const sql = new pg.Pool({ connectionString: url, max: 4 });
  // The PostgreSQL restart test drops these connections on purpose.
  sql.on('error', () => {});
  return {
    name,
    url,
    sql,
    async drop() {
      await sql.end();
      await onServer(`drop database if exists ${name} with (force)`);
    },
  };
}

/** Waits until the instances' mail workers have sent every queued mail (no `mail.send` job left). */
export async function waitForMailJobs(database: ShopDatabase, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await database.sql.query<{ count: number }>(
      "select count(*)::int as count from jobs where kind = 'mail.send' and finished_at is null",
    );
    const pending = rows[0]?.count ?? 0;
    if (pending === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`${pending} mail jobs still pending after ${timeoutMs / 1000} s`);
    }
    await sleep(250);
  }
}

export interface Account {
  id: number;
  email: string;
  password: string;
}

/** Confirmed shopper accounts `<label>-<n>@load.example`, written straight into the database. */
export async function createAccounts(
  database: ShopDatabase,
  count: number,
  label: string,
): Promise<Account[]> {
  const password = `${label}-password`;
  const emails = Array.from({ length: count }, (_, index) => `${label}-${index}@load.example`);
  const rows = await insertConfirmedAccounts(database.sql, emails, password);
  return rows.map((row) => ({ ...row, password }));
}

/** What load.global.ts leaves for the tests: a seeded database and its pictures. */
export interface SeededTemplate {
  database: string;
  dataDir: string;
  /** Output of the two instances that started together on the empty database to seed it. */
  startOutputs: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    loadTemplate: SeededTemplate;
  }
}

/** A fresh copy of the demo shop: the template's database and data folder, cloned. */
export async function cloneSeededShop(): Promise<{ database: ShopDatabase; dataDir: string }> {
  const template = inject('loadTemplate');
  const database = await createDatabase(template.database);
  const dataDir = newDataDir();
  cpSync(template.dataDir, dataDir, { recursive: true });
  return { database, dataDir };
}

/** Two instances, `a` and `b`, on a fresh copy of the seeded shop (one database, one data folder). */
export interface TwoInstances {
  database: ShopDatabase;
  dataDir: string;
  a: Instance;
  b: Instance;
}

export async function startTwoInstances(prefix: string): Promise<TwoInstances> {
  const { database, dataDir } = await cloneSeededShop();
  const [a, b] = (await Promise.all(
    [`${prefix}-a`, `${prefix}-b`].map((name) => startInstance({ name, databaseUrl: database.url, dataDir })),
  )) as [Instance, Instance];
  return { database, dataDir, a, b };
}

/**
 * Two instances for the tests of one file: started before them, stopped with their database and
 * data folder after them. The fields are set once the file's `beforeAll` has run; a test that
 * restarts an instance puts the new one in its place, so that one is stopped. `rows` queries the
 * instances' database.
 */
export function withTwoInstances(prefix: string) {
  const cluster = {
    rows: async <T>(text: string, values: unknown[] = []) =>
      (await cluster.database.sql.query(text, values)).rows as T[],
  } as TwoInstances & { rows<T>(text: string, values?: unknown[]): Promise<T[]> };
  beforeAll(async () => {
    Object.assign(cluster, await startTwoInstances(prefix));
  });
  afterAll(() => stopTwoInstances(cluster));
  return cluster;
}

/** Stops both instances and removes their database and data folder; safe after a failed start. */
export async function stopTwoInstances(cluster: Partial<TwoInstances>): Promise<void> {
  await Promise.all([cluster.a?.stop(), cluster.b?.stop()]);
  await cluster.database?.drop();
  if (cluster.dataDir) removeDataDir(cluster.dataDir);
}

export const newDataDir = () => mkdtempSync(path.join(os.tmpdir(), 'vitrina-load-'));
export const removeDataDir = (dataDir: string) => rmSync(dataDir, { recursive: true, force: true });

export interface Instance extends Child {
  port: number;
  /** Starts a new process with the same settings (after `kill`), on the same port. */
  restart(): Promise<Instance>;
}

export interface InstanceOptions {
  name: string;
  databaseUrl: string;
  dataDir: string;
  port?: number;
  /** Wait until it serves; off when several are started together. */
  wait?: boolean;
}

const START_TIMEOUT_MS = 180_000;

/** Starts `src/server/app/main.ts` in production mode (test-mode providers) on 127.0.0.1. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const child = startNodeServer({
    name: options.name,
    script: 'src/server/app/main.ts',
    port,
    cwd: process.cwd(),
    env: {
      NODE_ENV: 'production',
      TEST_MODE: 'true',
      DATA_DIR: options.dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: 'load-suite-session-secret-long-enough-for-production',
      DATABASE_URL: options.databaseUrl,
      REDIS_URL,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // Hundreds of sign-ins from one address are the point here, not an attack.
      RATE_LIMIT_MULTIPLIER: '10000',
      ADMIN_TWO_FACTOR: 'optional',
      LOG_LEVEL: 'warn',
    },
  });
  const instance: Instance = {
    ...child,
    port,
    restart: () => startInstance({ ...options, port, wait: true }),
  };
  if (options.wait !== false) await waitUntilServing(instance);
  return instance;
}

export const waitUntilServing = (instance: Instance) =>
  waitUntilReady(instance, `${instance.baseUrl}/api/initial?locale=en`, START_TIMEOUT_MS);

/** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut off. */
export async function killHard(instance: Instance): Promise<void> {
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGKILL');
  await exited;
}

export const isRunning = (instance: Instance) =>
  instance.process.exitCode === null && instance.process.signalCode === null;
