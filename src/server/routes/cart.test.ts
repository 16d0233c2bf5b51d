import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../accounts/passwords.ts';
import { productVariants, promoCodes, users } from '../db/schema.ts';
import { SESSION_COOKIE } from '../http/session.ts';
import { createTestApp } from '../testing/app.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { setStock } from '../testing/stock.ts';
import { productWithSizes } from '../testing/variants.ts';

let shop: Awaited<ReturnType<typeof createTestApp>>;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const PASSWORD = 'shopper password';

beforeAll(async () => {
  shop = await createTestApp();
  fixtures = await insertCatalogue(shop.db);
  await shop.db.insert(users).values(
    ['anna', 'boris', 'vera'].map((name) => ({
      email: `${name}@example.com`,
      passwordHash: '',
      emailVerifiedAt: new Date(),
      firstName: name[0]?.toUpperCase() + name.slice(1),
    })),
  );
  const hash = await hashPassword(PASSWORD);
  await shop.db.update(users).set({ passwordHash: hash });
});
afterAll(() => shop.close());

const sidOf = (response: LightMyRequestResponse) =>
  response.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value;

/** A browser-like visitor: keeps the session cookie between calls. */
function visitor() {
  let sid: string | undefined;
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string | number>) => {
    const response = await shop.app.inject({
      method,
      url,
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      payload: form
        ? new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString()
        : undefined,
      cookies: sid ? { [SESSION_COOKIE]: sid } : {},
    });
    sid = sidOf(response) ?? sid;
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  return {
    send,
    basket: async () =>
      (await send('GET', '/api/basket?locale=en')).body as {
        productList: (number | string)[];
        products: Record<string, { count: number; inStock: number }>;
        unavailable: (number | string)[];
        total: number;
        count: number;
        promo?: { code: string; refused: string | null };
      },
    async signIn(email: string) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email, password: PASSWORD },
        cookies: sid ? { [SESSION_COOKIE]: sid } : {},
      });
      expect(response.statusCode).toBe(200);
      sid = sidOf(response);
    },
  };
}

describe('basket', () => {
  it('keeps a guest basket in the session and computes the total with sale prices', async () => {
    const guest = visitor();
    expect(await guest.basket()).toMatchObject({ productList: [], total: 0 });
    expect((await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') })).status).toBe(
      200,
    );
    await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
    await guest.send('POST', '/api/basket', { product: fixtures.id('outlaw-shirt') });
    const basket = await guest.basket();
    expect(basket.productList).toEqual([fixtures.id('wolf-shirt'), fixtures.id('outlaw-shirt')]);
    expect(basket.products[fixtures.id('wolf-shirt')]?.count).toBe(2);
    expect(basket.total).toBe(2 * 1990 + 3100);
    expect(basket.count).toBe(3);
    expect(await visitor().basket()).toMatchObject({ productList: [] });
  });

  it('clamps a count to stock and says so with force', async () => {
    const guest = visitor();
    const outlaw = fixtures.id('outlaw-shirt');
    await guest.send('POST', '/api/basket', { product: outlaw });
    const over = await guest.send('POST', '/api/basket/0', { _method: 'PATCH', product: outlaw, count: 7 });
    expect(over.body).toEqual({ success: true, force: true, product: outlaw, count: 3 });
    const exact = await guest.send('POST', '/api/basket/0', { _method: 'PATCH', product: outlaw, count: 2 });
    expect(exact.body).toEqual({ success: true, force: false, product: outlaw, count: 2 });
    const junk = await guest.send('POST', '/api/basket/0', {
      _method: 'PATCH',
      product: outlaw,
      count: 'abc',
    });
    expect(junk.body).toMatchObject({ count: 1, force: false });
    const zero = await guest.send('POST', '/api/basket/0', { _method: 'PATCH', product: outlaw, count: 0 });
    expect(zero.body).toMatchObject({ count: 1 });
    for (let attempt = 0; attempt < 5; attempt++)
      await guest.send('POST', '/api/basket', { product: outlaw });
    expect((await guest.basket()).products[outlaw]?.count).toBe(3);
  });

  it('marks an item unavailable when stock falls below the count, and removal clears it', async () => {
    const guest = visitor();
    const wolf = fixtures.id('wolf-shirt');
    await guest.send('POST', '/api/basket', { product: wolf });
    await guest.send('POST', '/api/basket/0', { _method: 'PATCH', product: wolf, count: 5 });
    await setStock(shop.db, wolf, 2);
    expect((await guest.basket()).unavailable).toEqual([wolf]);
    const removed = await guest.send('POST', '/api/basket/0', { _method: 'DELETE', product: wolf });
    expect(removed.body).toEqual({ success: true, product: wolf });
    expect(await guest.basket()).toMatchObject({ productList: [], unavailable: [] });
    await setStock(shop.db, wolf, 10);
  });

  it('refuses envisioned, out-of-stock, hidden and unknown products and changes nothing', async () => {
    const guest = visitor();
    const envisioned = await guest.send('POST', '/api/basket', { product: fixtures.id('outlaw-statue') });
    expect(envisioned.status).toBe(422);
    expect(envisioned.body.message).toMatch(/envisioned/);
    expect((await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-mug') })).status).toBe(409);
    expect((await guest.send('POST', '/api/basket', { product: fixtures.id('hidden-mug') })).status).toBe(
      404,
    );
    expect((await guest.send('POST', '/api/basket', { product: fixtures.id('secret-shirt') })).status).toBe(
      404,
    );
    expect((await guest.send('POST', '/api/basket', { product: 999999 })).status).toBe(404);
    expect((await guest.send('POST', '/api/basket', { product: 'x' })).status).toBe(422);
    expect(await guest.basket()).toMatchObject({ productList: [] });
  });

  it("merges a guest's basket into the user's at sign-in, summing counts within stock", async () => {
    const anna = visitor();
    await anna.signIn('anna@example.com');
    await anna.send('POST', '/api/basket', { product: fixtures.id('outlaw-shirt') });
    await anna.send('POST', '/api/basket/0', {
      _method: 'PATCH',
      product: fixtures.id('outlaw-shirt'),
      count: 2,
    });

    const guest = visitor();
    await guest.send('POST', '/api/basket', { product: fixtures.id('outlaw-shirt') });
    await guest.send('POST', '/api/basket/0', {
      _method: 'PATCH',
      product: fixtures.id('outlaw-shirt'),
      count: 3,
    });
    await guest.send('POST', '/api/basket', { product: fixtures.id('wolf-shirt') });
    // The promo code the guest entered comes along (ADR 0058).
    await shop.db.insert(promoCodes).values({ code: 'GUEST5', kind: 'percent', value: 5 });
    await guest.send('POST', '/api/basket/promo', { code: 'guest5' });
    await guest.signIn('anna@example.com');

    const merged = await guest.basket();
    expect(merged.products[fixtures.id('outlaw-shirt')]?.count).toBe(3);
    expect(merged.products[fixtures.id('wolf-shirt')]?.count).toBe(1);
    expect((await anna.basket()).productList.sort()).toEqual(merged.productList.sort());
    expect(merged.promo).toMatchObject({ code: 'GUEST5', refused: null });
  });
});

describe('basket lines of a product in sizes', () => {
  const call = (locale: 'ru' | 'en', form: Record<string, string | number>) =>
    shop.app.inject({
      method: 'POST',
      url: '/api/basket',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': locale },
      payload: new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString(),
    });

  it("asks for the size in the shopper's language, refuses another product's variant, keeps sizes apart", async () => {
    const hoodie = await productWithSizes(shop.db, {
      projectId: fixtures.projects.witcher.id,
      link: 'api-hoodie',
      sizes: { S: 2, M: 0, L: 3 },
    });
    const { S, M, L } = hoodie.variants as Record<'S' | 'M' | 'L', number>;
    const ru = await call('ru', { product: hoodie.productId });
    expect(ru.statusCode).toBe(422);
    expect(ru.json()).toMatchObject({
      success: false,
      message: 'Сначала выберите размер (или другой вариант).',
    });
    const en = await call('en', { product: hoodie.productId });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toMatchObject({ message: 'Choose a size (or another option) first.' });
    const another = await call('en', { product: fixtures.id('wolf-shirt'), variant: L });
    expect(another.statusCode).toBe(404);
    expect(another.json()).toMatchObject({ message: 'This size or option of the product is not available.' });
    expect((await call('en', { product: hoodie.productId, variant: M })).statusCode).toBe(409);

    const guest = visitor();
    for (const variant of [L, S, L]) {
      expect((await guest.send('POST', '/api/basket', { product: hoodie.productId, variant })).status).toBe(
        200,
      );
    }
    await guest.send('POST', '/api/basket', { product: fixtures.id('outlaw-shirt') });
    const both = await guest.basket();
    const large = `${hoodie.productId}:${L}`;
    const small = `${hoodie.productId}:${S}`;
    expect(both.productList).toEqual([large, small, fixtures.id('outlaw-shirt')]);
    expect(both.products[large]).toMatchObject({
      count: 2,
      inStock: 3,
      variant: L,
      sku: 'api-hoodie-l',
      options: 'Size: L',
    });
    expect(both.products[fixtures.id('outlaw-shirt')]).toMatchObject({ options: null, sku: 'outlaw-shirt' });

    // Count and removal name the line; without a variant they cannot tell two sizes apart.
    const over = await guest.send('POST', '/api/basket/0', {
      _method: 'PATCH',
      product: hoodie.productId,
      variant: S,
      count: 5,
    });
    expect(over.body).toEqual({
      success: true,
      force: true,
      product: hoodie.productId,
      variant: S,
      count: 2,
    });
    const unnamed = await guest.send('POST', '/api/basket/0', {
      _method: 'PATCH',
      product: hoodie.productId,
      count: 1,
    });
    expect(unnamed.status).toBe(422);
    await shop.db.update(productVariants).set({ quantity: 1 }).where(eq(productVariants.id, L));
    expect((await guest.basket()).unavailable).toEqual([large]);
    const removed = await guest.send('POST', '/api/basket/0', {
      _method: 'DELETE',
      product: hoodie.productId,
      variant: L,
    });
    expect(removed.body).toEqual({ success: true, product: hoodie.productId, variant: L });
    expect((await guest.basket()).productList).toEqual([small, fixtures.id('outlaw-shirt')]);
  });
});

describe('wishlist', () => {
  it('is refused to guests with the wishlist-unavailable message', async () => {
    const guest = visitor();
    const answer = await guest.send('POST', '/api/wishlist', { product: fixtures.id('wolf-shirt') });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/signed-in users/);
    expect((await guest.send('GET', '/api/wishlist?locale=en')).status).toBe(401);
  });

  it('adds envisioned and ordinary products, answers the list, removes', async () => {
    const boris = visitor();
    await boris.signIn('boris@example.com');
    await boris.send('POST', '/api/wishlist?locale=en', { product: fixtures.id('wolf-shirt') });
    const added = await boris.send('POST', '/api/wishlist?locale=en', {
      product: fixtures.id('outlaw-statue'),
    });
    expect(added.body).toMatchObject({
      success: true,
      productList: [fixtures.id('wolf-shirt'), fixtures.id('outlaw-statue')],
      products: { [fixtures.id('outlaw-statue')]: { envisioned: true, inStock: 0, name: 'Outlaw statue' } },
    });
    await boris.send('POST', '/api/wishlist?locale=en', { product: fixtures.id('wolf-shirt') });
    const removed = await boris.send('POST', '/api/wishlist/0', {
      _method: 'DELETE',
      product: fixtures.id('wolf-shirt'),
    });
    expect(removed.body).toEqual({ success: true, product: fixtures.id('wolf-shirt') });
    expect((await boris.send('GET', '/api/wishlist?locale=en')).body.productList).toEqual([
      fixtures.id('outlaw-statue'),
    ]);
    expect((await boris.send('POST', '/api/wishlist', { product: fixtures.id('hidden-mug') })).status).toBe(
      404,
    );
  });
});

describe('reviews', () => {
  it('takes a rating and text from signed-in users, newest first, with the average on the product', async () => {
    const wolf = fixtures.id('wolf-shirt');
    const guest = visitor();
    expect(
      (await guest.send('POST', '/api/reviews', { product: wolf, rating: 5, body: 'Great' })).status,
    ).toBe(401);

    const vera = visitor();
    await vera.signIn('vera@example.com');
    expect(
      (await vera.send('POST', '/api/reviews', { product: wolf, rating: 4, body: 'Soft <b>cotton</b>' }))
        .status,
    ).toBe(200);
    const anna = visitor();
    await anna.signIn('anna@example.com');
    expect(
      (await anna.send('POST', '/api/reviews', { product: wolf, rating: 5, body: 'Love it' })).status,
    ).toBe(200);
    expect(
      (await anna.send('POST', '/api/reviews', { product: wolf, rating: 1, body: 'Again' })).status,
    ).toBe(409);

    const page = await guest.send('GET', `/api/reviews?product=${wolf}`);
    expect(page.body).toMatchObject({ success: true, average: 4.5, count: 2, page: 1, lastPage: 1 });
    expect(
      (page.body.reviews as Array<{ body: string; author: string }>).map((review) => [
        review.author,
        review.body,
      ]),
    ).toEqual([
      ['Anna', 'Love it'],
      ['Vera', 'Soft <b>cotton</b>'],
    ]);
    const product = await guest.send('GET', '/api/product?locale=en&link=wolf-shirt');
    expect((product.body.product as { rating: unknown }).rating).toEqual({ average: 4.5, count: 2 });
  });

  it('validates the rating and the length', async () => {
    const vera = visitor();
    await vera.signIn('vera@example.com');
    const product = fixtures.id('outlaw-shirt');
    const bad = await vera.send('POST', '/api/reviews', { product, rating: 6, body: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ rating: [expect.any(String)] });
    const long = await vera.send('POST', '/api/reviews', { product, rating: 3, body: 'x'.repeat(2001) });
    expect(long.body.errors).toMatchObject({ body: [expect.any(String)] });
    const empty = await vera.send('POST', '/api/reviews', { product, rating: 3, body: '   ' });
    expect(empty.status).toBe(422);
  });
});
