import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { sleep } from '../../bench/processes.ts';
import { PRODUCTS } from '../../src/server/seed/catalogue.ts';
import { waitForMailIn } from '../e2e/outbox.ts';
import { ADMIN, waitForMailJobs, withTwoInstances } from './cluster.ts';
import { orderBody, payAtRobokassa, Shopper } from './shopper.ts';

/**
 * Two instances of the shop on one PostgreSQL database and one shared data folder: a shopper's
 * journey hops between them, the job queue delivers every mail once, and a price an admin changes
 * on one instance is what the other one shows.
 */

const RECURRING_KINDS = ['rates.refresh', 'sessions.purge', 'jobs.purge', 'orders.expire'];
const ACTIVATE_LINK = /https?:\/\/[^\s"<>]+\/activate\?token=[^\s"<>]+/;

const cluster = withTwoInstances('instance');
const { rows } = cluster;

describe('several instances on one PostgreSQL', () => {
  it('two instances started together on an empty database migrated and seeded it once', async () => {
    const { startOutputs } = inject('loadTemplate');
    expect(startOutputs).toHaveLength(2);
    expect(startOutputs.filter((output) => output.includes('Demo data seeded.'))).toHaveLength(1);

    const journal = JSON.parse(readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as {
      entries: unknown[];
    };
    const [migrations] = await rows<{ count: number }>(
      'select count(*)::int as count from drizzle.__drizzle_migrations',
    );
    expect(migrations?.count).toBe(journal.entries.length);
    const [catalogue] = await rows<{ products: number; admins: number }>(
      "select (select count(*)::int from products) as products, (select count(*)::int from users where role = 'admin') as admins",
    );
    expect(catalogue).toEqual({ products: PRODUCTS.length, admins: 1 });
  });

  it("carries one shopper's session, basket and paid order across both instances", async () => {
    const email = `journey-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'journey-password';
    const shopper = new Shopper(cluster.a.baseUrl);

    // Registered on A; A's confirmation mail lands in the shared outbox; confirmed on B.
    await shopper.ok('registration', 'POST', '/api/registration', {
      json: { locale: 'en', email, password, password_confirmation: password, privacy_policy: 1 },
    });
    const link = (await waitForMailIn(path.join(cluster.dataDir, 'outbox'), email, ACTIVATE_LINK)).match(
      ACTIVATE_LINK,
    )?.[0];
    const token = new URL(link ?? 'http://invalid/').searchParams.get('token');
    expect(token).toBeTruthy();
    const verified = await shopper.ok<{ user: { email: string } }>(
      'verify',
      'GET',
      `${cluster.b.baseUrl}/api/verify?token=${token}`,
    );
    expect(verified.user.email).toBe(email);
    // The session B opened is known to A; signing out on A and in on B works the same way.
    expect(
      (await shopper.ok<{ user: { email: string } | null }>('user', 'GET', '/api/user')).user?.email,
    ).toBe(email);
    await shopper.ok('logout', 'POST', '/api/logout');
    expect(
      (await shopper.ok<{ user: unknown }>('user', 'GET', `${cluster.b.baseUrl}/api/user`)).user,
    ).toBeNull();
    shopper.baseUrl = cluster.b.baseUrl;
    await shopper.signIn(email, password);

    // Basket filled on A, edited on B, read on both.
    const [first, second] = await rows<{ id: number; quantity: number }>(
      'select id, quantity from products where visible and not envisioned and quantity >= 5 and not exists (select 1 from product_options o where o.product_id = products.id) order by id limit 2',
    );
    if (!first || !second) throw new Error('the demo catalogue has no products in stock');
    shopper.baseUrl = cluster.a.baseUrl;
    for (const product of [first.id, first.id, second.id]) {
      await shopper.ok('basket add', 'POST', '/api/basket', { form: { product: String(product) } });
    }
    const edited = await shopper.ok<{ count: number }>(
      'basket count',
      'POST',
      `${cluster.b.baseUrl}/api/basket/0`,
      {
        form: { _method: 'PATCH', product: String(first.id), count: '3' },
      },
    );
    expect(edited.count).toBe(3);
    type Basket = { productList: number[]; products: Record<string, { count: number }>; total: number };
    const onA = await shopper.ok<Basket>('basket', 'GET', '/api/basket?locale=ru');
    const onB = await shopper.ok<Basket>('basket', 'GET', `${cluster.b.baseUrl}/api/basket?locale=ru`);
    expect(onA.productList).toEqual([first.id, second.id]);
    expect(onA.products[first.id]?.count).toBe(3);
    expect(onB).toEqual(onA);

    // Ordered on B and paid on B's Robokassa sandbox page; A sees it paid and the stock taken.
    shopper.baseUrl = cluster.b.baseUrl;
    const placed = await shopper.ok<{
      order: { id: number; status: number };
      payment: { url: string; fields: Record<string, string> };
    }>('order', 'POST', '/api/order', { json: orderBody(email) });
    expect(placed.order.status).toBe(0);
    const paid = await payAtRobokassa(shopper, placed.payment);
    expect(paid.status).toBe(303);
    shopper.baseUrl = cluster.a.baseUrl;
    const order = await shopper.ok<{ order: { status: number; products: { id: number; count: number }[] } }>(
      'order',
      'GET',
      `/api/order/${placed.order.id}?locale=en`,
    );
    expect(order.order.status).toBe(1);
    expect(order.order.products.map(({ id, count }) => ({ id, count }))).toEqual([
      { id: first.id, count: 3 },
      { id: second.id, count: 1 },
    ]);
    const stock = await rows<{ id: number; quantity: number }>(
      'select id, quantity from products where id = any($1) order by id',
      [[first.id, second.id]],
    );
    expect(stock).toEqual([
      { id: first.id, quantity: first.quantity - 3 },
      { id: second.id, quantity: second.quantity - 1 },
    ]);
    expect((await shopper.ok<Basket>('basket', 'GET', '/api/basket')).productList).toEqual([]);
  });

  it('delivers every mail exactly once and runs no job twice, with both workers polling', async () => {
    // A burst of mails enqueued on both instances at once, for both workers to compete for.
    const email = `burst-${randomBytes(4).toString('hex')}@example.com`;
    await new Shopper(cluster.a.baseUrl).ok('registration', 'POST', '/api/registration', {
      json: {
        locale: 'en',
        email,
        password: 'burst-password',
        password_confirmation: 'burst-password',
        privacy_policy: 1,
      },
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        new Shopper(index % 2 ? cluster.a.baseUrl : cluster.b.baseUrl).ok('restore', 'POST', '/api/restore', {
          form: { email, locale: 'en' },
        }),
      ),
    );
    await waitForMailJobs(cluster.database);

    const mails = await rows<{ id: number; sent: boolean }>(
      'select id, sent_at is not null as sent from mails order by id',
    );
    expect(mails.length).toBeGreaterThanOrEqual(23);
    expect(mails.filter((mail) => !mail.sent)).toEqual([]);
    const files = readdirSync(path.join(cluster.dataDir, 'outbox')).filter((name) => name.endsWith('.eml'));
    const filesPerMail = new Map<number, number>();
    for (const file of files) {
      const id = Number(/-(\d+)\.eml$/.exec(file)?.[1]);
      filesPerMail.set(id, (filesPerMail.get(id) ?? 0) + 1);
    }
    expect([...filesPerMail].sort(([x], [y]) => x - y)).toEqual(mails.map((mail) => [mail.id, 1]));

    const mailJobs = await rows<{ mail: number }>(
      "select (payload->>'mailId')::int as mail from jobs where kind = 'mail.send' order by 1",
    );
    expect(mailJobs.map((job) => job.mail)).toEqual(mails.map((mail) => mail.id));
    const runTwice = await rows(
      'select id, kind, attempts from jobs where finished_at is not null and attempts <> 1',
    );
    expect(runTwice).toEqual([]);
    const recurring = await rows<{ kind: string; pending: number }>(
      `select kind, count(*)::int as pending from jobs
        where kind = any($1) and finished_at is null and failed_at is null group by kind order by kind`,
      [RECURRING_KINDS],
    );
    expect(recurring).toEqual([...RECURRING_KINDS].sort().map((kind) => ({ kind, pending: 1 })));
  });

  it('shows a price an admin changed on one instance on the other one at once', async () => {
    const [product] = await rows<{ id: number; link: string }>(
      'select id, link from products where visible and sale is null order by id limit 1',
    );
    if (!product) throw new Error('no product without a sale price');
    const visitor = new Shopper(cluster.b.baseUrl);
    visitor.cookies.set('locale', 'ru');
    const apiPrice = async () =>
      (
        await visitor.ok<{ product: { price: number } }>(
          'product',
          'GET',
          `/api/product?locale=ru&link=${product.link}`,
        )
      ).product.price;
    const pagePrice = async () => {
      const page = await visitor.request('product page', 'GET', `/product/${product.link}`, undefined, {
        accept: 'text/html',
      });
      expect(page.status).toBe(200);
      const shown = /class="price__current">([^<]+)</.exec(page.text)?.[1] ?? '';
      return Number(shown.replace(/[^\d]/g, ''));
    };
    // B has both answers in its caches before the change.
    const before = await apiPrice();
    expect(await pagePrice()).toBe(before);

    const admin = new Shopper(cluster.a.baseUrl);
    await admin.signIn(ADMIN.email, ADMIN.password);
    const { product: fields } = await admin.ok<{ product: Record<string, unknown> }>(
      'admin product',
      'GET',
      `/api/admin/products/${product.id}`,
    );
    const changed = before + 111;
    await admin.ok('admin product', 'PATCH', `/api/admin/products/${product.id}`, {
      json: { ...fields, price: changed },
    });
    expect(
      (
        await admin.ok<{ product: { price: number } }>(
          'product',
          'GET',
          `/api/product?locale=ru&link=${product.link}`,
        )
      ).product.price,
    ).toBe(changed);

    // "At once": within the time a cache-invalidation message takes between instances.
    const deadline = Date.now() + 1_000;
    let seen = { api: await apiPrice(), page: await pagePrice() };
    while ((seen.api !== changed || seen.page !== changed) && Date.now() < deadline) {
      await sleep(100);
      seen = { api: await apiPrice(), page: await pagePrice() };
    }
    expect(seen).toEqual({ api: changed, page: changed });
  });
});
