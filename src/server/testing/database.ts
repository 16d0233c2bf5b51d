import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseConnection, openDatabase } from '../db/client.ts';

/**
 * A fresh, migrated database for one test file: a clone of the PGlite template, or, when
 * TEST_DATABASE_URL points at PostgreSQL, a new database on that server dropped on close.
 * `migrated: false` gives it empty, for tests of the migrations themselves.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<DatabaseConnection> {
  const migrated = options.migrated ?? true;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    if (!migrated) return openDatabase({});
    const template = readFileSync(inject('pgliteTemplate'));
    return openDatabase({ loadDataDir: new Blob([template]) });
  }
  const name = `vitrina_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  if (migrated) await connection.migrate();
  return {
    ...connection,
    async close() {
      await connection.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
