import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.ts';
import { type DatabaseConnection, migrationsFolder } from './client.ts';

/**
 * Migration 0006 (ADR 0036) on a shop with data, on PGlite and on PostgreSQL (TEST_DATABASE_URL):
 * a database migrated to 0005 gets products, a basket, an order and a refund that put units back;
 * after 0006 every product has one default variant holding its stock, and the basket, the order
 * and the refund name it. Nothing is lost.
 */
let connection: DatabaseConnection;
let upTo0005: string;

beforeAll(async () => {
  upTo0005 = mkdtempSync(path.join(os.tmpdir(), 'vitrina-migrations-'));
  cpSync(migrationsFolder, upTo0005, { recursive: true });
  const journalFile = path.join(upTo0005, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const variants = journal.entries.findIndex((entry) => entry.tag.startsWith('0006_'));
  expect(variants).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, variants) }));
  connection = await createTestDatabase({ migrated: false });
  await connection.migrate(upTo0005);
});
afterAll(async () => {
  await connection?.close();
  rmSync(upTo0005, { recursive: true, force: true });
});

const run = (statement: string | SQL) =>
  connection.db.execute(typeof statement === 'string' ? sql.raw(statement) : statement);
const rows = async <T>(query: string) => ((await run(query)) as unknown as { rows: T[] }).rows;

describe('migration 0006 on a shop with data', () => {
  it('gives every product a default variant with its stock, and points baskets, orders and refunds at it', async () => {
    for (const statement of [
      `insert into projects (id, link, name_ru, name_en) values (1, 'northwind', 'Северный ветер', 'Northwind')`,
      `insert into products (id, project_id, link, name_ru, name_en, price, quantity) values
        (1, 1, 'wolf-shirt', 'Футболка', 'Shirt', 250000, 7),
        (2, 1, 'wolf-mug', 'Кружка', 'Mug', 120000, 0),
        (3, 1, 'wolf-cap', 'Кепка', 'Cap', 90000, 12)`,
      `insert into users (id, email, password_hash) values (1, 'buyer@example.com', '')`,
      `insert into baskets (id, user_id) values (1, 1)`,
      `insert into basket_items (basket_id, product_id, count) values (1, 1, 2), (1, 3, 1)`,
      `insert into orders (id, user_id, locale, email, first_name, last_name, phone, delivery_method,
        delivery_country, delivery_city, delivery_address, delivery_zip, payment_method, products_cost,
        delivery_cost, expires_at, status)
        values (1, 1, 'ru', 'buyer@example.com', 'Anna', 'Petrova', '+7', 'russian_post', 'RU', 'Kazan',
          'Kremlin 1', '420111', 'robokassa', 590000, 35000, now(), 2)`,
      `insert into order_items (order_id, product_id, name_ru, name_en, price, count) values
        (1, 1, 'Футболка', 'Shirt', 250000, 2), (1, 3, 'Кепка', 'Cap', 90000, 1)`,
      `insert into payment_transactions (id, order_id, provider, kind, external_id, provider_status, amount,
        currency, verified, restock, raw)
        values (1, 1, 'robokassa', 'refund', 'r-1', 'finished', 625000, 'RUB', true,
          '[{"productId": 1, "count": 2}, {"productId": 3, "count": 1}]', '{}')`,
    ])
      await run(statement);
    await connection.migrate();

    const variants = await rows<{ product_id: number; id: number; sku: string; quantity: number }>(
      'select product_id, id, sku, quantity from product_variants order by product_id',
    );
    expect(variants.map(({ product_id, sku, quantity }) => [product_id, sku, quantity])).toEqual([
      [1, 'wolf-shirt', 7],
      [2, 'wolf-mug', 0],
      [3, 'wolf-cap', 12],
    ]);
    const variantOf = (productId: number) => variants.find((variant) => variant.product_id === productId)?.id;
    expect(await rows('select id, quantity from products order by id')).toEqual([
      { id: 1, quantity: 7 },
      { id: 2, quantity: 0 },
      { id: 3, quantity: 12 },
    ]);
    expect(await rows('select count(*)::int as values from product_variant_values')).toEqual([{ values: 0 }]);
    expect(await rows('select product_id, variant_id, count from basket_items order by product_id')).toEqual([
      { product_id: 1, variant_id: variantOf(1), count: 2 },
      { product_id: 3, variant_id: variantOf(3), count: 1 },
    ]);
    expect(
      await rows(
        'select product_id, variant_id, sku, options, price, count from order_items order by product_id',
      ),
    ).toEqual([
      { product_id: 1, variant_id: variantOf(1), sku: 'wolf-shirt', options: [], price: 250000, count: 2 },
      { product_id: 3, variant_id: variantOf(3), sku: 'wolf-cap', options: [], price: 90000, count: 1 },
    ]);
    expect(await rows('select restock from payment_transactions')).toEqual([
      {
        restock: [
          { productId: 1, variantId: variantOf(1), count: 2 },
          { productId: 3, variantId: variantOf(3), count: 1 },
        ],
      },
    ]);

    // The stock now moves on the variant; the product's total follows, and cannot be set directly.
    await run(sql`update product_variants set quantity = quantity - 3 where id = ${variantOf(1)}`);
    expect(await rows('select quantity from products where id = 1')).toEqual([{ quantity: 4 }]);
    await expect(run('update products set quantity = 100 where id = 1')).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/sum of its variants/) },
    });
    // A product created after the migration comes with its default variant.
    await run(
      `insert into products (id, project_id, link, name_ru, name_en, price, quantity) values (4, 1, 'new', 'Н', 'N', 100, 5)`,
    );
    expect(await rows('select sku, quantity from product_variants where product_id = 4')).toEqual([
      { sku: 'new', quantity: 5 },
    ]);
    expect(await rows('select quantity from products where id = 4')).toEqual([{ quantity: 5 }]);
  });
});
