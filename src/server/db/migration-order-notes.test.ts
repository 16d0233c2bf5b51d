import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './client.ts';

/**
 * Migration 0011 on a shop with orders: each order's manager comment becomes the first note of its
 * timeline, the shopper's own comment stays on the order, and the comment column goes.
 */
let client: PGlite;
let before0011: string;

beforeAll(async () => {
  before0011 = mkdtempSync(path.join(os.tmpdir(), 'vitrina-migrations-'));
  cpSync(migrationsFolder, before0011, { recursive: true });
  const journalFile = path.join(before0011, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const notes = journal.entries.findIndex((entry) => entry.tag.startsWith('0011_'));
  expect(notes).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, notes) }));
  client = await PGlite.create({ extensions: { pg_trgm } });
  await migrate(drizzle(client), { migrationsFolder: before0011 });
});
afterAll(async () => {
  await client?.close();
  rmSync(before0011, { recursive: true, force: true });
});

describe('migration 0011 on a shop with orders', () => {
  it("turns each manager comment into a note of its order and keeps the shopper's comment", async () => {
    await client.exec(`
      insert into orders (id, locale, email, first_name, last_name, phone, delivery_method, delivery_country,
        delivery_city, delivery_address, delivery_zip, payment_method, products_cost, delivery_cost, expires_at,
        comment, manager_comment, updated_at)
      values
        (1, 'ru', 'a@example.com', 'Anna', 'P', '+7', 'russian_post', 'RU', 'Kazan', 'Kremlin 1', '420111',
          'robokassa', 100000, 35000, now(), 'Leave at the door', 'Called, ships Monday', '2026-05-01T10:00:00Z'),
        (2, 'en', 'b@example.com', 'Sam', 'T', '+1', 'russian_post', 'US', 'Boston', 'Main 1', '02101',
          'paypal', 100000, 35000, now(), null, '   ', now()),
        (3, 'en', 'c@example.com', 'Kim', 'L', '+1', 'russian_post', 'US', 'Boston', 'Main 2', '02101',
          'paypal', 100000, 35000, now(), 'Gift wrap', null, now());
    `);
    await migrate(drizzle(client), { migrationsFolder });
    const notes = await client.query<{
      order_id: number;
      author_id: number | null;
      body: string;
      created_at: Date;
    }>('select order_id, author_id, body, created_at from staff_notes order by order_id');
    expect(notes.rows).toEqual([
      {
        order_id: 1,
        author_id: null,
        body: 'Called, ships Monday',
        created_at: new Date('2026-05-01T10:00:00Z'),
      },
    ]);
    const comments = await client.query<{ id: number; comment: string | null }>(
      'select id, comment from orders order by id',
    );
    expect(comments.rows).toEqual([
      { id: 1, comment: 'Leave at the door' },
      { id: 2, comment: null },
      { id: 3, comment: 'Gift wrap' },
    ]);
    const column = await client.query(
      "select 1 from information_schema.columns where table_name = 'orders' and column_name = 'manager_comment'",
    );
    expect(column.rows).toEqual([]);
  });
});
