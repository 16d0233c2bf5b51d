import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client.ts';
import { SCALE_ORDERS, seedScaleOrders } from './orders.ts';
import {
  ADJECTIVES,
  CLOSINGS,
  COLLECTIONS,
  FEATURES,
  NOUNS,
  type Pair,
  PRODUCT_TYPES,
  PROJECT_TITLES,
  PROJECT_WORLDS,
} from './words.ts';

/**
 * The scale catalogue: a fresh PostgreSQL database with 100,000 visible products (plus 1 % hidden
 * ones) in 40 projects and 200 categories, and 50,000 orders of 5,000 customers and guests
 * (orders.ts), built with set-based SQL in a few tens of seconds.
 *
 *   node --import tsx bench/scale/seed.ts [postgres://user@host:5432/any-db] [--products N]
 *
 * The URL names the server (any database on it); the catalogue goes into the database
 * `vitrina_scale` on that server, dropped and created again on every run. Every value is derived
 * from the product's number through `hashint4`, so two runs build the same catalogue.
 */

/**
 * `SCALE_DATABASE` names another database, so that two working copies benching on one server do
 * not drop each other's catalogue mid-run.
 */
export const SCALE_DATABASE = process.env.SCALE_DATABASE || 'vitrina_scale';
if (!/^[a-z_][a-z0-9_]*$/.test(SCALE_DATABASE))
  throw new Error(`SCALE_DATABASE must be a plain lower-case identifier, not ${SCALE_DATABASE}`);
export const SCALE_PRODUCTS = 100_000;
/** Hidden products on top of the visible ones, so that the visibility filter has work to do. */
const HIDDEN_SHARE = 0.01;
/** Image file names are drawn from this many (the files themselves are not created). */
const IMAGE_FILES = 40;

export interface ScaleCatalogue {
  /** Connection string of the scale database. */
  url: string;
  products: number;
  orders: number;
  seconds: number;
}

/** The URL of `database` on the server of `serverUrl` (user, password, host and options kept). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  if (!url.username) url.username = os.userInfo().username;
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops `database` (a plain name of the bench's own) on the server of `serverUrl` and creates it empty. */
export async function recreateDatabase(serverUrl: string, database: string) {
  const admin = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
}

const column = (pairs: readonly Pair[], index: 0 | 1) => pairs.map((pair) => pair[index]);

/** `h(k)`: a non-negative pseudo-random integer for attribute k of product number `i`. */
const h = (k: number) => `abs(hashint4(i * 32 + ${k}))`;

const PRODUCTS_SQL = `
  with numbered as (
    select i,
      ${h(1)} % $1::int as type,
      ${h(2)} % $2::int as collection,
      ${h(3)} % $3::int as adjective,
      ${h(4)} % $4::int as noun,
      ${h(5)} % $5::int as project,
      ${h(6)} % $6::int as feature,
      ${h(7)} % $7::int as closing
    from generate_series(1, $8::int) as i
  ),
  words as (
    select n.i, n.type, n.collection,
      ($9::text[])[n.type + 1] as type_ru, ($10::text[])[n.type + 1] as type_en,
      ($11::int[])[n.type + 1] as base_price, ($12::int[])[n.type + 1] as grams,
      ($13::text[])[n.adjective + 1] as adjective_ru, ($14::text[])[n.adjective + 1] as adjective_en,
      ($15::text[])[n.noun + 1] as noun_ru, ($16::text[])[n.noun + 1] as noun_en,
      ($17::text[])[n.feature + 1] as feature_ru, ($18::text[])[n.feature + 1] as feature_en,
      ($19::text[])[n.closing + 1] as closing_ru, ($20::text[])[n.closing + 1] as closing_en,
      pr.id as project_id, pr.name_ru as project_ru, pr.name_en as project_en
    from numbered n
    join projects pr on pr.position = n.project
  ),
  priced as (
    select w.*,
      -- base price × 0.6 … 1.5, whole tens of roubles, in kopecks
      (w.base_price * (60 + ${h(8)} % 90) / 1000) * 1000 as price
    from words w
  )
  insert into products (project_id, link, name_ru, name_en, description_ru, description_en,
    price, sale, weight, quantity, visible, week_sale, envisioned, position)
  select project_id,
    concat_ws('-', adjective_en, noun_en, regexp_replace(lower(type_en), '[^a-z0-9]+', '-', 'g'), i),
    upper(left(type_ru, 1)) || substr(type_ru, 2) || ' «' || upper(left(adjective_ru, 1))
      || substr(adjective_ru, 2) || ' ' || noun_ru || '»',
    initcap(adjective_en) || ' ' || initcap(noun_en) || ' ' || type_en,
    '<p>' || upper(left(type_ru, 1)) || substr(type_ru, 2) || ' ' || feature_ru || ': ' || adjective_ru
      || ' ' || noun_ru || ' из игры «' || project_ru || '». ' || closing_ru || '</p>',
    '<p>' || feature_en || ' ' || lower(type_en) || ' with the ' || adjective_en || ' ' || noun_en
      || ' of ' || project_en || '. ' || closing_en || '</p>',
    price,
    case when ${h(9)} % 100 < 15 then (price * (70 + ${h(10)} % 20) / 10000) * 100 end,
    grams,
    case when ${h(11)} % 100 < 20 or ${h(13)} % 100 < 3 then 0 else 1 + ${h(12)} % 60 end,
    i <= $21::int,
    i % 8000 = 1,
    ${h(13)} % 100 < 3,
    i
  from priced`;

/**
 * Each product in its type × collection category; every second one also in another collection of
 * its type (a mug in "Mugs: retro" and "Mugs: premium"), as a merchandise shop cross-lists.
 */
const PRODUCT_CATEGORIES_SQL = `
  with placed as (
    select id, ${h(1)} % $1::int as type, ${h(2)} % $2::int as collection,
      ${h(14)} % 2 = 0 as has_second, ${h(15)} % ($2::int - 1) as second_draw
    from (select id, position as i from products) as numbered
  )
  insert into product_categories (product_id, category_id)
  select placed.id, c.id from placed join categories c on c.position = placed.type * $2::int + placed.collection
  union all
  select placed.id, c.id from placed
  join categories c on c.position = placed.type * $2::int + (placed.collection + 1 + placed.second_draw) % $2::int
  where placed.has_second`;

/** Four in five products have one to three pictures. */
const PRODUCT_IMAGES_SQL = `
  insert into product_images (product_id, file, position)
  select p.id, 'scale-' || (abs(hashint4(p.position * 32 + 17 + k)) % $1::int) || '.webp', k
  from products p
  cross join generate_series(0, 2) as k
  where abs(hashint4(p.position * 32 + 16)) % 100 < 80 and k <= abs(hashint4(p.position * 32 + 20)) % 3`;

/** Fills `vitrina_scale` (or `SCALE_DATABASE`) on the server of `serverUrl` from scratch; `log` hears each step. */
export async function seedScaleCatalogue(
  serverUrl: string,
  options: { products?: number; orders?: number; log?: (line: string) => void } = {},
): Promise<ScaleCatalogue> {
  const products = options.products ?? SCALE_PRODUCTS;
  const log = options.log ?? (() => {});
  const started = Date.now();
  const step = async (name: string, run: () => Promise<unknown>) => {
    const at = Date.now();
    await run();
    log(`  ${name} (${((Date.now() - at) / 1000).toFixed(1)} s)`);
  };

  await recreateDatabase(serverUrl, SCALE_DATABASE);
  const url = databaseUrl(serverUrl, SCALE_DATABASE);
  const connection = await openDatabase({ databaseUrl: url, poolSize: 1 });
  await step('migrations', () => connection.migrate());
  await connection.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const query = (text: string, values: unknown[] = []) => client.query(text, values);
    // The products' indexes (search, trigram, the back office's sorts) are built once after the
    // load rather than row by row; unique ones stay, as they back constraints.
    const { rows: indexes } = await query(
      `select indexname, indexdef from pg_indexes
       where tablename = 'products' and indexdef !~* '^create unique index'`,
    );
    await query('begin');
    for (const index of indexes) await query(`drop index ${index.indexname}`);

    await step('40 projects, 200 categories', async () => {
      await query(
        `insert into projects (link, name_ru, name_en, position)
         select regexp_replace(lower(t.en || ' ' || w.en), '[^a-z0-9]+', '-', 'g'),
           t.ru || ' ' || w.ru, t.en || ' ' || w.en, (t.n - 1) * $5::int + w.n - 1
         from unnest($1::text[], $2::text[]) with ordinality as t(ru, en, n)
         cross join unnest($3::text[], $4::text[]) with ordinality as w(ru, en, n)`,
        [
          column(PROJECT_TITLES, 0),
          column(PROJECT_TITLES, 1),
          column(PROJECT_WORLDS, 0),
          column(PROJECT_WORLDS, 1),
          PROJECT_WORLDS.length,
        ],
      );
      await query(
        `insert into categories (link, name_ru, name_en, position)
         select regexp_replace(lower(t.en || ' ' || c.en), '[^a-z0-9]+', '-', 'g'),
           t.ru || ': ' || c.ru, t.en || ': ' || c.en, (t.n - 1) * $5::int + c.n - 1
         from unnest($1::text[], $2::text[]) with ordinality as t(ru, en, n)
         cross join unnest($3::text[], $4::text[]) with ordinality as c(ru, en, n)`,
        [
          PRODUCT_TYPES.map((type) => type[2]),
          PRODUCT_TYPES.map((type) => type[3]),
          column(COLLECTIONS, 0),
          column(COLLECTIONS, 1),
          COLLECTIONS.length,
        ],
      );
    });

    const total = products + Math.round(products * HIDDEN_SHARE);
    await step(`${products.toLocaleString('en-US')} visible + ${total - products} hidden products`, () =>
      query(PRODUCTS_SQL, [
        PRODUCT_TYPES.length,
        COLLECTIONS.length,
        ADJECTIVES.length,
        NOUNS.length,
        PROJECT_TITLES.length * PROJECT_WORLDS.length,
        FEATURES.length,
        CLOSINGS.length,
        total,
        PRODUCT_TYPES.map((type) => type[0]),
        PRODUCT_TYPES.map((type) => type[1]),
        PRODUCT_TYPES.map((type) => type[4]),
        PRODUCT_TYPES.map((type) => type[5]),
        column(ADJECTIVES, 0),
        column(ADJECTIVES, 1),
        column(NOUNS, 0),
        column(NOUNS, 1),
        column(FEATURES, 0),
        column(FEATURES, 1),
        column(CLOSINGS, 0),
        column(CLOSINGS, 1),
        products,
      ]),
    );
    await step('product categories', () =>
      query(PRODUCT_CATEGORIES_SQL, [PRODUCT_TYPES.length, COLLECTIONS.length]),
    );
    await step('product images', () => query(PRODUCT_IMAGES_SQL, [IMAGE_FILES]));
    await seedScaleOrders(client, step, { orders: options.orders ?? SCALE_ORDERS });
    await step('product indexes', async () => {
      for (const index of indexes) await query(index.indexdef);
    });
    await query('commit');
    await step('vacuum analyze', () => query('vacuum analyze'));
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  return { url, products, orders: options.orders ?? SCALE_ORDERS, seconds: (Date.now() - started) / 1000 };
}

async function main() {
  const args = process.argv.slice(2);
  const countAt = args.indexOf('--products');
  const products = countAt >= 0 ? Number(args[countAt + 1]) : SCALE_PRODUCTS;
  const serverUrl =
    args.find((arg) => arg.startsWith('postgres')) ??
    process.env.TEST_DATABASE_URL ??
    'postgres://127.0.0.1:5432/postgres';
  if (!Number.isInteger(products) || products < 1) throw new Error('--products needs a positive integer');
  const result = await seedScaleCatalogue(serverUrl, { products, log: console.log });
  console.log(`Seeded ${new URL(result.url).pathname.slice(1)} in ${result.seconds.toFixed(1)} s.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
