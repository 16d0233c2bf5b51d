import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database handle every service takes: PGlite and PostgreSQL look the same from here. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** A handle or an open transaction: services that only read or write accept either. */
export type Executor = Database | Transaction;

/** Rows of a raw statement; PGlite and node-postgres both answer `{ rows }`. */
export const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

export interface DatabaseConnection {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Runs the migrations of `folder` (the shop's own unless told) not run yet. */
  migrate(folder?: string): Promise<void>;
  close(): Promise<void>;
}

/** SQLSTATEs of a server that is shutting down, starting up or out of connections; class 08 too. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** node-postgres's own words for a connection that is gone. */
const LOST_CONNECTION = /^Connection terminated|is not queryable|timeout exceeded when trying to connect/;

/**
 * Whether `error`, or the driver error it wraps (drizzle wraps them as `cause`), says the database
 * could not be reached or dropped the connection, rather than refusing the statement: the request
 * may succeed once the server is back (503), it is no bug of ours (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || NETWORK_ERRORS.has(code))
    )
      return true;
    if (LOST_CONNECTION.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any fixed number: it only has to be the same for every instance of the shop. */
const MIGRATION_LOCK_KEY = 72_019_431;

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database in `dataDir` (or in memory). */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  loadDataDir?: Blob | undefined;
  poolSize?: number;
}): Promise<DatabaseConnection> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.loadDataDir);
}

/**
 * PostgreSQL's default 128 MB of shared buffers are touched at start-up inside PGlite's WASM memory,
 * which never shrinks: 16 MB hold the demo catalogue's hot pages, and reads beyond them come from the
 * operating system's file cache (ADR 0029).
 */
const PGLITE_SETTINGS = ['-c', 'shared_buffers=16MB'];

async function openPglite(
  dataDir: string | undefined,
  loadDataDir: Blob | undefined,
): Promise<DatabaseConnection> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir,
    loadDataDir,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: (folder = migrationsFolder) =>
      migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
    close: () => client.close(),
  };
}

async function openPostgres(connectionString: string, poolSize: number): Promise<DatabaseConnection> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // A connection the server drops (a restart) must not crash the process. The pool removes an idle
  // client itself; a client checked out between two statements of a transaction has no listener of
  // its own, so it gets this one: its next statement fails and the pool discards it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzleNodePostgres(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async migrate(folder = migrationsFolder) {
      // Several instances may start at once: one migrates, the others wait on the lock.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePostgres(drizzleNodePostgres(client), { migrationsFolder: folder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
