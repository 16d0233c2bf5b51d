import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket, headerCounts } from '../cart/service.ts';
import { setEnvisioned } from '../catalog/envisioned.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { jobs, mails, products, users } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper } from '../testing/orders.ts';
import { productWithSizes } from '../testing/variants.ts';
import { addToWishlist, getWishlist, isInWishlist } from './service.ts';

let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

describe('envisioned items', () => {
  it('mail every fan exactly once in their language, however often the item is toggled', async () => {
    const { db } = connection;
    const statue = fixtures.id('outlaw-statue');
    const fans = await db
      .insert(users)
      .values([
        { email: 'ru-fan@example.com', passwordHash: '', locale: 'ru' },
        { email: 'en-fan@example.com', passwordHash: '', locale: 'en' },
      ])
      .returning();
    for (const fan of fans) await addToWishlist(db, fan.id, statue);

    const context = { publicUrl: 'https://shop.example' };
    expect(await setEnvisioned(db, statue, false, context)).toEqual({ notified: 2 });
    expect(await setEnvisioned(db, statue, true, context)).toEqual({ notified: 0 });
    expect(await setEnvisioned(db, statue, false, context)).toEqual({ notified: 0 });

    const sent = await db.select().from(mails).where(eq(mails.template, 'envisioned-available'));
    expect(sent.map((mail) => [mail.to, mail.locale]).sort()).toEqual([
      ['en-fan@example.com', 'en'],
      ['ru-fan@example.com', 'ru'],
    ]);
    expect(sent.find((mail) => mail.locale === 'ru')?.subject).toContain('Статуэтка бандита');
    expect(sent.every((mail) => mail.text.includes('https://shop.example/product/outlaw-statue'))).toBe(true);
    expect((await db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))).length).toBe(2);
    const [product] = await db.select().from(products).where(eq(products.id, statue));
    expect(product?.envisioned).toBe(false);
  });

  it('a fan who wishlists after the item is made is not mailed by a later toggle', async () => {
    const { db } = connection;
    const statue = fixtures.id('outlaw-statue');
    const [late] = await db.insert(users).values({ email: 'late@example.com', passwordHash: '' }).returning();
    if (!late) throw new Error('no user');
    await setEnvisioned(db, statue, true, { publicUrl: 'https://shop.example' });
    await addToWishlist(db, late.id, statue);
    expect(await setEnvisioned(db, statue, false, { publicUrl: 'https://shop.example' })).toEqual({
      notified: 1,
    });
    expect(await setEnvisioned(db, statue, true, { publicUrl: 'https://shop.example' })).toEqual({
      notified: 0,
    });
    expect(await setEnvisioned(db, statue, false, { publicUrl: 'https://shop.example' })).toEqual({
      notified: 0,
    });
  });
});

describe("the header's badges", () => {
  it('count the units in the basket and the visible products in the wishlist in one answer, as the lists do', async () => {
    const { db } = connection;
    const [shopper] = await db
      .insert(users)
      .values({ email: 'badges@example.com', passwordHash: '' })
      .returning();
    if (!shopper) throw new Error('no user');
    const owner = { userId: shopper.id };
    expect(await headerCounts(db, owner)).toEqual({ basket: 0, wishlist: 0 });
    const shirt = fixtures.id('wolf-shirt');
    await addToBasket(db, owner, shirt);
    await addToBasket(db, owner, shirt);
    await addToWishlist(db, shopper.id, shirt);
    await addToWishlist(db, shopper.id, fixtures.id('outlaw-statue'));
    await db
      .update(products)
      .set({ visible: false })
      .where(eq(products.id, fixtures.id('outlaw-statue')));
    const basket = await getBasket(db, owner, 'en');
    const wishlist = await getWishlist(db, shopper.id, 'en');
    expect(await headerCounts(db, owner)).toEqual({
      basket: basket.count,
      wishlist: wishlist.productList.length,
    });
    expect(await headerCounts(db, owner)).toEqual({ basket: 2, wishlist: 1 });
    expect(await isInWishlist(db, shopper.id, shirt)).toBe(true);
    expect(await isInWishlist(db, shopper.id, fixtures.id('wolf-mug'))).toBe(false);
    await db
      .update(products)
      .set({ visible: true })
      .where(eq(products.id, fixtures.id('outlaw-statue')));
  });
});

describe('choosing a size on the wishlist', () => {
  it('offers the sizes of a wishlisted product with options, sold-out ones at 0, and adds the chosen one', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    const hoodie = await productWithSizes(db, {
      projectId: fixtures.projects.witcher.id,
      link: 'wishlisted-hoodie',
      sizes: { S: 2, M: 0, L: 3 },
    });
    await addToWishlist(db, userId, hoodie.productId);
    await addToWishlist(db, userId, fixtures.id('wolf-shirt'));

    const wishlist = await getWishlist(db, userId, 'ru');
    expect(wishlist.products[hoodie.productId]?.choice).toEqual({
      name: 'Размер',
      variants: [
        { id: hoodie.variants.S, label: 'S', inStock: 2 },
        { id: hoodie.variants.M, label: 'M', inStock: 0 },
        { id: hoodie.variants.L, label: 'L', inStock: 3 },
      ],
    });
    // A product without options is added as it is.
    expect(wishlist.products[fixtures.id('wolf-shirt')]?.choice).toBeNull();

    await addToBasket(db, { userId }, hoodie.productId, hoodie.variants.L);
    const basket = await getBasket(db, { userId }, 'en');
    expect(basket.products[`${hoodie.productId}:${hoodie.variants.L}`]?.options).toBe('Size: L');
    // Without a size the basket refuses, in the shopper's words (variant-required).
    await expect(addToBasket(db, { userId }, hoodie.productId)).rejects.toMatchObject({
      message: 'variant-required',
    });
  });
});
