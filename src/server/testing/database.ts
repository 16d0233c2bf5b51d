import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseConnection, openDatabase } from '../db/client.ts';
import { onServer } from './postgres-server.ts';

/**
 * A fresh, migrated database for one test file: a clone of the run's template (db/test-template.global.ts),
 * on PGlite or, when TEST_DATABASE_URL points at PostgreSQL, a new database on that server dropped on close.
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
  await onServer(
    serverUrl,
    `create database ${name}${migrated ? ` template ${inject('postgresTemplate')}` : ''}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection = await openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  return {
    ...connection,
    async close() {
      await connection.close();
      await onServer(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
