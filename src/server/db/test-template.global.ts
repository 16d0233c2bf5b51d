import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { onServer } from '../testing/postgres-server.ts';
import { migrationsFolder, openDatabase } from './client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite data directory, as a file (without TEST_DATABASE_URL). */
    pgliteTemplate: string;
    /** The migrated database on TEST_DATABASE_URL's server, for CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string;
  }
}

/**
 * Migrates one database per test run, which every test file then clones instead of migrating anew:
 * on PGlite an in-memory database whose data directory is kept as a file (a clone takes about a
 * second), on PostgreSQL (TEST_DATABASE_URL) a template database on that server (a clone takes
 * about a second, where migrating took about six, one file at a time behind the migration lock).
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? postgresTemplate(project, serverUrl) : pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject) {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'vitrina-template-'));
  const client = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder });
  const dump = await client.dumpDataDir('none');
  await client.close();
  const file = path.join(directory, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(directory, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject, serverUrl: string) {
  const name = `vitrina_template_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  await connection.migrate().finally(() => connection.close());
  project.provide('postgresTemplate', name);
  return () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
}
