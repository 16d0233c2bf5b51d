import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket } from '../cart/service.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { setStock } from '../testing/stock.ts';
import { createServices } from './services.ts';

/**
 * No route and no action here: the bound write alone must drop the cached answers that showed what
 * it changed (ADR 0071), so a new caller of a write cannot forget the caches.
 */
describe('a catalogue or stock write applies its own change', () => {
  let connection: DatabaseConnection;
  let services: ReturnType<typeof createServices>;
  let dataDirectory: string;
  let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
  beforeAll(async () => {
    connection = await createTestDatabase();
    fixtures = await insertCatalogue(connection.db);
    dataDirectory = mkdtempSync(path.join(os.tmpdir(), 'vitrina-data-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDirectory });
    services = createServices({ db: connection.db, config, usdRate: () => 90 });
  });
  afterAll(async () => {
    await services.close();
    await connection.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  const product = async (link: string) => (await services.catalog.product('en', link)).value.product;

  it('shows the stock an order took at once, though nobody told the catalogue', async () => {
    await setStock(connection.db, fixtures.id('wolf-mug'), 5);
    expect((await product('wolf-mug')).inStock).toBe(5);
    const buyer = await newShopper(connection.db);
    await addToBasket(connection.db, { userId: buyer.id }, fixtures.id('wolf-mug'));
    await services.writes.createOrder(buyer.id, orderInput({ email: buyer.email }), {
      deliveryCost: 350_00,
      usdRate: 90,
      expiresMinutes: 10,
    });
    expect((await product('wolf-mug')).inStock).toBe(4);
  });

  it("shows a new review in the product's rating at once", async () => {
    const before = await product('wolf-shirt');
    const author = await newShopper(connection.db);
    await services.writes.addReview(author.id, {
      product: fixtures.id('wolf-shirt'),
      rating: 5,
      body: 'Warm and well sewn.',
    });
    expect((await product('wolf-shirt')).rating.count).toBe(before.rating.count + 1);
  });
});
