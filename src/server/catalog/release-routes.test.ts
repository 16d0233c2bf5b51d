import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import { products, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';

/** Drops on the wire (ADR 0041): the product answer, the cached lists at a release, limits, reminders. */
let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const PASSWORD = 'shopper password';
let links = 0;

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  await shop.db.insert(users).values({
    email: 'reminded@example.com',
    passwordHash: await hashPassword(PASSWORD),
    emailVerifiedAt: new Date(),
  });
});
afterAll(() => shop.close());

async function newProduct(values: { releaseAt?: Date; perCustomerLimit?: number }) {
  const [product] = await shop.db
    .insert(products)
    .values({
      projectId: fixtures.projects.witcher.id,
      link: `drop-${++links}`,
      nameRu: `Дроп ${links}`,
      nameEn: `Drop ${links}`,
      price: 1_000_00,
      quantity: 5,
      ...values,
    })
    .returning({ id: products.id, link: products.link });
  if (!product) throw new Error('fixture insert failed');
  // As every staff write does: the caches drop what they hold and the release clock re-arms.
  await shop.services.catalog.invalidate();
  return product;
}

/** A browser-like visitor: keeps the session cookie between calls. */
function visitor() {
  let sid: string | undefined;
  const send = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const response: LightMyRequestResponse = await shop.app.inject({
      method,
      url,
      payload,
      cookies: sid ? { [SESSION_COOKIE]: sid } : {},
    });
    sid = response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value ?? sid;
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  return { send };
}

const listed = async (link: string) => {
  const answer = await shop.app.inject({ url: '/api/project?locale=en&link=northwind' });
  return (answer.json() as { products: Array<{ link: string }> }).products.some(
    (product) => product.link === link,
  );
};

describe('a product released on a schedule', () => {
  it('answers its release time and limit, and becomes listed and orderable at the release time, cached lists too', async () => {
    // The shop's clock and its release alarm (setTimeout) on a test clock: the release is a step of it.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const releaseAt = new Date(Date.now() + 60_000);
    const product = await newProduct({ releaseAt, perCustomerLimit: 2 });
    const page = await shop.app.inject({ url: `/api/product?locale=en&link=${product.link}` });
    expect(page.json()).toMatchObject({
      success: true,
      product: { releaseAt: releaseAt.toISOString(), perCustomerLimit: 2, inStock: 0 },
    });
    expect(await listed(product.link)).toBe(false);
    expect(await listed(product.link)).toBe(false); // the second answer is the cached one
    const guest = visitor();
    const early = await guest.send('POST', '/api/basket?locale=en', { product: product.id });
    expect(early).toMatchObject({
      status: 409,
      body: {
        intlError: 'product-not-released',
        message: 'This item is not on sale yet: its page shows when it goes on sale.',
      },
    });

    await vi.advanceTimersByTimeAsync(60_000);
    // The alarm has fired; what it empties may still be on its way to the database.
    await expect.poll(() => listed(product.link)).toBe(true);
    const later = await shop.app.inject({ url: `/api/product?locale=en&link=${product.link}` });
    expect(later.json()).toMatchObject({ product: { inStock: 5 } });
    expect((await guest.send('POST', '/api/basket', { product: product.id })).status).toBe(200);
  });

  it('refuses a unit past the limit with 422 limit-reached, the limit and a message in the language', async () => {
    const product = await newProduct({ perCustomerLimit: 1 });
    const guest = visitor();
    expect((await guest.send('POST', '/api/basket', { product: product.id })).status).toBe(200);
    const en = await guest.send('POST', '/api/basket?locale=en', { product: product.id });
    expect(en).toMatchObject({
      status: 422,
      body: { success: false, intlError: 'limit-reached', limit: 1, product: product.id },
    });
    expect(String(en.body.message)).toContain('limit of this item per customer');
    const ru = await guest.send('POST', '/api/basket/0?locale=ru', {
      _method: 'PATCH',
      product: product.id,
      count: 2,
    });
    expect(ru).toMatchObject({ status: 422, body: { intlError: 'limit-reached', limit: 1 } });
    expect(String(ru.body.message)).toContain('лимита этого товара');
  });
});

describe('release reminder calls', () => {
  it('asks a guest to sign in, and keeps and forgets a signed-in reminder idempotently', async () => {
    const product = await newProduct({ releaseAt: new Date(Date.now() + 3600_000) });
    const shopper = visitor();
    const guest = await shopper.send('POST', '/api/release-reminders?locale=en', { product: product.id });
    expect(guest).toMatchObject({ status: 401, body: { success: false, message: 'Sign in to continue.' } });
    expect(
      (await shopper.send('POST', '/api/login', { email: 'reminded@example.com', password: PASSWORD }))
        .status,
    ).toBe(200);
    for (let attempt = 0; attempt < 2; attempt++)
      expect(await shopper.send('POST', '/api/release-reminders', { product: product.id })).toEqual({
        status: 200,
        body: { success: true },
      });
    for (let attempt = 0; attempt < 2; attempt++)
      expect((await shopper.send('DELETE', `/api/release-reminders/${product.id}`)).status).toBe(200);
    // An address that names no product is refused and changes nothing.
    for (const id of ['abc', '0', '-1', '1.5', '2147483648'])
      expect((await shopper.send('DELETE', `/api/release-reminders/${id}`)).status).toBe(422);
    const released = await newProduct({});
    expect(
      await shopper.send('POST', '/api/release-reminders?locale=en', { product: released.id }),
    ).toMatchObject({
      status: 409,
      body: { message: 'This item is on sale already: no reminder is needed.' },
    });
  });
});
