import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../accounts/passwords.ts';
import type { DatabaseConnection } from '../db/client.ts';
import {
  categories,
  exchangeRates,
  partners,
  productCategories,
  productImages,
  productOptions,
  productOptionValues,
  products,
  productVariants,
  productVariantValues,
  projects,
  users,
} from '../db/schema.ts';
import { IMAGE_WIDTHS } from '../files/images.ts';
import { createLocalStorage } from '../files/local-storage.ts';
import { createTestDatabase } from '../testing/database.ts';
import { seedDemoData } from './seed.ts';

let connection: DatabaseConnection;
const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'vitrina-seed-'));
const storage = createLocalStorage(uploadsDir);
const logged: string[] = [];

beforeAll(async () => {
  connection = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await connection?.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const rowsIn = async (table: typeof projects | typeof products | typeof productImages) =>
  (await connection.db.select({ value: count() }).from(table))[0]?.value ?? 0;

describe('seedDemoData', () => {
  it('fills an empty shop with a catalogue that looks like a real merch shop', {
    timeout: 120_000,
  }, async () => {
    const result = await seedDemoData(connection.db, {
      storage,
      admin: {},
      log: (line) => logged.push(line),
    });
    expect(result.seeded).toBe(true);
    const { db } = connection;

    const projectRows = await db.select().from(projects);
    expect(projectRows.length).toBeGreaterThanOrEqual(3);
    expect(await db.select().from(categories)).toHaveLength(6);

    const productRows = await db.select().from(products);
    expect(productRows.length).toBeGreaterThanOrEqual(40);
    expect(productRows.some((product) => product.sale !== null)).toBe(true);
    expect(productRows.every((product) => product.sale === null || product.sale < product.price)).toBe(true);
    expect(productRows.some((product) => product.quantity === 0 && !product.envisioned)).toBe(true);
    const envisioned = productRows.filter((product) => product.envisioned);
    expect(envisioned.length).toBeGreaterThanOrEqual(3);
    expect(envisioned.every((product) => product.quantity === 0)).toBe(true);
    const weekSale = productRows.filter((product) => product.weekSale).length;
    expect(weekSale).toBeGreaterThanOrEqual(6);
    expect(weekSale).toBeLessThanOrEqual(10);
    expect(productRows.every((product) => product.descriptionRu.startsWith('<p>'))).toBe(true);
    expect(productRows.every((product) => product.descriptionEn.startsWith('<p>'))).toBe(true);

    const images = await db.select().from(productImages);
    const links = await db.select().from(productCategories);
    for (const product of productRows) {
      const own = images.filter((image) => image.productId === product.id);
      expect(own.length, product.link).toBeGreaterThanOrEqual(1);
      expect(own.length, product.link).toBeLessThanOrEqual(4);
      expect(new Set(own.map((image) => image.position)).size).toBe(own.length);
      expect(
        links.filter((link) => link.productId === product.id).length,
        product.link,
      ).toBeGreaterThanOrEqual(1);
    }

    const partnerRows = await db.select().from(partners);
    expect(partnerRows.length).toBeGreaterThanOrEqual(4);
    const socialTypes = partnerRows.flatMap((partner) => partner.socials.map((social) => social.type));
    expect(socialTypes).toContain('vk');
    expect(
      socialTypes.some(
        (type) => !['vk', 'twitter', 'steam', 'youtube', 'instagram', 'facebook'].includes(type),
      ),
    ).toBe(true);

    const rates = await db.select().from(exchangeRates);
    expect(rates).toHaveLength(1);
    expect(rates[0]).toMatchObject({ currency: 'USD', rate: '92.5000', source: 'seed' });
  });

  it('gives the sized categories a size guide in both languages, and no text asks for the size in a comment', async () => {
    const { db } = connection;
    const guides = await db
      .select({ link: categories.link, ru: categories.sizeGuideRu, en: categories.sizeGuideEn })
      .from(categories)
      .where(inArray(categories.link, ['t-shirts', 'hoodies']));
    expect(guides).toHaveLength(2);
    for (const guide of guides) {
      for (const size of ['XS', 'S', 'M', 'L', 'XL', 'XXL']) {
        expect(guide.ru, guide.link).toContain(`<th scope="row">${size}</th>`);
        expect(guide.en, guide.link).toContain(`<th scope="row">${size}</th>`);
      }
      expect(guide.ru).toContain('Грудь, см');
      expect(guide.en).toContain('Chest, cm');
    }
    const texts = await db
      .select({ link: products.link, ru: products.descriptionRu, en: products.descriptionEn })
      .from(products);
    for (const text of texts) {
      expect(text.ru, text.link).not.toMatch(/коммент/i);
      expect(text.en, text.link).not.toMatch(/comment/i);
      expect(`${text.ru} ${text.en}`, text.link).not.toContain('3XL');
    }
  });

  it('gives T-shirts and hoodies sizes XS–XXL with uneven stock, and one product colours with their own pictures', async () => {
    const { db } = connection;
    const clothes = await db
      .selectDistinct({ id: products.id, link: products.link, quantity: products.quantity })
      .from(products)
      .innerJoin(productCategories, eq(productCategories.productId, products.id))
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(and(inArray(categories.link, ['t-shirts', 'hoodies']), eq(products.envisioned, false)));
    expect(clothes.length).toBeGreaterThanOrEqual(8);
    const sizeRows = await db
      .select({
        productId: productVariants.productId,
        size: productOptionValues.valueEn,
        quantity: productVariants.quantity,
      })
      .from(productVariants)
      .innerJoin(productVariantValues, eq(productVariantValues.variantId, productVariants.id))
      .innerJoin(productOptionValues, eq(productOptionValues.id, productVariantValues.optionValueId))
      .innerJoin(productOptions, eq(productOptions.id, productOptionValues.optionId))
      .where(eq(productOptions.kind, 'size'));
    for (const product of clothes) {
      const sizes = sizeRows.filter((row) => row.productId === product.id);
      expect([...new Set(sizes.map((row) => row.size))], product.link).toEqual([
        'XS',
        'S',
        'M',
        'L',
        'XL',
        'XXL',
      ]);
      // The product's stock is the sum of its sizes'.
      expect(
        sizes.reduce((sum, row) => sum + row.quantity, 0),
        product.link,
      ).toBe(product.quantity);
    }
    const inStock = clothes.filter((product) => product.quantity > 0);
    for (const product of inStock) {
      const sizes = sizeRows.filter((row) => row.productId === product.id);
      expect(
        sizes.some((row) => row.quantity === 0),
        product.link,
      ).toBe(true);
      expect(new Set(sizes.map((row) => row.quantity)).size, product.link).toBeGreaterThan(2);
    }

    const colours = await db
      .select({
        productId: productOptions.productId,
        valueId: productOptionValues.id,
        swatch: productOptionValues.swatch,
      })
      .from(productOptionValues)
      .innerJoin(productOptions, eq(productOptions.id, productOptionValues.optionId))
      .where(eq(productOptions.kind, 'colour'));
    expect(colours.length).toBeGreaterThanOrEqual(2);
    const pictures = await db
      .select({ valueId: productImages.optionValueId, file: productImages.file })
      .from(productImages)
      .where(
        inArray(
          productImages.optionValueId,
          colours.map((colour) => colour.valueId),
        ),
      );
    for (const colour of colours) {
      expect(colour.swatch).toMatch(/^#[0-9a-f]{6}$/);
      expect(pictures.filter((picture) => picture.valueId === colour.valueId).length).toBeGreaterThanOrEqual(
        1,
      );
    }
  });

  it('stores every picture with its resized variants', async () => {
    const { db } = connection;
    const files = [
      ...(await db.select({ file: productImages.file }).from(productImages)).map(({ file }) => [
        'products',
        file,
      ]),
      ...(await db.select({ file: projects.image }).from(projects)).map(({ file }) => ['projects', file]),
      ...(await db.select({ file: partners.image }).from(partners)).map(({ file }) => ['partners', file]),
    ] as Array<[string, string | null]>;
    for (const [folder, file] of files) {
      expect(file).toMatch(/^[0-9a-f]{16}\.webp$/);
      expect(existsSync(path.join(uploadsDir, 'img', folder, file ?? ''))).toBe(true);
      for (const width of IMAGE_WIDTHS) {
        expect(existsSync(path.join(uploadsDir, 'img', folder, String(width), file ?? ''))).toBe(true);
      }
    }
    // The gallery of a product shows different pictures, not one picture several times.
    const images = await db.select().from(productImages);
    for (const productId of new Set(images.map((image) => image.productId))) {
      const own = images.filter((image) => image.productId === productId);
      expect(new Set(own.map((image) => image.file)).size).toBe(own.length);
    }
  });

  it('creates one verified admin and shows the generated password once', async () => {
    const admins = await connection.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
    const [admin] = admins;
    expect(admin?.email).toBe('admin@vitrina.example');
    expect(admin?.emailVerifiedAt).not.toBeNull();
    expect(admin?.locale).toBe('ru');

    const announcements = logged.filter((line) => line.startsWith('Admin account created'));
    expect(announcements).toHaveLength(1);
    const password = /admin@vitrina\.example \/ (\S{16}) /.exec(announcements[0] ?? '')?.[1];
    expect(password).toBeDefined();
    expect(await verifyPassword(admin?.passwordHash ?? '', password ?? '')).toBe(true);
  });

  it('seeds nothing when the shop already has a catalogue', async () => {
    const before = [await rowsIn(projects), await rowsIn(products), await rowsIn(productImages)];
    const result = await seedDemoData(connection.db, {
      storage,
      admin: {},
      log: (line) => logged.push(line),
    });
    expect(result.seeded).toBe(false);
    expect([await rowsIn(projects), await rowsIn(products), await rowsIn(productImages)]).toEqual(before);
    expect(await connection.db.select().from(users)).toHaveLength(1);
    expect(logged.filter((line) => line.startsWith('Admin account created'))).toHaveLength(1);
  });
});

describe('seedDemoData with a chosen admin', () => {
  it('uses the configured e-mail and password and prints no password', { timeout: 120_000 }, async () => {
    const other = await createTestDatabase();
    const lines: string[] = [];
    try {
      await seedDemoData(other.db, {
        storage,
        admin: { email: 'owner@shop.example', password: 'a long chosen password' },
        log: (line) => lines.push(line),
      });
      const [admin] = await other.db.select().from(users);
      expect(admin?.email).toBe('owner@shop.example');
      expect(await verifyPassword(admin?.passwordHash ?? '', 'a long chosen password')).toBe(true);
      expect(lines.join('\n')).not.toContain('a long chosen password');
    } finally {
      await other.close();
    }
  });
});
