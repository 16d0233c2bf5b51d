import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE, type ProductCard } from '../../contract/catalog.ts';
import { type ListSort, type ListView, WHOLE_LIST } from '../../contract/shop.ts';
import type { Database, DatabaseConnection } from '../db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  products,
  projects,
  reviews,
  users,
} from '../db/schema.ts';
import { createTestDatabase } from '../testing/database.ts';
import { cardsInOrder } from './cards.ts';
import { type ListScope, listCategoryPictures, listProducts } from './service.ts';

/**
 * Shop lists longer than a page: sorting, filtering and counting must hold over the whole list,
 * whichever page is shown. The fixture is 130 lanterns in two projects, all in "lamps", some also
 * in "gifts" and in a hidden category; one is hidden.
 */

const COUNT = 130;
const HIDDEN = 50;

interface Lantern {
  n: number;
  harbour: boolean;
  gifts: boolean;
  archive: boolean;
  price: number;
  sale: number | null;
  inStock: boolean;
}

const lanterns: Lantern[] = Array.from({ length: COUNT }, (_, index) => {
  const n = index + 1;
  const price = (((n * 37) % 101) + 1) * 100;
  return {
    n,
    harbour: n % 3 === 0,
    gifts: n % 4 === 0,
    archive: n % 10 === 0,
    price,
    sale: n % 5 === 0 ? price / 2 : null,
    inStock: n % 7 !== 0 && n % 13 !== 0,
  };
});
const visible = lanterns.filter((lantern) => lantern.n !== HIDDEN);
const linkOf = (lantern: Lantern) => `lantern-${lantern.n}`;
const pays = (lantern: Lantern) => lantern.sale ?? lantern.price;

let connection: DatabaseConnection;
let db: Database;
let ids: { lighthouse: number; harbour: number; lamps: number; gifts: number; archive: number };

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
  const [lighthouse, harbour] = await db
    .insert(projects)
    .values([
      { link: 'lighthouse', nameRu: 'Маяк', nameEn: 'Lighthouse', position: 1 },
      { link: 'harbour', nameRu: 'Гавань', nameEn: 'Harbour', position: 2 },
    ])
    .returning();
  const [lamps, gifts, archive] = await db
    .insert(categories)
    .values([
      { link: 'lamps', nameRu: 'Лампы', nameEn: 'Lamps', position: 1 },
      { link: 'gifts', nameRu: 'Подарки', nameEn: 'Gifts', position: 2 },
      { link: 'archive', nameRu: 'Архив', nameEn: 'Archive', position: 3, visible: false },
    ])
    .returning();
  if (!lighthouse || !harbour || !lamps || !gifts || !archive) throw new Error('fixture insert failed');
  ids = {
    lighthouse: lighthouse.id,
    harbour: harbour.id,
    lamps: lamps.id,
    gifts: gifts.id,
    archive: archive.id,
  };
  const rows = await db
    .insert(products)
    .values(
      lanterns.map((lantern) => ({
        projectId: lantern.harbour ? harbour.id : lighthouse.id,
        link: linkOf(lantern),
        nameRu: `Фонарь ${lantern.n}`,
        nameEn: `Lantern ${lantern.n}`,
        descriptionEn: '<p>A storm lantern.</p>',
        price: lantern.price * 100,
        sale: lantern.sale === null ? null : lantern.sale * 100,
        quantity: lantern.inStock ? 5 : 0,
        envisioned: lantern.n % 13 === 0,
        visible: lantern.n !== HIDDEN,
        position: lantern.n,
      })),
    )
    .returning({ id: products.id, position: products.position });
  const idOf = new Map(rows.map((row) => [row.position, row.id]));
  await db.insert(productCategories).values(
    lanterns.flatMap((lantern) => {
      const productId = idOf.get(lantern.n) ?? 0;
      return [
        { productId, categoryId: lamps.id },
        ...(lantern.gifts ? [{ productId, categoryId: gifts.id }] : []),
        ...(lantern.archive ? [{ productId, categoryId: archive.id }] : []),
      ];
    }),
  );
});
afterAll(() => connection.close());

const lampsScope: ListScope = { kind: 'category', link: 'lamps' };
const view = (change: Partial<ListView> = {}): ListView => ({ ...WHOLE_LIST, page: 1, ...change });
const links = (cards: ProductCard[]) => cards.map((card) => card.link);

/** Every page of a list, one after the other, and what each page said about the paging. */
async function allPages(scope: ListScope, change: Partial<ListView> = {}) {
  const first = await listProducts(db, 'en', scope, view(change));
  const pages = first.paging?.pages ?? 0;
  const rest = [];
  for (let page = 2; page <= pages; page++)
    rest.push(await listProducts(db, 'en', scope, view({ ...change, page })));
  return [first, ...rest];
}

const countsOfProjects = (list: Lantern[]) => ({
  [ids.lighthouse]: list.filter((lantern) => !lantern.harbour).length,
  [ids.harbour]: list.filter((lantern) => lantern.harbour).length,
});

const byPosition = (a: Lantern, b: Lantern) => a.n - b.n;
const expectedOrder: Record<ListSort | 'available', (list: Lantern[]) => Lantern[]> = {
  default: (list) => [...list].sort(byPosition),
  asc: (list) => [...list].sort((a, b) => pays(a) - pays(b) || byPosition(a, b)),
  desc: (list) => [...list].sort((a, b) => pays(b) - pays(a) || byPosition(a, b)),
  available: (list) => list.filter((lantern) => lantern.inStock).sort(byPosition),
};

describe('a category longer than one page', () => {
  it('pages 48 cards at a time, in the list order, losing and repeating nothing', async () => {
    const pages = await allPages(lampsScope);
    expect(pages.map((page) => page.products.length)).toEqual([
      PAGE_SIZE,
      PAGE_SIZE,
      visible.length - 2 * PAGE_SIZE,
    ]);
    expect(pages.map((page) => page.paging)).toEqual(
      [1, 2, 3].map((page) => ({ page, pages: 3, perPage: PAGE_SIZE, total: visible.length })),
    );
    expect(pages.flatMap((page) => links(page.products))).toEqual(expectedOrder.default(visible).map(linkOf));
  });

  it.each(['asc', 'desc', 'available'] as const)('sorts the whole list before paging: %s', async (sort) => {
    const pages = await allPages(lampsScope, sort === 'available' ? { available: true } : { sort });
    const expected = expectedOrder[sort](visible);
    expect(pages.flatMap((page) => links(page.products))).toEqual(expected.map(linkOf));
    expect(pages[0]?.paging?.total).toBe(expected.length);
    if (sort === 'available') {
      expect(pages.flatMap((page) => page.products).every((card) => card.inStock > 0)).toBe(true);
    }
  });

  it('counts every product of the list per project and per category on every page, hidden categories left out', async () => {
    const countsOf = (list: Lantern[]) => ({
      projects: countsOfProjects(list),
      categories: {
        [ids.lamps]: list.length,
        [ids.gifts]: list.filter((lantern) => lantern.gifts).length,
      },
      sizes: {},
      available: list.filter((lantern) => lantern.inStock).length,
    });
    for (const answer of [
      ...(await allPages(lampsScope)),
      await listProducts(db, 'en', lampsScope, WHOLE_LIST),
    ]) {
      expect(answer.counts).toEqual(countsOf(visible));
      expect(answer.projects.map((project) => project.link)).toEqual(['lighthouse', 'harbour']);
      expect(answer.categories.map((category) => category.link)).toEqual(['lamps', 'gifts']);
    }
  });

  it('counts what choosing a section would show: the other filters and "available" applied, its own left out', async () => {
    const inStock = visible.filter((lantern) => lantern.inStock);
    const available = await listProducts(db, 'en', lampsScope, view({ available: true, page: 2 }));
    expect(available.counts.projects).toEqual({
      [ids.lighthouse]: inStock.filter((lantern) => !lantern.harbour).length,
      [ids.harbour]: inStock.filter((lantern) => lantern.harbour).length,
    });
    const harbour = await listProducts(db, 'en', lampsScope, view({ projectIds: [ids.harbour] }));
    // Every project still counts as choosing it would show; the categories count the harbour's only.
    expect(harbour.counts.projects).toEqual(countsOfProjects(visible));
    expect(harbour.counts.categories).toEqual({
      [ids.lamps]: visible.filter((lantern) => lantern.harbour).length,
      [ids.gifts]: visible.filter((lantern) => lantern.harbour && lantern.gifts).length,
    });
    const gifts = await listProducts(db, 'en', lampsScope, view({ categoryIds: [ids.gifts] }));
    expect(gifts.counts.projects).toEqual(countsOfProjects(visible.filter((lantern) => lantern.gifts)));
    expect(gifts.projects.map((project) => project.link)).toEqual(['lighthouse', 'harbour']);
  });

  it('filters by project and by category before paging', async () => {
    const harbour = await allPages(lampsScope, { projectIds: [ids.harbour] });
    expect(harbour.flatMap((page) => links(page.products))).toEqual(
      expectedOrder.default(visible.filter((lantern) => lantern.harbour)).map(linkOf),
    );
    const giftsInStock = await allPages(lampsScope, { categoryIds: [ids.gifts], available: true });
    const expected = expectedOrder.available(visible.filter((lantern) => lantern.gifts));
    expect(giftsInStock.flatMap((page) => links(page.products))).toEqual(expected.map(linkOf));
    expect(giftsInStock[0]?.paging).toEqual({
      page: 1,
      pages: Math.ceil(expected.length / PAGE_SIZE),
      perPage: PAGE_SIZE,
      total: expected.length,
    });
  });

  it('answers no cards past the last page or for a filter nothing passes (a hidden category)', async () => {
    const past = await listProducts(db, 'en', lampsScope, view({ page: 9 }));
    expect(past.products).toEqual([]);
    expect(past.paging).toEqual({ page: 9, pages: 3, perPage: PAGE_SIZE, total: visible.length });
    const empty = await listProducts(db, 'en', lampsScope, view({ projectIds: [999_999] }));
    expect(empty.paging).toEqual({ page: 1, pages: 1, perPage: PAGE_SIZE, total: 0 });
    const hidden = await listProducts(db, 'en', lampsScope, view({ categoryIds: [ids.archive] }));
    expect(hidden.products).toEqual([]);
  });

  it('answers the whole list, unpaged, when no page is asked for (the spec call)', async () => {
    const whole = await listProducts(db, 'en', lampsScope, WHOLE_LIST);
    expect(links(whole.products)).toEqual(expectedOrder.default(visible).map(linkOf));
    expect(whole.paging).toBeUndefined();
  });

  it('pages a project the same way', async () => {
    const pages = await allPages({ kind: 'project', link: 'lighthouse' }, { sort: 'desc' });
    expect(pages.flatMap((page) => links(page.products))).toEqual(
      expectedOrder.desc(visible.filter((lantern) => !lantern.harbour)).map(linkOf),
    );
  });
});

describe('filters shoppers combine', () => {
  const shownLinks = async (change: Partial<ListView>) =>
    (await allPages(lampsScope, change)).flatMap((page) => links(page.products));
  const inRange = (min: number | null, max: number | null) => (lantern: Lantern) =>
    (min === null || pays(lantern) >= min) && (max === null || pays(lantern) <= max);

  it('keeps a product with any of the chosen values of a group, and applies the groups together', async () => {
    // Both projects and "gifts": every gift, whichever project.
    expect(await shownLinks({ projectIds: [ids.harbour, ids.lighthouse], categoryIds: [ids.gifts] })).toEqual(
      expectedOrder.default(visible.filter((lantern) => lantern.gifts)).map(linkOf),
    );
    // Two categories of one group: lamps or gifts, so every lamp; with the harbour only its lamps.
    expect(await shownLinks({ categoryIds: [ids.gifts, ids.lamps], projectIds: [ids.harbour] })).toEqual(
      expectedOrder.default(visible.filter((lantern) => lantern.harbour)).map(linkOf),
    );
  });

  it('combines the in-stock filter with a price sort, over the whole list before paging', async () => {
    for (const sort of ['asc', 'desc'] as const) {
      const pages = await allPages(lampsScope, { sort, available: true });
      const expected = expectedOrder[sort](visible.filter((lantern) => lantern.inStock));
      expect(pages.flatMap((page) => links(page.products))).toEqual(expected.map(linkOf));
      expect(pages[0]?.paging?.total).toBe(expected.length);
    }
  });

  it('keeps the prices paid within a range, its bounds included, and says the range of the list', async () => {
    const [low, high] = [2000, 5000];
    const chosen = visible.filter(inRange(low, high));
    const pages = await allPages(lampsScope, { sort: 'asc', price: { min: low * 100, max: high * 100 } });
    expect(pages.flatMap((page) => links(page.products))).toEqual(expectedOrder.asc(chosen).map(linkOf));
    expect(chosen.some((lantern) => pays(lantern) === low || pays(lantern) === high)).toBe(true);
    // Only a lower or only an upper bound.
    expect(await shownLinks({ price: { min: high * 100, max: null } })).toEqual(
      expectedOrder.default(visible.filter(inRange(high, null))).map(linkOf),
    );
    expect(await shownLinks({ price: { min: null, max: low * 100 } })).toEqual(
      expectedOrder.default(visible.filter(inRange(null, low))).map(linkOf),
    );
    // The range of the list is what the other filters leave, whatever range is chosen.
    const first = pages[0];
    const harbourPays = visible.filter((lantern) => lantern.harbour).map(pays);
    const harbour = await listProducts(
      db,
      'en',
      lampsScope,
      view({ projectIds: [ids.harbour], price: { min: low * 100, max: high * 100 } }),
    );
    expect(harbour.priceRange).toEqual({ min: Math.min(...harbourPays), max: Math.max(...harbourPays) });
    expect(first?.priceRange).toEqual({
      min: Math.min(...visible.map(pays)),
      max: Math.max(...visible.map(pays)),
    });
  });

  it('keeps a product whose variants sell within the range though its own price is outside', async () => {
    const [lantern] = await db.select().from(products).where(eq(products.link, 'lantern-1'));
    if (!lantern) throw new Error('no lantern 1');
    // The default variant sells at the product's price; a second variant of its own at 1 ₽ more than
    // any lantern's.
    const ceiling = (Math.max(...visible.map(pays)) + 1) * 100;
    await db.execute(
      sql`insert into product_variants (product_id, sku, price, quantity, position) values (${lantern.id}, 'lantern-1-gold', ${ceiling}, 1, 1)`,
    );
    try {
      const dear = await listProducts(db, 'en', lampsScope, view({ price: { min: ceiling, max: null } }));
      expect(links(dear.products)).toEqual(['lantern-1']);
    } finally {
      await db.execute(sql`delete from product_variants where sku = 'lantern-1-gold'`);
    }
  });

  it('counts exactly with several values chosen: each value under the other groups, 0 for one that adds nothing', async () => {
    const low = 1000;
    const cheap = visible.filter(inRange(null, low));
    const answer = await listProducts(
      db,
      'en',
      lampsScope,
      view({
        projectIds: [ids.harbour, ids.lighthouse],
        categoryIds: [ids.gifts],
        available: true,
        price: { min: null, max: low * 100 },
      }),
    );
    const underOthers = (keep: (lantern: Lantern) => boolean) => cheap.filter(keep).length;
    expect(answer.counts).toEqual({
      projects: {
        [ids.lighthouse]: underOthers((l) => l.gifts && l.inStock && !l.harbour),
        [ids.harbour]: underOthers((l) => l.gifts && l.inStock && l.harbour),
      },
      categories: {
        [ids.lamps]: underOthers((l) => l.inStock),
        [ids.gifts]: underOthers((l) => l.inStock && l.gifts),
      },
      sizes: {},
      available: underOthers((l) => l.gifts && l.inStock),
    });
    expect(answer.paging?.total).toBe(underOthers((l) => l.gifts && l.inStock));
    // Nothing in stock costs 1 ₽ or less: the in-stock choice would show nothing, and says 0;
    // the sections it would leave empty are still listed, with their 0.
    const none = await listProducts(db, 'en', lampsScope, view({ price: { min: null, max: 100 } }));
    expect(none.counts.available).toBe(0);
    expect(none.counts.projects).toEqual({ [ids.lighthouse]: 0, [ids.harbour]: 0 });
    expect(none.projects.map((project) => project.link)).toEqual(['lighthouse', 'harbour']);
    // The range the fields offer is the list's, whatever range was typed.
    expect(none.priceRange).toEqual({
      min: Math.min(...visible.map(pays)),
      max: Math.max(...visible.map(pays)),
    });
  });
});

describe('search longer than one page', () => {
  const search = (text: string, change: Partial<ListView> = {}) =>
    allPages({ kind: 'search', text }, change).then((pages) => pages.flatMap((page) => links(page.products)));

  it('finds every match across the pages, equally ranked ones in product order', async () => {
    expect(await search('lantern')).toEqual(expectedOrder.default(visible).map(linkOf));
    expect(await search('lantern', { sort: 'asc' })).toEqual(expectedOrder.asc(visible).map(linkOf));
  });

  it('corrects a misspelt word to a word of the product names, in both languages', async () => {
    expect(await search('lantrn')).toHaveLength(visible.length);
    expect(await search('фонрь')).toHaveLength(visible.length);
    expect(await search('zzqqxx')).toEqual([]);
  });

  it('learns the words of a renamed product', async () => {
    await db.update(products).set({ nameEn: 'Lantern Zeppelin' }).where(eq(products.link, 'lantern-7'));
    expect(await search('zepelin')).toEqual(['lantern-7']);
    await db.update(products).set({ nameEn: 'Lantern 7' }).where(eq(products.link, 'lantern-7'));
  });
});

describe('every product as one list', () => {
  const everything: ListScope = { kind: 'all' };

  it('pages every visible product in product order, sorted and filtered like the other lists', async () => {
    const plain = await allPages(everything);
    expect(plain.flatMap((page) => links(page.products))).toEqual(expectedOrder.default(visible).map(linkOf));
    expect(plain[0]?.paging?.total).toBe(visible.length);
    const cheapFirst = await allPages(everything, { sort: 'asc', projectIds: [ids.harbour] });
    expect(cheapFirst.flatMap((page) => links(page.products))).toEqual(
      expectedOrder.asc(visible.filter((lantern) => lantern.harbour)).map(linkOf),
    );
    const giftsInStock = await allPages(everything, { available: true, categoryIds: [ids.gifts] });
    expect(giftsInStock.flatMap((page) => links(page.products))).toEqual(
      expectedOrder.available(visible.filter((lantern) => lantern.gifts)).map(linkOf),
    );
    expect(plain[0]?.counts.categories[ids.gifts]).toBe(visible.filter((lantern) => lantern.gifts).length);
  });
});

describe('pictures of categories and products by id', () => {
  const idOfLantern = async (n: number) => {
    const [row] = await db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.link, `lantern-${n}`));
    if (!row) throw new Error(`no lantern ${n}`);
    return row.id;
  };

  it('pictures each visible category by the first image of its first visible product with images', async () => {
    const [candles] = await db
      .insert(categories)
      .values({ link: 'candles', nameRu: 'Свечи', nameEn: 'Candles', position: 4 })
      .returning();
    if (!candles) throw new Error('fixture insert failed');
    const [second, fourth, hidden] = await Promise.all([idOfLantern(2), idOfLantern(4), idOfLantern(HIDDEN)]);
    await db.insert(productCategories).values({ productId: hidden, categoryId: candles.id });
    await db.insert(productImages).values([
      { productId: second, file: 'second-back.webp', position: 1 },
      { productId: second, file: 'second-front.webp', position: 0 },
      { productId: fourth, file: 'fourth.webp', position: 0 },
      { productId: hidden, file: 'hidden.webp', position: 0 },
    ]);
    // Lantern 1 has no image, lantern 2 is the first in lamps with one; gifts start at lantern 4;
    // candles hold only a hidden product, the archive is a hidden category.
    expect(await listCategoryPictures(db)).toEqual({
      [ids.lamps]: 'second-front.webp',
      [ids.gifts]: 'fourth.webp',
    });
  });

  it('answers the visible ones of the products asked for, in the order asked', async () => {
    const [third, ninth, hidden] = await Promise.all([idOfLantern(3), idOfLantern(9), idOfLantern(HIDDEN)]);
    const cards = await cardsInOrder(db, 'ru', [ninth, hidden, 999_999, third]);
    expect(cards.map((card) => [card.link, card.name])).toEqual([
      ['lantern-9', 'Фонарь 9'],
      ['lantern-3', 'Фонарь 3'],
    ]);
  });

  it("carries each card's stars: the visible reviews' average to one decimal and their count", async () => {
    const [fifth, sixth] = await Promise.all([idOfLantern(5), idOfLantern(6)]);
    const authors = await db
      .insert(users)
      .values(['a', 'b', 'c'].map((name) => ({ email: `${name}@lanterns.test`, passwordHash: 'x' })))
      .returning({ id: users.id });
    await db.insert(reviews).values([
      { productId: fifth, userId: authors[0]?.id ?? 0, rating: 5, body: 'Bright' },
      { productId: fifth, userId: authors[1]?.id ?? 0, rating: 4, body: 'Good' },
      { productId: fifth, userId: authors[2]?.id ?? 0, rating: 4, body: 'Fine' },
      { productId: sixth, userId: authors[0]?.id ?? 0, rating: 1, body: 'Hidden', hidden: true },
    ]);
    const cards = await cardsInOrder(db, 'en', [fifth, sixth]);
    expect(cards.map((card) => card.rating)).toEqual([
      { average: 4.3, count: 3 },
      { average: null, count: 0 },
    ]);
  });
});
