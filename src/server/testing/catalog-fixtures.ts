import { recordOpeningStock } from '../catalog/stock.ts';
import type { Executor } from '../db/client.ts';
import { categories, productCategories, productImages, products, projects } from '../db/schema.ts';

/**
 * A small catalogue with every visibility case the rules care about: a hidden project, a hidden
 * category, a hidden product, sale, out-of-stock and envisioned items.
 */
export async function insertCatalogue(db: Executor) {
  const [witcher, cyber, secret] = await db
    .insert(projects)
    .values([
      { link: 'northwind', nameRu: 'Северный ветер', nameEn: 'Northwind', position: 1 },
      { link: 'pixel-outlaws', nameRu: 'Пиксельные бандиты', nameEn: 'Pixel Outlaws', position: 2 },
      {
        link: 'secret-project',
        nameRu: 'Секретный проект',
        nameEn: 'Secret project',
        visible: false,
        position: 3,
      },
    ])
    .returning();
  const [shirts, mugs, hidden] = await db
    .insert(categories)
    .values([
      { link: 't-shirts', nameRu: 'Футболки', nameEn: 'T-shirts', position: 1 },
      { link: 'mugs', nameRu: 'Кружки', nameEn: 'Mugs', position: 2 },
      { link: 'drafts', nameRu: 'Черновики', nameEn: 'Drafts', visible: false, position: 3 },
    ])
    .returning();
  if (!witcher || !cyber || !secret || !shirts || !mugs || !hidden) throw new Error('fixture insert failed');

  const rows = await db
    .insert(products)
    .values([
      {
        projectId: witcher.id,
        link: 'wolf-shirt',
        nameRu: 'Футболка с волком',
        nameEn: 'Wolf T-shirt',
        descriptionRu: '<p>Хлопковая футболка с вышитым волком.</p>',
        descriptionEn: '<p>Cotton shirt with an embroidered wolf.</p>',
        price: 2_500_00,
        sale: 1_990_00,
        quantity: 10,
        weight: 200,
        weekSale: true,
        position: 1,
      },
      {
        projectId: witcher.id,
        link: 'wolf-mug',
        nameRu: 'Кружка с волком',
        nameEn: 'Wolf mug',
        descriptionRu: '<p>Керамическая кружка для горячих напитков.</p>',
        descriptionEn: '<p>Ceramic mug for hot drinks.</p>',
        price: 1_200_00,
        quantity: 0,
        weight: 450,
        position: 2,
      },
      {
        projectId: cyber.id,
        link: 'outlaw-shirt',
        nameRu: 'Футболка бандита',
        nameEn: 'Outlaw T-shirt',
        descriptionRu: '<p>Пиксельный принт на чёрной футболке.</p>',
        descriptionEn: '<p>Pixel print on a black shirt.</p>',
        price: 3_100_00,
        quantity: 3,
        weight: 200,
        position: 3,
      },
      {
        projectId: cyber.id,
        link: 'outlaw-statue',
        nameRu: 'Статуэтка бандита',
        nameEn: 'Outlaw statue',
        descriptionRu: '<p>Только задумана.</p>',
        descriptionEn: '<p>Only envisioned.</p>',
        price: 9_900_00,
        quantity: 0,
        envisioned: true,
        position: 4,
      },
      {
        projectId: cyber.id,
        link: 'hidden-mug',
        nameRu: 'Скрытая кружка',
        nameEn: 'Hidden mug',
        price: 999_00,
        quantity: 5,
        visible: false,
        position: 5,
      },
      {
        projectId: secret.id,
        link: 'secret-shirt',
        nameRu: 'Секретная футболка',
        nameEn: 'Secret T-shirt',
        price: 1_500_00,
        quantity: 5,
        position: 6,
      },
    ])
    .returning();
  const byLink = Object.fromEntries(rows.map((row) => [row.link, row]));
  const id = (link: string) => {
    const row = byLink[link];
    if (!row) throw new Error(`no fixture ${link}`);
    return row.id;
  };
  await db.insert(productCategories).values([
    { productId: id('wolf-shirt'), categoryId: shirts.id },
    { productId: id('wolf-shirt'), categoryId: hidden.id },
    { productId: id('wolf-mug'), categoryId: mugs.id },
    { productId: id('outlaw-shirt'), categoryId: shirts.id },
    { productId: id('outlaw-statue'), categoryId: mugs.id },
    { productId: id('hidden-mug'), categoryId: mugs.id },
    { productId: id('secret-shirt'), categoryId: shirts.id },
  ]);
  await db.insert(productImages).values([
    { productId: id('wolf-shirt'), file: 'wolf-1.webp', position: 0 },
    { productId: id('wolf-shirt'), file: 'wolf-2.webp', position: 1 },
    { productId: id('outlaw-shirt'), file: 'outlaw-1.webp', position: 0 },
  ]);
  await recordOpeningStock(db);
  return { projects: { witcher, cyber, secret }, categories: { shirts, mugs, hidden }, id };
}
