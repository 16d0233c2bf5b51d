import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Account,
  cloneSeededShop,
  createAccounts,
  type Instance,
  removeDataDir,
  type ShopDatabase,
  startInstance,
} from './cluster.ts';
import { formatSummary, Latencies } from './latencies.ts';
import { expectStatus, orderBody, Shopper } from './shopper.ts';

/**
 * Mixed shopper traffic against two instances on PostgreSQL: 50 virtual users, each with its own
 * cookie jar, loop through the shop without pause for 30 s — home, category and product pages
 * rendered on the server and their /api calls, searches (misspelt too), basket edits — and a share
 * of them, signed in, check out and sometimes cancel. Running out of stock is a normal answer. No
 * request may fail with a 5xx or go unanswered; the latencies per kind go to bench/results.
 */

const USERS = 50;
const SIGNED_IN = 15;
const DURATION_MS = 30_000;
const SEARCHES = [
  'hoodie',
  'mug',
  'northwind',
  'figure',
  'pin',
  'кружка',
  'футболка',
  'nortwind',
  'hoody',
  'pster',
  'starfal',
  'outlaw',
];

let database: ShopDatabase;
let dataDir: string;
let instances: Instance[] = [];

beforeAll(async () => {
  ({ database, dataDir } = await cloneSeededShop());
  instances = await Promise.all(
    ['traffic-a', 'traffic-b'].map((name) => startInstance({ name, databaseUrl: database.url, dataDir })),
  );
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await database?.drop();
  if (dataDir) removeDataDir(dataDir);
});

interface Catalogue {
  categories: string[];
  projects: string[];
  /** `variant`: a size of a product with options (the basket needs one), null otherwise. */
  products: { id: number; link: string; variant: number | null }[];
}

const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)] as T;

interface Checkouts {
  placed: number;
  outOfStock: number;
  cancelled: number;
}

/** One pass of a visitor through the shop; signed-in visitors also check out. */
async function journey(
  shopper: Shopper,
  catalogue: Catalogue,
  account: Account | undefined,
  checkouts: Checkouts,
) {
  const page = (kind: string, target: string) =>
    expectStatus(shopper.request(kind, 'GET', target, undefined, { accept: 'text/html' }), [200]);
  const api = (kind: string, method: string, target: string, form?: Record<string, string>) =>
    shopper.request(kind, method, target, form ? { form } : undefined);

  await page('page home', '/');
  await expectStatus(api('api initial', 'GET', '/api/initial?locale=en'), [200]);
  const category = pick(catalogue.categories);
  await page('page category', `/category/${category}`);
  await expectStatus(api('api category', 'GET', `/api/category?locale=en&link=${category}`), [200]);
  await expectStatus(
    api('api project', 'GET', `/api/project?locale=en&link=${pick(catalogue.projects)}`),
    [200],
  );
  const product = pick(catalogue.products);
  const line = {
    product: String(product.id),
    ...(product.variant === null ? {} : { variant: String(product.variant) }),
  };
  await page('page product', `/product/${product.link}`);
  await expectStatus(api('api product', 'GET', `/api/product?locale=en&link=${product.link}`), [200]);
  const search = pick(SEARCHES);
  await expectStatus(
    api('api search', 'GET', `/api/search?locale=en&search=${encodeURIComponent(search)}`),
    [200],
  );
  if (Math.random() < 0.3) await page('page search', `/search/${encodeURIComponent(search)}`);

  // Adding beyond stock or a sold-out product is refused with a 4xx, as it should be.
  await expectStatus(api('api basket add', 'POST', '/api/basket', line), [200, 409]);
  await expectStatus(
    api('api basket count', 'POST', '/api/basket/0', {
      _method: 'PATCH',
      ...line,
      count: String(1 + Math.floor(Math.random() * 3)),
    }),
    [200, 404],
  );
  const basket = await expectStatus(api('api basket', 'GET', '/api/basket?locale=en'), [200]);
  // Checkout is for signed-in shoppers with something in the cart (all of it may have sold out).
  if (!account || (basket.json as { count: number }).count === 0) return;

  await expectStatus(
    api('api delivery', 'GET', '/api/delivery?method=russian_post&country=RU&zip=101000'),
    [200],
  );
  const placed = await shopper.request('api order', 'POST', '/api/order', {
    json: orderBody(account.email, 'paypal'),
  });
  if (placed.status === 200) {
    checkouts.placed += 1;
    const orderId = (placed.json as { order: { id: number } }).order.id;
    if (Math.random() < 0.5) {
      await expectStatus(api('api cancel', 'POST', '/api/paypal/cancel', { order: String(orderId) }), [200]);
      checkouts.cancelled += 1;
    }
    await expectStatus(api('api orders', 'GET', '/api/order'), [200]);
  } else if (placed.status === 409) {
    // Sold out meanwhile: the shopper drops what is unavailable, as the cart page offers.
    checkouts.outOfStock += 1;
    for (const id of (placed.json as { unavailable?: number[] }).unavailable ?? []) {
      await expectStatus(
        api('api basket remove', 'POST', '/api/basket/0', { _method: 'DELETE', product: String(id) }),
        [200],
      );
    }
  } else {
    throw new Error(`POST /api/order answered ${placed.status}: ${placed.text.slice(0, 300)}`);
  }
}

it(`serves ${USERS} concurrent shoppers for ${DURATION_MS / 1000} s without a 5xx`, async () => {
  const accounts = await createAccounts(database, SIGNED_IN, 'traffic');
  const { rows: products } = await database.sql.query<{ id: number; link: string; variant: number | null }>(
    `select p.id, p.link, (select v.id from product_variants v
       where v.product_id = p.id and exists (select 1 from product_variant_values w where w.variant_id = v.id)
       order by v.position, v.id limit 1) as variant
     from products p where p.visible and not p.envisioned order by p.id`,
  );
  const initial = (await (await fetch(`${instances[0]?.baseUrl}/api/initial?locale=en`)).json()) as {
    categories: { link: string }[];
    projects: { link: string }[];
  };
  const catalogue: Catalogue = {
    categories: initial.categories.map((category) => category.link),
    projects: initial.projects.map((project) => project.link),
    products,
  };

  const latencies = new Latencies();
  const checkouts: Checkouts = { placed: 0, outOfStock: 0, cancelled: 0 };
  const userErrors: string[] = [];
  const started = Date.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: USERS }, async (_, index) => {
      const instance = instances[index % instances.length] as Instance;
      const shopper = new Shopper(instance.baseUrl, latencies);
      const account = accounts[index];
      try {
        if (account) await shopper.signIn(account.email, account.password);
        while (Date.now() < deadline) await journey(shopper, catalogue, account, checkouts);
      } catch (error) {
        userErrors.push(`user ${index}: ${(error as Error).message}`);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;

  const summary = latencies.summary();
  console.log(
    `\n${USERS} users (${SIGNED_IN} signed in) on ${instances.length} instances for ${seconds.toFixed(1)} s:\n${formatSummary(summary, seconds)}\ncheckouts: ${JSON.stringify(checkouts)}`,
  );
  const resultsDir = path.join('bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), users: USERS, signedIn: SIGNED_IN, instances: instances.length, seconds, checkouts, ...summary }, null, 2)}\n`,
  );
  console.log(`written to ${file}`);

  expect(userErrors).toEqual([]);
  expect(latencies.failures()).toEqual({});
  expect(checkouts.placed).toBeGreaterThan(0);
  for (const kind of [
    'page home',
    'page category',
    'page product',
    'api search',
    'api basket add',
    'api order',
  ])
    expect(summary.kinds[kind]?.requests ?? 0).toBeGreaterThan(0);
});
