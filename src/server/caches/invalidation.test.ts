import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { products } from '../db/schema.ts';
import { createServices } from '../requests/services.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { redisProblem, TEST_REDIS_URL } from '../testing/redis.ts';
import { temporaryFolder } from '../testing/temporary-folder.ts';
import type { CatalogChange } from './changes.ts';
import { type CatalogInvalidation, redisInvalidation } from './invalidation.ts';

const REDIS_URL = TEST_REDIS_URL;
const reachable = (await redisProblem()) === null;

/** Waits for what Redis carries to have happened (checked every 10 ms, for up to 3 s). */
const until = (condition: () => boolean | Promise<boolean>) =>
  vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error('condition not met in time');
    },
    { timeout: 3000, interval: 10 },
  );

describe.skipIf(!reachable)('catalogue invalidation through Redis (two instances)', () => {
  const clients: Redis[] = [];
  const channels: CatalogInvalidation[] = [];
  const client = () => {
    const redis = new Redis(REDIS_URL);
    clients.push(redis);
    return redis;
  };
  afterEach(async () => {
    for (const channel of channels.splice(0)) await channel.close();
    for (const redis of clients.splice(0)) redis.disconnect();
  });

  it('tells the other instance, not the sender, and only keeps while it listens', async () => {
    const channel = `vitrina:test:${randomUUID()}`;
    const heard: { a: CatalogChange[]; b: CatalogChange[] } = { a: [], b: [] };
    const a = redisInvalidation({
      redis: client(),
      channel,
      onRemoteChange: (change) => heard.a.push(change),
    });
    const b = redisInvalidation({
      redis: client(),
      channel,
      onRemoteChange: (change) => heard.b.push(change),
    });
    channels.push(a, b);
    expect(b.canKeep()).toBe(false);
    await until(() => a.canKeep() && b.canKeep());
    const before = { a: heard.a.length, b: heard.b.length };
    await a.publish({ keys: ['product:7', 'category:shirts'], stockOnly: true });
    await until(() => heard.b.length === before.b + 1);
    expect(heard.b.at(-1)).toEqual({ keys: ['product:7', 'category:shirts'], stockOnly: true });
    expect(heard.a).toHaveLength(before.a);
  });

  it('stops keeping when its subscription drops and clears again once back', async () => {
    const channel = `vitrina:test:${randomUUID()}`;
    let heard = 0;
    const listener = redisInvalidation({ redis: client(), channel, onRemoteChange: () => heard++ });
    channels.push(listener);
    await until(() => listener.canKeep());
    const admin = client();
    const list = (await admin.client('LIST')) as string;
    const subscriber = list.split('\n').find((line) => line.includes(`name=${channel}#subscriber`));
    const id = subscriber?.match(/\bid=(\d+)/)?.[1];
    expect(id).toBeDefined();
    const before = heard;
    await admin.client('KILL', 'ID', id as string);
    await until(() => !listener.canKeep());
    expect(heard).toBeGreaterThan(before);
    await until(() => listener.canKeep());
  });

  describe('through the services of two instances on one database', () => {
    let connection: DatabaseConnection;
    beforeAll(async () => {
      connection = await createTestDatabase();
      await insertCatalogue(connection.db);
    });
    const dataDir = temporaryFolder('data');
    afterAll(async () => {
      await connection.close();
      dataDir.remove();
    });

    it('shows a price changed on one instance on the other at once', async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir.path,
      });
      const instance = () => {
        const services = createServices({ db: connection.db, config, usdRate: () => 90, redis: client() });
        channels.push({ publish: async () => {}, canKeep: () => true, close: services.close });
        return services;
      };
      const [a, b] = [instance(), instance()];
      await until(() => a.catalog.canKeep() && b.catalog.canKeep());
      const price = async () => (await b.catalog.product('en', 'wolf-shirt')).value.product.price;
      const before = await price();
      await connection.db.update(products).set({ price: 7777_00 }).where(eq(products.link, 'wolf-shirt'));
      // B keeps its answer: without a message it would go on showing the old price.
      expect(await price()).toBe(before);
      await a.catalog.invalidate();
      await until(async () => (await price()) === 7777);
    });

    it("drops on the other instance only what a change names: a product's answer and its lists", async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir.path,
      });
      const instance = () => {
        const services = createServices({ db: connection.db, config, usdRate: () => 90, redis: client() });
        channels.push({ publish: async () => {}, canKeep: () => true, close: services.close });
        return services;
      };
      const [a, b] = [instance(), instance()];
      await until(() => a.catalog.canKeep() && b.catalog.canKeep());
      const shirt = async () => (await b.catalog.product('en', 'wolf-shirt')).value.product;
      const cap = async () => (await b.catalog.product('en', 'outlaw-statue')).value.product;
      const shirtsList = async () => (await b.catalog.category('en', 't-shirts')).value.products;
      const [shirtId, capBefore] = [(await shirt()).id, await cap()];
      await shirtsList();
      await connection.db.update(products).set({ price: 5555_00 }).where(eq(products.link, 'wolf-shirt'));
      await connection.db.update(products).set({ price: 4444_00 }).where(eq(products.link, 'outlaw-statue'));
      await a.catalog.productsChanged([shirtId]);
      await until(async () => (await shirt()).price === 5555);
      expect((await shirtsList()).find((card) => card.id === shirtId)?.price).toBe(5555);
      // The cap was not named: B goes on answering what it kept.
      expect((await cap()).price).toBe(capBefore.price);
    });
  });
});
