import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHOLE_LIST } from '../../contract/shop.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { products, productVariants } from '../db/schema.ts';
import { createServices } from '../requests/services.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { temporaryFolder } from '../testing/temporary-folder.ts';

/**
 * Writes straight to the database stand for the orders and staff edits; the catalogue only learns
 * of them through the change it is told, so an answer that still shows the old value was kept.
 */
describe('catalogue answers dropped by what changed (ADR 0042)', () => {
  let connection: DatabaseConnection;
  let services: ReturnType<typeof createServices>;
  let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
  const dataDir = temporaryFolder('data');
  beforeAll(async () => {
    connection = await createTestDatabase();
    fixtures = await insertCatalogue(connection.db);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir.path,
    });
    services = createServices({ db: connection.db, config, usdRate: () => 90 });
  });
  afterAll(async () => {
    await services.close();
    await connection.close();
    dataDir.remove();
  });

  const product = async (link: string) => (await services.catalog.product('en', link)).value.product;
  const setPrice = (link: string, kopecks: number) =>
    connection.db.update(products).set({ price: kopecks }).where(eq(products.link, link));

  it("keeps product B's answer when product A's stock moves, and shows A's new stock at once", async () => {
    const shirt = await product('wolf-shirt');
    const statue = await product('outlaw-statue');
    await setPrice('outlaw-statue', 9191_00);
    await connection.db
      .update(productVariants)
      .set({ quantity: 7 })
      .where(eq(productVariants.productId, fixtures.id('wolf-shirt')));
    await services.catalog.stockChanged([shirt.id]);
    expect((await product('wolf-shirt')).inStock).toBe(7);
    expect((await product('outlaw-statue')).price).toBe(statue.price);
  });

  it('drops every list holding a product whose price changed, and keeps the lists without it', async () => {
    const shirts = async () => (await services.catalog.category('en', 't-shirts')).value.products;
    const project = async () => (await services.catalog.project('en', 'northwind')).value.products;
    const everything = async () =>
      (await services.catalog.all('en', { ...WHOLE_LIST, page: 1 })).value.products;
    const mugs = async () => (await services.catalog.category('en', 'mugs')).value.products;
    const priceIn = async (list: () => Promise<Array<{ id: number; price: number }>>, id: number) =>
      (await list()).find((card) => card.id === id)?.price;
    const id = fixtures.id('wolf-shirt');
    const mugsBefore = await mugs();
    await Promise.all([shirts(), project(), everything()]);
    await setPrice('wolf-shirt', 6262_00);
    await setPrice('wolf-mug', 6363_00);
    await services.catalog.productsChanged([id]);
    expect(await priceIn(shirts, id)).toBe(6262);
    expect(await priceIn(project, id)).toBe(6262);
    expect(await priceIn(everything, id)).toBe(6262);
    // The mugs list does not hold the shirt: it is still the kept answer.
    expect(await mugs()).toEqual(mugsBefore);
  });

  it("drops a product's old and new lists when it moves to another project", async () => {
    const list = async (link: string) => (await services.catalog.project('en', link)).value.products;
    const id = fixtures.id('outlaw-shirt');
    expect((await list('pixel-outlaws')).some((card) => card.id === id)).toBe(true);
    expect((await list('northwind')).some((card) => card.id === id)).toBe(false);
    const before = await services.catalog.productKeys([id]);
    await connection.db
      .update(products)
      .set({ projectId: fixtures.projects.witcher.id })
      .where(eq(products.id, id));
    await services.catalog.productsChanged([id], before);
    expect((await list('pixel-outlaws')).some((card) => card.id === id)).toBe(false);
    expect((await list('northwind')).some((card) => card.id === id)).toBe(true);
  });
});
