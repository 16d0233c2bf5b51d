import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { WHOLE_LIST } from '../../contract/shop.ts';
import { addToBasket, getBasket } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { createOrder } from '../orders/service.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { cardsInOrder } from './cards.ts';
import { getProduct } from './product-page.ts';
import { createReleaseClock, nextReleaseAt, productsReleasedAt } from './release.ts';
import { suggestSearch } from './search.ts';
import { listProducts, listUpcoming, listWeekProducts, searchHelp } from './service.ts';
import { listProductLinks } from './sitemap.ts';

/** The one "released" rule (ADR 0041) as shoppers meet it, before and after the release time. */
let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
let dropId: number;
const RELEASE = new Date(Date.now() + 24 * 3600_000);
const BEFORE = new Date(RELEASE.getTime() - 1000);
const AFTER = new Date(RELEASE.getTime() + 1000);

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
  const [drop] = await connection.db
    .insert(products)
    .values({
      projectId: fixtures.projects.witcher.id,
      link: 'dragon-tee',
      nameRu: 'Футболка с драконом',
      nameEn: 'Dragon tee',
      price: 3_000_00,
      quantity: 5,
      weekSale: true,
      position: 0,
      releaseAt: RELEASE,
    })
    .returning();
  if (!drop) throw new Error('fixture insert failed');
  dropId = drop.id;
  await connection.db.execute(
    `insert into product_categories (product_id, category_id) values (${drop.id}, ${fixtures.categories.shirts.id})`,
  );
  await connection.db.execute(
    `insert into product_images (product_id, file, position) values (${drop.id}, 'dragon.webp', 0)`,
  );
});
afterAll(() => connection.close());

const ids = (cards: Array<{ id: number }>) => cards.map((card) => card.id);

describe('a product announced for a release time', () => {
  it('is in no list, count, search, suggestion, sitemap, week sale or recommendation before it, and in all of them after', async () => {
    const { db } = connection;
    for (const [now, listed] of [
      [BEFORE, false],
      [AFTER, true],
    ] as const) {
      const all = await listProducts(db, 'en', { kind: 'all' }, WHOLE_LIST, now);
      const category = await listProducts(db, 'en', { kind: 'category', link: 't-shirts' }, WHOLE_LIST, now);
      const search = await listProducts(db, 'en', { kind: 'search', text: 'dragon' }, WHOLE_LIST, now);
      const suggestions = await suggestSearch(db, 'en', 'drag', now);
      const links = await listProductLinks(db, now);
      const week = await listWeekProducts(db, 'en', now);
      const recentlyViewed = await cardsInOrder(db, 'en', [dropId], now);
      const didYouMean = await searchHelp(db, 'en', 'dragn', now);
      expect(ids(all.products).includes(dropId)).toBe(listed);
      expect(ids(category.products).includes(dropId)).toBe(listed);
      expect(category.counts.categories[fixtures.categories.shirts.id]).toBe(listed ? 3 : 2);
      expect(ids(search.products)).toEqual(listed ? [dropId] : []);
      expect(suggestions.products.map((product) => product.link)).toEqual(listed ? ['dragon-tee'] : []);
      expect(links.some((link) => link.link === 'dragon-tee')).toBe(listed);
      expect(ids(week).includes(dropId)).toBe(listed);
      expect(ids(recentlyViewed)).toEqual(listed ? [dropId] : []);
      expect(didYouMean.didYouMean.some((name) => name.link === 'dragon-tee')).toBe(listed);
    }
  });

  it('is "coming soon" before it: on the home page, its category, its project and a search for its name, with its release time', async () => {
    const { db } = connection;
    for (const [now, upcoming] of [
      [BEFORE, [dropId]],
      [AFTER, []],
    ] as const) {
      expect(ids(await listUpcoming(db, 'en', { kind: 'all' }, now))).toEqual(upcoming);
      expect(ids(await listUpcoming(db, 'en', { kind: 'category', link: 't-shirts' }, now))).toEqual(
        upcoming,
      );
      expect(ids(await listUpcoming(db, 'ru', { kind: 'project', link: 'northwind' }, now))).toEqual(
        upcoming,
      );
      expect(ids(await listUpcoming(db, 'ru', { kind: 'search', text: 'дракон' }, now))).toEqual(upcoming);
    }
    const [card] = await listUpcoming(db, 'en', { kind: 'search', text: 'Dragon' }, BEFORE);
    expect(card).toMatchObject({ name: 'Dragon tee', releaseAt: RELEASE.toISOString(), inStock: 0 });
    expect(await listUpcoming(db, 'en', { kind: 'category', link: 'mugs' }, BEFORE)).toEqual([]);
    expect(await listUpcoming(db, 'en', { kind: 'search', text: '%' }, BEFORE)).toEqual([]);
    // Released cards say nothing of a release time.
    const [released] = await cardsInOrder(db, 'en', [dropId], AFTER);
    expect(released?.releaseAt).toBeNull();
  });

  it('has its page before the release, with the release time and nothing orderable; orderable after', async () => {
    const before = (await getProduct(connection.db, 'ru', 'dragon-tee', BEFORE)).product;
    expect(before).toMatchObject({ releaseAt: RELEASE.toISOString(), inStock: 0, perCustomerLimit: null });
    expect(before.variants.map((variant) => variant.inStock)).toEqual([0]);
    const after = (await getProduct(connection.db, 'ru', 'dragon-tee', AFTER)).product;
    expect(after).toMatchObject({ releaseAt: RELEASE.toISOString(), inStock: 5 });
    expect(after.variants.map((variant) => variant.inStock)).toEqual([5]);
    // Not among another product's similar ones before its release either.
    const similar = (await getProduct(connection.db, 'en', 'wolf-shirt', BEFORE)).similar;
    expect(ids(similar)).not.toContain(dropId);
    expect(ids((await getProduct(connection.db, 'en', 'wolf-shirt', AFTER)).similar)).toContain(dropId);
  });

  it('cannot go into a basket before the release (409 product-not-released), and can after', async () => {
    const owner = { userId: (await newShopper(connection.db)).id };
    await expect(addToBasket(connection.db, owner, dropId, undefined, BEFORE)).rejects.toMatchObject({
      status: 409,
      message: 'product-not-released',
    });
    expect((await getBasket(connection.db, owner, 'en')).productList).toEqual([]);
    await addToBasket(connection.db, owner, dropId, undefined, AFTER);
    expect((await getBasket(connection.db, owner, 'en', AFTER)).products[dropId]?.inStock).toBe(5);
    // The basket shows it unavailable at a moment before the release.
    expect((await getBasket(connection.db, owner, 'en', BEFORE)).unavailable).toEqual([dropId]);
  });

  it('refuses an order placed before the release with basket-unavailable and takes no stock', async () => {
    const { db } = connection;
    const userId = (await newShopper(db)).id;
    await addToBasket(db, { userId }, dropId, undefined, AFTER);
    const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };
    await expect(
      createOrder(db, userId, orderInput(), { ...context, clock: () => BEFORE }),
    ).rejects.toMatchObject({ message: 'basket-unavailable', details: { unavailable: [dropId] } });
    const [row] = await db
      .select({ quantity: products.quantity })
      .from(products)
      .where(eq(products.id, dropId));
    expect(row?.quantity).toBe(5);
  });
});

describe('the release clock', () => {
  it('names the next release time still to come', async () => {
    expect(await nextReleaseAt(connection.db, BEFORE)).toEqual(RELEASE);
    expect(await nextReleaseAt(connection.db, AFTER)).toBeNull();
  });

  it('fires at each release time in turn and re-arms when release times change', async () => {
    const { db } = connection;
    const soon = async (link: string, inMs: number) => {
      const [row] = await db
        .insert(products)
        .values({
          projectId: fixtures.projects.witcher.id,
          link,
          nameRu: link,
          nameEn: link,
          price: 100_00,
          releaseAt: new Date(Date.now() + inMs),
        })
        .returning({ id: products.id, releaseAt: products.releaseAt });
      if (!row?.releaseAt) throw new Error('fixture insert failed');
      return { id: row.id, releaseAt: row.releaseAt };
    };
    const fired: number[] = [];
    const released: number[][] = [];
    const clock = createReleaseClock({
      db,
      onRelease: async (at) => {
        fired.push(Date.now());
        released.push(await productsReleasedAt(db, at));
      },
    });
    try {
      const first = await soon('clock-first', 400);
      const second = await soon('clock-second', 900);
      await clock.rearm();
      await expect.poll(() => fired.length, { timeout: 5000, interval: 50 }).toBe(2);
      expect(fired[0]).toBeGreaterThanOrEqual(first.releaseAt.getTime());
      expect(fired[1]).toBeGreaterThanOrEqual(second.releaseAt.getTime());
      // Each tick names the products it releases, and only those.
      await expect.poll(() => released.length, { timeout: 5000, interval: 50 }).toBe(2);
      expect(released).toEqual([[first.id], [second.id]]);

      // A release time set after arming is picked up by rearm (as after any catalogue change).
      const later = await soon('clock-later', 300);
      await clock.rearm();
      await expect.poll(() => fired.length, { timeout: 5000, interval: 50 }).toBe(3);
      expect(fired[2]).toBeGreaterThanOrEqual(later.releaseAt.getTime());
    } finally {
      clock.close();
    }
  });

  it('stays silent once closed', async () => {
    // Its alarm (setTimeout) on a test clock: the release time is passed in one step.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const fired: number[] = [];
    const clock = createReleaseClock({
      db: connection.db,
      onRelease: () => {
        fired.push(Date.now());
      },
    });
    await connection.db.insert(products).values({
      projectId: fixtures.projects.witcher.id,
      link: 'clock-closed',
      nameRu: 'x',
      nameEn: 'x',
      price: 100_00,
      releaseAt: new Date(Date.now() + 200),
    });
    await clock.rearm();
    clock.close();
    vi.advanceTimersByTime(500);
    expect(fired).toEqual([]);
  });
});
