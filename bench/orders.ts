import pg from 'pg';
import { hashPassword } from '../src/server/accounts/passwords.ts';

/** The order form every shopper of the bench's order rows (drop and hot product) sends. */
export const ORDER_FORM = {
  locale: 'en',
  email: 'bench-orders@vitrina.example',
  firstName: 'Bench',
  lastName: 'Orders',
  phone: '+7 900 000-00-00',
  country: 'RU',
  city: 'Москва',
  zip: '101000',
  address: 'ул. Тестовая, 1',
  paymentMethod: 'robokassa',
  deliveryMethod: 'russian_post',
};

/**
 * Orders placed in the background of a load test (the bench's drop rows, ADR 0042): signed-in
 * shoppers put one unit of a product in the basket and place an order, `perSecond` orders a second
 * between them. Each shopper places one order at a time, and each order replaces that shopper's
 * previous unpaid one (ADR 0021), so the product's stock moves twice per order and never runs out.
 */
export interface OrderPlacer {
  /** Stops placing; answers how many orders were placed and how many attempts failed. */
  stop(): Promise<{ placed: number; failed: number; seconds: number; lastError?: string }>;
}

export function placeOrders(options: {
  baseUrl: string;
  /** Session cookies (and shop cookies) of signed-in shoppers, one each. */
  shoppers: readonly string[];
  product: number;
  variant?: number;
  perSecond: number;
}): OrderPlacer {
  const { baseUrl } = options;
  let placed = 0;
  let failed = 0;
  let lastError: string | undefined;
  /** Each shopper's cookie and the order they are placing (or the last one they placed). */
  const lanes = options.shoppers.map((cookie) => ({ cookie, placing: Promise.resolve() }));
  let beats = 0;
  const started = Date.now();
  const placeOne = async (cookie: string) => {
    const headers = { 'content-type': 'application/json', cookie, origin: baseUrl };
    try {
      const add = await fetch(`${baseUrl}/api/basket`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ product: options.product, variant: options.variant }),
      });
      await add.arrayBuffer();
      const order = await fetch(`${baseUrl}/api/order`, {
        method: 'POST',
        headers,
        body: JSON.stringify(ORDER_FORM),
      });
      const text = await order.text();
      if (order.ok) placed += 1;
      else {
        failed += 1;
        lastError = `${order.status} ${text.slice(0, 200)}`;
      }
    } catch (error) {
      failed += 1;
      lastError = (error as Error).message;
    }
  };
  // Beats on a fixed rhythm, taken by the shoppers in turn; a shopper's slow order delays that
  // shopper's next one, never doubles up.
  const timer = setInterval(() => {
    const lane = lanes[beats++ % lanes.length];
    if (lane) lane.placing = lane.placing.then(() => placeOne(lane.cookie));
  }, 1000 / options.perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(lanes.map((lane) => lane.placing));
      return { placed, failed, seconds: (Date.now() - started) / 1000, lastError };
    },
  };
}

/** Signs a user in through the API; answers the session cookie pair. */
export async function signIn(baseUrl: string, shopCookie: string, email: string, password: string) {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: shopCookie, origin: baseUrl },
    body: JSON.stringify({ email, password, remember: 1 }),
  });
  const session = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('vitrina.sid='));
  if (!response.ok || !session) throw new Error(`/api/login answered ${response.status} with no session`);
  return session;
}

/**
 * Confirmed accounts written straight into a shop's PostgreSQL database with the shop's own password
 * hashing (one hash for all: they share the password), instead of registrations that would each
 * wait for their mail. Used by the bench's drop row and the load tests.
 */
export async function insertConfirmedAccounts(
  database: pg.ClientBase | pg.Pool,
  emails: readonly string[],
  password: string,
): Promise<Array<{ id: number; email: string }>> {
  const { rows } = await database.query<{ id: number; email: string }>(
    `insert into users (email, password_hash, email_verified_at, locale)
     select email, $2, now(), 'ru' from unnest($1::text[]) as email
     on conflict do nothing
     returning id, email`,
    [emails, await hashPassword(password)],
  );
  return rows;
}

/** The drop and hot rows' shoppers, written into the drop shop's database; answers their e-mails. */
export async function createShoppers(
  databaseUrl: string,
  count: number,
  password: string,
  prefix = 'bench-shopper',
) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const emails = Array.from({ length: count }, (_, index) => `${prefix}-${index}@vitrina.example`);
    await insertConfirmedAccounts(client, emails, password);
    return emails;
  } finally {
    await client.end();
  }
}

/**
 * A staff member editing a product in the background of a load test (the bench's "staff writes"
 * row): its price goes up by a rouble and back, `perSecond` saves a second through the back
 * office's own call (`PATCH /api/admin/products/:id`, over the version the last save answered).
 * Unlike an order, which moves stock only (a page may show it for up to a second, ADR 0049), a
 * saved product makes every page that shows it stale at once.
 */
export function editProduct(options: {
  baseUrl: string;
  /** A staff member's session cookie (and shop cookies). */
  cookie: string;
  product: number;
  perSecond: number;
}): OrderPlacer {
  const { baseUrl, cookie, product } = options;
  const headers = { 'content-type': 'application/json', cookie, origin: baseUrl };
  let placed = 0;
  let failed = 0;
  let lastError: string | undefined;
  const started = Date.now();
  const editor = fetch(`${baseUrl}/api/admin/products/${product}`, { headers }).then(async (response) => {
    const body = (await response.json()) as { product?: Record<string, unknown> };
    if (!response.ok || !body.product) throw new Error(`the product editor answered ${response.status}`);
    // Stock is not what this row writes: a save without `quantity` leaves it as it is.
    const { quantity: _quantity, quantity_seen: _seen, quantityHardset: _hardset, ...fields } = body.product;
    return fields;
  });
  let saving: Promise<Record<string, unknown> | undefined> = editor.catch((error: Error) => {
    failed += 1;
    lastError = error.message;
    return undefined;
  });
  let original: number | undefined;
  const saveOne = async (fields: Record<string, unknown> | undefined) => {
    if (!fields) return undefined;
    original ??= Number(fields.price);
    try {
      const price = Number(fields.price) === original ? original + 1 : original;
      const response = await fetch(`${baseUrl}/api/admin/products/${product}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ ...fields, price }),
      });
      const body = (await response.json()) as { product?: { version?: unknown } };
      if (!response.ok || body.product?.version === undefined) {
        failed += 1;
        lastError = `${response.status} ${JSON.stringify(body).slice(0, 200)}`;
        return fields;
      }
      placed += 1;
      return { ...fields, price, version: body.product.version };
    } catch (error) {
      failed += 1;
      lastError = (error as Error).message;
      return fields;
    }
  };
  // One save at a time, on a fixed rhythm: a slow save delays the next, never doubles up.
  const timer = setInterval(() => {
    saving = saving.then(saveOne);
  }, 1000 / options.perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await saving;
      return { placed, failed, seconds: (Date.now() - started) / 1000, lastError };
    },
  };
}
