import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../db/client.ts';
import { mails, products } from '../db/schema.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper } from '../testing/orders.ts';
import {
  askForReleaseReminder,
  forgetReleaseReminder,
  hasReleaseReminder,
  sendReleaseReminders,
} from './release-reminders.ts';

/** "Remind me" (ADR 0041): kept for announced products, mailed once at the release. */
let connection: DatabaseConnection;
let fixtures: Awaited<ReturnType<typeof insertCatalogue>>;
const shop = { email: 'shop@vitrina.example', url: 'https://shop.example' };
let links = 0;

beforeAll(async () => {
  connection = await createTestDatabase();
  fixtures = await insertCatalogue(connection.db);
});
afterAll(() => connection.close());

async function announced(releaseAt: Date) {
  const [product] = await connection.db
    .insert(products)
    .values({
      projectId: fixtures.projects.witcher.id,
      link: `announced-${++links}`,
      nameRu: `Анонс ${links}`,
      nameEn: `Announced ${links}`,
      price: 1_000_00,
      quantity: 5,
      releaseAt,
    })
    .returning({ id: products.id, link: products.link });
  if (!product) throw new Error('fixture insert failed');
  return product;
}

const remindersTo = async (to: string) => connection.db.select().from(mails).where(eq(mails.to, to));

describe('release reminders', () => {
  it('keeps a reminder once however often it is asked for, and forgets it on request', async () => {
    const { db } = connection;
    const now = new Date();
    const product = await announced(new Date(now.getTime() + 3600_000));
    const user = await newShopper(db);
    await askForReleaseReminder(db, user.id, { productId: product.id, locale: 'ru' }, now);
    await askForReleaseReminder(db, user.id, { productId: product.id, locale: 'en' }, now);
    expect(await hasReleaseReminder(db, user.id, product.id)).toBe(true);
    await forgetReleaseReminder(db, user.id, product.id);
    await forgetReleaseReminder(db, user.id, product.id);
    expect(await hasReleaseReminder(db, user.id, product.id)).toBe(false);
  });

  it('refuses a reminder of a released product (409) and of a hidden one (404)', async () => {
    const { db } = connection;
    const now = new Date();
    const user = await newShopper(db);
    const released = await announced(new Date(now.getTime() - 1000));
    await expect(
      askForReleaseReminder(db, user.id, { productId: released.id, locale: 'en' }, now),
    ).rejects.toMatchObject({ status: 409, message: 'product-already-released' });
    await expect(
      askForReleaseReminder(db, user.id, { productId: fixtures.id('hidden-mug'), locale: 'en' }, now),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('mails nothing before the release, then each reminder once in its language, with the product link', async () => {
    const { db } = connection;
    const releaseAt = new Date(Date.now() + 3600_000);
    const product = await announced(releaseAt);
    const [anna, boris] = [await newShopper(db), await newShopper(db)];
    await askForReleaseReminder(db, anna.id, { productId: product.id, locale: 'ru' }, new Date());
    await askForReleaseReminder(db, boris.id, { productId: product.id, locale: 'en' }, new Date());

    expect(await sendReleaseReminders(db, new Date(releaseAt.getTime() - 1), shop)).toBe(0);
    expect(await remindersTo(anna.email)).toEqual([]);

    const after = new Date(releaseAt.getTime() + 1000);
    expect(await sendReleaseReminders(db, after, shop)).toBe(2);
    expect(await sendReleaseReminders(db, after, shop)).toBe(0);
    const [toAnna] = await remindersTo(anna.email);
    const [toBoris] = await remindersTo(boris.email);
    expect(toAnna).toMatchObject({ template: 'release-reminder', locale: 'ru' });
    expect(toAnna?.subject).toContain(`Анонс ${links}`);
    expect(toBoris?.subject).toBe(`On sale now: Announced ${links}`);
    expect(toBoris?.text).toContain(`https://shop.example/product/${product.link}?lang=en`);
    expect(await hasReleaseReminder(db, anna.id, product.id)).toBe(false);
  });

  it('mails each reminder exactly once when two runs claim at the same moment', async () => {
    const { db } = connection;
    const releaseAt = new Date(Date.now() + 3600_000);
    const product = await announced(releaseAt);
    const shoppers = await Promise.all(Array.from({ length: 6 }, () => newShopper(db)));
    for (const shopper of shoppers)
      await askForReleaseReminder(db, shopper.id, { productId: product.id, locale: 'en' }, new Date());
    const after = new Date(releaseAt.getTime() + 1000);
    const [first, second] = await Promise.all([
      sendReleaseReminders(db, after, shop),
      sendReleaseReminders(db, after, shop),
    ]);
    expect((first ?? 0) + (second ?? 0)).toBe(6);
    for (const shopper of shoppers) expect(await remindersTo(shopper.email)).toHaveLength(1);
  });

  it('waits while the product is hidden at its release time, and mails once it is shown', async () => {
    const { db } = connection;
    const releaseAt = new Date(Date.now() + 3600_000);
    const product = await announced(releaseAt);
    const user = await newShopper(db);
    await askForReleaseReminder(db, user.id, { productId: product.id, locale: 'en' }, new Date());
    await db.update(products).set({ visible: false }).where(eq(products.id, product.id));
    const after = new Date(releaseAt.getTime() + 1000);
    expect(await sendReleaseReminders(db, after, shop)).toBe(0);
    await db.update(products).set({ visible: true }).where(eq(products.id, product.id));
    expect(await sendReleaseReminders(db, after, shop)).toBe(1);
  });
});
