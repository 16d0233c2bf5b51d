import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.ts';
import { isDatabaseUnavailable } from './client.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
/** What node-postgres answers to `execute` (the shared Database type leaves it open). */
type Rows<T> = { rows: T[] };

describe('isDatabaseUnavailable', () => {
  it('tells a lost or refused connection from a statement the database refused', () => {
    const wrapped = (cause: Error) => Object.assign(new Error('Failed query: select 1'), { cause });
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('starting up'), { code: '57P03' })))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});

describe.skipIf(!serverUrl)('a PostgreSQL connection dropped by the server', () => {
  it('fails the transaction holding it, without crashing the process, and the pool goes on', async () => {
    const connection = await createTestDatabase();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      const failure = await connection.db
        .transaction(async (transaction) => {
          const { rows } = (await transaction.execute(sql`select pg_backend_pid() as pid`)) as Rows<{
            pid: number;
          }>;
          await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
          // The server's goodbye arrives while the client is checked out and between statements.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await transaction.execute(sql`select 1`);
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(failure)).toBe(true);
      const { rows } = (await connection.db.execute(sql`select 1 as one`)) as Rows<{ one: number }>;
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await connection.close();
    }
  });
});

describe.skipIf(serverUrl)('the embedded database', () => {
  it('keeps 16 MB of shared buffers rather than PostgreSQL’s 128 MB, which its WASM memory never gives back', async () => {
    const connection = await createTestDatabase();
    try {
      const { rows } = (await connection.db.execute(sql`show shared_buffers`)) as Rows<{
        shared_buffers: string;
      }>;
      expect(rows).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await connection.close();
    }
  });
});
