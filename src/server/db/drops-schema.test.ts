import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.ts';
import type { Database, DatabaseConnection } from './client.ts';
import { drops, products, projects } from './schema.ts';

/** Migration 0009 (ADR 0041): a product in a drop always has the drop's release time. */
let connection: DatabaseConnection;
let db: Database;
let projectId: number;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
  const [project] = await db.insert(projects).values({ link: 'p', nameRu: 'П', nameEn: 'P' }).returning();
  if (!project) throw new Error('fixture insert failed');
  projectId = project.id;
});
afterAll(() => connection.close());

const releaseOf = async (id: number) =>
  (await db.select({ releaseAt: products.releaseAt }).from(products).where(eq(products.id, id)))[0]
    ?.releaseAt;

describe('drops and release times', () => {
  it('gives a product the release time of the drop it joins, and moves it with the drop', async () => {
    const first = new Date('2026-12-01T12:00:00Z');
    const [drop] = await db
      .insert(drops)
      .values({ nameRu: 'Дроп', nameEn: 'Drop', releaseAt: first })
      .returning();
    if (!drop) throw new Error('fixture insert failed');
    const [joined] = await db
      .insert(products)
      .values({ projectId, link: 'joined', nameRu: 'А', nameEn: 'A', price: 100, dropId: drop.id })
      .returning();
    const [later] = await db
      .insert(products)
      .values({
        projectId,
        link: 'later',
        nameRu: 'Б',
        nameEn: 'B',
        price: 100,
        releaseAt: new Date('2027-01-01'),
      })
      .returning();
    if (!joined || !later) throw new Error('fixture insert failed');
    expect(await releaseOf(joined.id)).toEqual(first);

    await db.update(products).set({ dropId: drop.id }).where(eq(products.id, later.id));
    expect(await releaseOf(later.id)).toEqual(first);

    const moved = new Date('2026-12-02T18:30:00Z');
    await db.update(drops).set({ releaseAt: moved }).where(eq(drops.id, drop.id));
    expect(await releaseOf(joined.id)).toEqual(moved);
    expect(await releaseOf(later.id)).toEqual(moved);

    // A product's own time cannot differ from its drop's; leaving the drop keeps the time it had.
    await db.update(products).set({ releaseAt: null }).where(eq(products.id, joined.id));
    expect(await releaseOf(joined.id)).toEqual(moved);
    await db.update(products).set({ dropId: null }).where(eq(products.id, joined.id));
    expect(await releaseOf(joined.id)).toEqual(moved);
    await db.delete(drops).where(eq(drops.id, drop.id));
    expect(await releaseOf(later.id)).toEqual(moved);
  });

  it('refuses a hold outside 1..1440 minutes and limits below one', async () => {
    const releaseAt = new Date();
    await expect(
      db.insert(drops).values({ nameRu: 'x', nameEn: 'x', releaseAt, holdMinutes: 0 }),
    ).rejects.toThrow();
    await expect(
      db.insert(drops).values({ nameRu: 'x', nameEn: 'x', releaseAt, perCustomerLimit: 0 }),
    ).rejects.toThrow();
    await expect(
      db
        .insert(products)
        .values({ projectId, link: 'zero', nameRu: 'x', nameEn: 'x', price: 1, perCustomerLimit: 0 }),
    ).rejects.toThrow();
  });
});
