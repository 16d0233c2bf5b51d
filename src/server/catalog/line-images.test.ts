import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToBasket, getBasket } from '../cart/service.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { productImages, products } from '../db/schema.ts';
import { createOrder, getOrder } from '../orders/service.ts';
import { getOrderForAdmin } from '../orders/staff-orders.ts';
import { insertCatalogue } from '../testing/catalog-fixtures.ts';
import { createTestDatabase } from '../testing/database.ts';
import { newShopper, orderInput } from '../testing/orders.ts';
import { giveProductOptions, SIZES } from '../testing/variants.ts';

/**
 * The chosen colour's picture wherever a line of a basket or order shows one: the grey hoodie shows
 * grey in the cart, the order page, the history and the back office; a variant whose colour has no
 * picture of its own shows the product's first.
 */
let connection: DatabaseConnection;
let hoodie: Awaited<ReturnType<typeof giveProductOptions>>;
let hoodieId: number;
beforeAll(async () => {
  connection = await createTestDatabase();
  const { projects } = await insertCatalogue(connection.db);
  const [product] = await connection.db
    .insert(products)
    .values({
      projectId: projects.witcher.id,
      link: 'two-colour-hoodie',
      nameRu: 'Худи в двух цветах',
      nameEn: 'Two-colour hoodie',
      price: 5_990_00,
      weight: 600,
    })
    .returning({ id: products.id });
  if (!product) throw new Error('fixture insert failed');
  hoodieId = product.id;
  // The black photos come first, as the product's cover; grey's follow; the sand colour has none.
  await connection.db.insert(productImages).values(
    ['black-front.webp', 'black-back.webp', 'grey-front.webp', 'grey-back.webp'].map((file, position) => ({
      productId: hoodieId,
      file,
      position,
    })),
  );
  hoodie = await giveProductOptions(connection.db, hoodieId, {
    options: [
      { ...SIZES, values: [{ ru: 'M', en: 'M' }] },
      {
        kind: 'colour',
        nameRu: 'Цвет',
        nameEn: 'Colour',
        values: [
          { ru: 'Чёрный', en: 'Black' },
          { ru: 'Серый', en: 'Grey' },
          { ru: 'Песочный', en: 'Sand' },
        ],
      },
    ],
    variants: [
      { values: ['M', 'Black'], quantity: 5 },
      { values: ['M', 'Grey'], quantity: 5 },
      { values: ['M', 'Sand'], quantity: 5 },
    ],
    pictures: {
      'black-front.webp': 'Black',
      'black-back.webp': 'Black',
      'grey-front.webp': 'Grey',
      'grey-back.webp': 'Grey',
    },
  });
});
afterAll(() => connection.close());

const context = { deliveryCost: 350_00, usdRate: 90, expiresMinutes: 60 };

describe('the picture of a line', () => {
  it('shows the grey hoodie grey in the cart, black the black one, and the cover for a colour without photos', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    for (const colour of ['Grey', 'Black', 'Sand'])
      await addToBasket(db, { userId }, hoodieId, hoodie.variantOf('M', colour).id);
    const basket = await getBasket(db, { userId }, 'en');
    const imageOf = (colour: string) =>
      basket.products[`${hoodieId}:${hoodie.variantOf('M', colour).id}`]?.image;
    expect(imageOf('Grey')).toBe('grey-front.webp');
    expect(imageOf('Black')).toBe('black-front.webp');
    expect(imageOf('Sand')).toBe('black-front.webp');
  });

  it('keeps the ordered colour on the order page, in the history and in the back office', async () => {
    const { db } = connection;
    const { id: userId } = await newShopper(db);
    await addToBasket(db, { userId }, hoodieId, hoodie.variantOf('M', 'Grey').id);
    const placed = await createOrder(db, userId, orderInput(), context);

    const order = await getOrder(db, userId, placed.id, 'ru');
    expect(order.products.map((line) => [line.options, line.image])).toEqual([
      ['Размер: M, Цвет: Серый', 'grey-front.webp'],
    ]);
    const admin = await getOrderForAdmin(db, placed.id, 'en');
    expect(admin.products.map((line) => [line.options, line.image])).toEqual([
      ['Size: M, Colour: Grey', 'grey-front.webp'],
    ]);
  });
});
